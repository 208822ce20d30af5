//! Weights from safetensors, looked up by their PyTorch parameter names through a
//! prefix-scoped view (`store.scope("layers.0.attn")`), the way candle's `VarBuilder`
//! does, so a PyTorch checkpoint loads without a conversion script.
//!
//! Every failure is a [`WeightsError`] naming the tensor and the shape that was expected;
//! no file, however malformed or truncated, makes the loader panic.

use half::{bf16, f16};
use ndarray::{Array1, Array2, ArrayD, IxDyn};
use safetensors::{Dtype, SafeTensorError, SafeTensors};
use std::collections::BTreeMap;

#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum WeightsError {
    #[error("{0}")]
    Format(String),
    #[error("tensor `{name}` is missing (expected shape {expected:?})")]
    Missing { name: String, expected: Vec<usize> },
    #[error("tensor `{name}` has shape {found:?}, expected {expected:?}")]
    Shape { name: String, expected: Vec<usize>, found: Vec<usize> },
    #[error("tensor `{name}` has dtype {dtype}; DiffLens reads F32, F16 and BF16")]
    Dtype { name: String, dtype: String },
    #[error("tensor `{name}` holds a NaN or an infinity")]
    NonFinite { name: String },
    #[error("there is no tensor `{name}` (the file holds {held})")]
    Absent { name: String, held: String },
    #[error("model config: {0}")]
    Config(String),
}

/// What is wrong with a file the safetensors crate refused, in the reader's terms: a
/// text or HTML file is "not a safetensors file", not "HeaderTooLarge".
fn format_problem(bytes: &[u8], e: &SafeTensorError) -> String {
    use SafeTensorError as E;
    let start: String = bytes.iter().take(16).map(|&b| if b.is_ascii_graphic() || b == b' ' { b as char } else { '·' }).collect();
    match e {
        E::HeaderTooSmall => format!("not a safetensors file: it is {} bytes long, shorter than the 8-byte header length every safetensors file starts with", bytes.len()),
        E::HeaderTooLarge | E::InvalidHeaderLength | E::InvalidHeaderStart | E::InvalidHeader | E::InvalidHeaderDeserialization => {
            format!("not a safetensors file: a safetensors file starts with an 8-byte length and a JSON header, this one starts with \"{start}\" (text, HTML or another format?)")
        }
        other => format!("a damaged safetensors file (truncated, or its tensor offsets do not fit): {other}"),
    }
}

/// One tensor converted to f32, with its shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}

/// Every tensor of a checkpoint, by full name, converted to f32 once at load.
///
/// A tensor that cannot be read as f32 (an I64 `num_batches_tracked`, a NaN) does not
/// reject the whole file: it is kept as its error, reported only if a model asks for it,
/// because PyTorch state dicts often carry tensors a layer never reads.
#[derive(Clone, Debug, Default)]
pub struct TensorStore {
    tensors: BTreeMap<String, Tensor>,
    unreadable: BTreeMap<String, WeightsError>,
}

