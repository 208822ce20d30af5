//! A model's parameters as the training code sees them: every tensor of the checkpoint by
//! its checkpoint name, held as a matrix (a vector is one row), so gradients, the
//! optimiser's moments and the files the page writes all share one naming.

use super::real::Real;
use crate::weights::TensorStore;
use ndarray::{Array2, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2};
use std::collections::BTreeMap;

/// One tensor: its checkpoint shape and its values as `[rows, cols]` (a vector `[n]` is
/// `[1, n]`; a tensor of rank > 2 keeps its first axis as rows).
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor2<R> {
    pub shape: Vec<usize>,
    pub value: Array2<R>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params<R> {
    tensors: BTreeMap<String, Tensor2<R>>,
}

fn as_rows(shape: &[usize]) -> (usize, usize) {
    match shape {
        [] => (1, 1),
        [n] => (1, *n),
        [rows, rest @ ..] => (*rows, rest.iter().product()),
    }
}

impl<R: Real> Params<R> {
    /// Every tensor of `store`, converted.
    pub fn from_store(store: &TensorStore) -> Self {
        let mut tensors = BTreeMap::new();
        for name in store.names() {
            let t = store.get(name).expect("a listed tensor");
            let value = Array2::from_shape_vec(as_rows(&t.shape), t.data.iter().map(|&v| R::of_f32(v)).collect()).expect("a tensor's data fills its shape");
            tensors.insert(name.to_string(), Tensor2 { shape: t.shape.clone(), value });
        }
        Self { tensors }
    }

    /// Back to a checkpoint (f32), each tensor in its own shape.
    pub fn to_store(&self) -> TensorStore {
        let mut store = TensorStore::default();
        for (name, t) in &self.tensors {
            store.insert(name.clone(), t.shape.clone(), t.value.iter().map(|v| v.f64() as f32).collect());
        }
        store
    }

    /// The same names and shapes, every value 0 (where gradients accumulate).
    pub fn zeros_like(&self) -> Self {
        let tensors = self.tensors.iter().map(|(n, t)| (n.clone(), Tensor2 { shape: t.shape.clone(), value: Array2::zeros(t.value.dim()) })).collect();
        Self { tensors }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.tensors.contains_key(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tensors.keys().map(String::as_str)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Tensor2<R>)> {
        self.tensors.iter().map(|(n, t)| (n.as_str(), t))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Tensor2<R>)> {
        self.tensors.iter_mut().map(|(n, t)| (n.as_str(), t))
    }

    /// The number of values in every tensor together.
    pub fn count(&self) -> usize {
        self.tensors.values().map(|t| t.value.len()).sum()
    }

    fn tensor(&self, name: &str) -> &Tensor2<R> {
        // The network checks every name it reads before its first pass (`Net::new`).
        self.tensors.get(name).unwrap_or_else(|| panic!("no parameter `{name}`"))
    }

    fn tensor_mut(&mut self, name: &str) -> &mut Tensor2<R> {
        self.tensors.get_mut(name).unwrap_or_else(|| panic!("no parameter `{name}`"))
    }

    pub fn mat(&self, name: &str) -> ArrayView2<'_, R> {
        self.tensor(name).value.view()
    }

    pub fn mat_mut(&mut self, name: &str) -> ArrayViewMut2<'_, R> {
        self.tensor_mut(name).value.view_mut()
    }

    /// A vector parameter (its one row).
    pub fn vector(&self, name: &str) -> ArrayView1<'_, R> {
        self.tensor(name).value.row(0)
    }

    pub fn vector_mut(&mut self, name: &str) -> ArrayViewMut1<'_, R> {
        self.tensor_mut(name).value.row_mut(0)
    }

    /// The shape check the network runs before it reads anything: `name` exists with
    /// `[rows, cols]` values.
    pub fn expect(&self, name: &str, rows: usize, cols: usize) -> Result<(), String> {
        match self.tensors.get(name) {
            None => Err(format!("the model has no parameter `{name}`")),
            Some(t) if t.value.dim() != (rows, cols) => Err(format!("parameter `{name}` has shape {:?}, the config needs {rows} × {cols}", t.shape)),
            Some(_) => Ok(()),
        }
    }

    /// Largest |value| of every tensor together (for tolerances and reports).
    pub fn max_abs(&self) -> f64 {
        self.tensors.values().flat_map(|t| t.value.iter()).fold(0.0, |m, v| m.max(v.f64().abs()))
    }
}