fn to_f32(name: &str, dtype: Dtype, bytes: &[u8]) -> Result<Vec<f32>, WeightsError> {
    let words = |n: usize| bytes.chunks_exact(n);
    let values: Vec<f32> = match dtype {
        Dtype::F32 => words(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
        Dtype::F16 => words(2).map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
        Dtype::BF16 => words(2).map(|b| bf16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
        other => return Err(WeightsError::Dtype { name: name.to_string(), dtype: format!("{other:?}") }),
    };
    if values.iter().any(|v| !v.is_finite()) {
        return Err(WeightsError::NonFinite { name: name.to_string() });
    }
    Ok(values)
}

impl TensorStore {
    /// Parses a safetensors file; the crate checks the header and every offset.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, WeightsError> {
        let file = SafeTensors::deserialize(bytes).map_err(|e| WeightsError::Format(format_problem(bytes, &e)))?;
        let mut store = Self::default();
        for (name, view) in file.tensors() {
            match to_f32(&name, view.dtype(), view.data()) {
                Ok(data) => {
                    store.tensors.insert(name, Tensor { shape: view.shape().to_vec(), data });
                }
                Err(e) => {
                    store.unreadable.insert(name, e);
                }
            }
        }
        Ok(store)
    }

    /// The tensors of this file that `used` (what a model read back out) does not hold,
    /// with why each could not have been read anyway when that is the case.
    pub fn ignored(&self, used: &TensorStore) -> Vec<String> {
        let unused = self.tensors.keys().filter(|n| used.get(n).is_none()).cloned();
        let unreadable = self.unreadable.iter().filter(|(n, _)| used.get(n).is_none()).map(|(n, e)| format!("{n} ({e})"));
        unused.chain(unreadable).collect()
    }

    /// A tensor by full name: its values, or why this file's tensor of that name cannot
    /// be read (`None` when there is no such tensor).
    fn lookup(&self, name: &str) -> Option<Result<&Tensor, WeightsError>> {
        match self.unreadable.get(name) {
            Some(e) => Some(Err(e.clone())),
            None => self.tensors.get(name).map(Ok),
        }
    }

    pub fn insert(&mut self, name: impl Into<String>, shape: Vec<usize>, data: Vec<f32>) {
        assert_eq!(shape.iter().product::<usize>(), data.len(), "shape and data disagree");
        self.tensors.insert(name.into(), Tensor { shape, data });
    }

    pub fn get(&self, name: &str) -> Option<&Tensor> {
        self.tensors.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tensors.keys().map(String::as_str)
    }

    /// Writes the store as little-endian F32 safetensors.
    pub fn to_bytes(&self) -> Vec<u8> {
        let views: Vec<(String, safetensors::tensor::TensorView)> = self
            .tensors
            .iter()
            .map(|(name, t)| {
                let bytes: &[u8] = bytemuck_f32(&t.data);
                (name.clone(), safetensors::tensor::TensorView::new(Dtype::F32, t.shape.clone(), bytes).expect("shape matches data"))
            })
            .collect();
        safetensors::serialize(views, &None).expect("f32 tensors always serialise")
    }

    /// Writes the store as F16 safetensors: half the size, for the shipped checkpoints.
    pub fn to_bytes_f16(&self) -> Vec<u8> {
        let halves: Vec<(String, Vec<usize>, Vec<u8>)> =
            self.tensors.iter().map(|(name, t)| (name.clone(), t.shape.clone(), t.data.iter().flat_map(|v| f16::from_f32(*v).to_le_bytes()).collect())).collect();
        let views: Vec<(String, safetensors::tensor::TensorView)> =
            halves.iter().map(|(name, shape, bytes)| (name.clone(), safetensors::tensor::TensorView::new(Dtype::F16, shape.clone(), bytes).expect("shape matches data"))).collect();
        safetensors::serialize(views, &None).expect("f16 tensors always serialise")
    }

    /// A view whose names are relative to `prefix` (no prefix: the empty string).
    pub fn scope(&self, prefix: &str) -> Scope<'_> {
        Scope { store: self, prefix: prefix.to_string() }
    }
}

/// f32s as their little-endian bytes (safetensors' order; wasm32 and x86 are
/// little-endian).
fn bytemuck_f32(data: &[f32]) -> &[u8] {
    #[cfg(target_endian = "big")]
    compile_error!("DiffLens writes safetensors on little-endian targets only");
    bytemuck::cast_slice(data)
}

/// A prefix-scoped view of a [`TensorStore`].
#[derive(Clone, Debug)]
pub struct Scope<'a> {
    store: &'a TensorStore,
    prefix: String,
}

impl<'a> Scope<'a> {
    /// A child scope: `scope("layers.0").pp("attn")` reads `layers.0.attn.*`.
    pub fn pp(&self, name: &str) -> Scope<'a> {
        Scope { store: self.store, prefix: self.full_name(name) }
    }

    pub fn full_name(&self, name: &str) -> String {
        if self.prefix.is_empty() {
            name.to_string()
        } else {
            format!("{}.{}", self.prefix, name)
        }
    }

    fn checked(&self, name: &str, expected: &[usize]) -> Result<&'a Tensor, WeightsError> {
        let full = self.full_name(name);
        let tensor = self.store.lookup(&full).ok_or_else(|| WeightsError::Missing { name: full.clone(), expected: expected.to_vec() })??;
        if tensor.shape != expected {
            return Err(WeightsError::Shape { name: full, expected: expected.to_vec(), found: tensor.shape.clone() });
        }
        Ok(tensor)
    }

    pub fn matrix(&self, name: &str, rows: usize, cols: usize) -> Result<Array2<f32>, WeightsError> {
        let t = self.checked(name, &[rows, cols])?;
        Ok(Array2::from_shape_vec((rows, cols), t.data.clone()).expect("shape was checked"))
    }

    pub fn vector(&self, name: &str, len: usize) -> Result<Array1<f32>, WeightsError> {
        Ok(Array1::from(self.checked(name, &[len])?.data.clone()))
    }

    /// A tensor of any rank, for inputs such as `x` of shape `[B, T, E]` or `[T, E]`.
    pub fn any(&self, name: &str) -> Result<ArrayD<f32>, WeightsError> {
        let full = self.full_name(name);
        let Some(found) = self.store.lookup(&full) else {
            let held: Vec<&str> = self.store.tensors.keys().chain(self.store.unreadable.keys()).map(String::as_str).collect();
            let held = if held.is_empty() { "no tensors".to_string() } else { held.join(", ") };
            return Err(WeightsError::Absent { name: full, held });
        };
        let t = found?;
        Ok(ArrayD::from_shape_vec(IxDyn(&t.shape), t.data.clone()).expect("safetensors checked the size"))
    }
}
