//! The noise-floor lab as the page uses it: one run per problem (N, noise, seed, …),
//! then cheap queries per λ, so dragging λ never recomputes a softmax.

pub mod blocks;

use crate::core::analysis::max_abs_diff;
use crate::core::lab::{self, LabInputs, LabMaps, LambdaSweep};
/// The lab's numbers as the page shows them (the page reads them through the engine).
pub use crate::core::lab::{LabMetrics, LabParams, NoiseMassPoint, NoiseSweepPoint, SnrPoint};
pub use crate::core::lambda::lambda_init_for_depth;
use crate::engine::lab::blocks::LabAssembly;
use crate::gpu::context::GpuContext;
pub use crate::gpu::lab::Pace;
use crate::gpu::lab::{GpuLab, LambdaReadback};
use crate::gpu::layout::RowLayout;
use crate::viz::pooling::{pool_difference, pool_max_magnitude};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The maps are pooled to at most this many pixels a side for the screen.
pub const MAP_PX: usize = 384;

/// Which of the three maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapKind {
    A1,
    A2,
    Diff,
}

/// One lab problem with its maps and the structures that make λ queries cheap.
pub struct LabRun {
    pub params: LabParams,
    pub inputs: LabInputs,
    pub maps: LabMaps,
    pub sweep: LambdaSweep,
    /// The softmax maps came from the GPU (which keeps them for "Verify"); λ updates
    /// use the host copies on both paths.
    pub on_gpu: bool,
    /// Standard attention's metrics do not depend on λ: computed once.
    standard: LabMetrics,
    /// A1 and A2 pooled to `MAP_PX` (they do not depend on λ either): made with the
    /// blocks, where the rows were at hand.
    pooled: (usize, Arc<Vec<f32>>, Arc<Vec<f32>>),
}

/// The standard-attention SNR below which the page calls attention "unusable": a signal
/// key then gets less than twice the weight of an average noise key.
pub const UNUSABLE_SNR: f64 = 2.0;

/// λ range of the sweep: the slider's (the lab's knob table).
pub const LAMBDA_RANGE: (f32, f32) = (crate::state::lab_state::LAMBDA.min as f32, crate::state::lab_state::LAMBDA.max as f32);

impl LabRun {
    /// Generates the problem and both softmax maps on the CPU core, here and at once.
    pub fn compute_cpu(params: &LabParams) -> Self {
        LabAssembly::for_cpu(params).run_all().expect("every block of its own problem")
    }

    /// Wraps maps computed elsewhere (the GPU path) with the same CPU-side structures.
    pub fn from_maps(params: LabParams, inputs: LabInputs, maps: LabMaps) -> Self {
        LabAssembly::for_maps(params, inputs, maps).run_all().expect("every block of its own maps")
    }

    /// A problem put together from its blocks (`engine::lab_blocks`).
    pub(super) fn assembled(params: LabParams, inputs: LabInputs, maps: LabMaps, sweep: LambdaSweep, standard: LabMetrics, pooled: (usize, Vec<f32>, Vec<f32>), on_gpu: bool) -> Self {
        let (px, a1, a2) = pooled;
        Self { params, inputs, maps, sweep, on_gpu, standard, pooled: (px, Arc::new(a1), Arc::new(a2)) }
    }

    /// A1 or A2 pooled to the screen's `pooled_size(n, MAP_PX)` pixels a side (the
    /// difference map, which follows λ, is [`Self::pooled`]).
    pub fn pooled_softmax(&self, kind: MapKind) -> Arc<Vec<f32>> {
        match kind {
            MapKind::A2 => self.pooled.2.clone(),
            _ => self.pooled.1.clone(),
        }
    }

    pub fn n(&self) -> usize {
        self.inputs.n()
    }

    /// Both kinds' metrics at λ. While the sweep covers every row this costs a binary
    /// search, not a pass over N² entries; beyond that it is computed exactly.
    pub fn metrics(&self, lambda: f32) -> LabMetrics {
        if self.sweep.row_stride > 1 {
            return lab::metrics(&self.inputs, &self.maps, lambda);
        }
        LabMetrics { differential: self.sweep.differential(lambda), lambda, diff_row_sum: 1.0 - lambda as f64, ..self.standard }
    }

    /// The value of one map at (query i, key j).
    pub fn value(&self, kind: MapKind, lambda: f32, i: usize, j: usize) -> f32 {
        match kind {
            MapKind::A1 => self.maps.a1[[i, j]],
            MapKind::A2 => self.maps.a2[[i, j]],
            MapKind::Diff => self.maps.a1[[i, j]] - lambda * self.maps.a2[[i, j]],
        }
    }

    /// The map pooled to `r × r` pixels (max magnitude), row-major.
    pub fn pooled(&self, kind: MapKind, lambda: f32, r: usize) -> Vec<f32> {
        let n = self.n();
        // Rows as contiguous slices of the row-major maps, so the loops vectorise (and a
        // λ update allocates nothing to find them).
        fn flat(m: &ndarray::Array2<f32>) -> &[f32] {
            m.as_slice().expect("lab maps are row-major")
        }
        let (a1, a2) = (flat(&self.maps.a1), flat(&self.maps.a2));
        match kind {
            MapKind::A1 => pool_difference(n, r, a1, None),
            MapKind::A2 => pool_difference(n, r, a2, None),
            MapKind::Diff => pool_difference(n, r, a1, Some((a2, lambda))),
        }
    }

    /// One query's weights over all keys: standard (A1) and differential (A1 − λA2).
    pub fn row(&self, i: usize, lambda: f32) -> (Vec<f32>, Vec<f32>) {
        let a1 = self.maps.a1.row(i).to_vec();
        let diff = a1.iter().zip(self.maps.a2.row(i)).map(|(a, b)| a - lambda * b).collect();
        (a1, diff)
    }

    /// SNR of A1 − λA2 over the slider's λ range, and the best λ in it.
    pub fn lambda_curve(&self, points: usize) -> (Vec<SnrPoint>, SnrPoint) {
        let curve = self.sweep.curve(&lab::linspace(LAMBDA_RANGE.0, LAMBDA_RANGE.1, points));
        (curve, self.sweep.best_lambda(LAMBDA_RANGE.0, LAMBDA_RANGE.1))
    }
}

/// Noise amplitudes of the SNR-against-noise chart.
pub fn noise_grid() -> Vec<f32> {
    lab::linspace(0.0, 6.0, 25)
}

/// Context lengths of the noise-floor chart: 1k to 128k keys, doubling.
pub fn context_lengths() -> Vec<usize> {
    (0..8).map(|k| 1024usize << k).collect()
}

/// One point of the SNR-against-noise chart: a full problem at that noise amplitude,
/// computed a few query rows per `advance`.
pub fn noise_point(params: &LabParams, lambda: f32, noise: f32) -> lab::MetricsStream<'static> {
    lab::noise_point_stream(params, lambda, noise)
}

/// One point of the noise-floor chart: one query's noise mass over `n` keys.
pub fn noise_mass_point(params: &LabParams, lambda: f32, n: usize) -> NoiseMassPoint {
    lab::noise_mass(params, lambda, n)
}

/// Where standard attention becomes unusable, read off the chart's points by linear
/// interpolation between the last point above [`UNUSABLE_SNR`] and the first below.
pub fn unusable_noise(points: &[lab::NoiseSweepPoint]) -> Option<f64> {
    points.windows(2).find(|w| w[0].standard_snr >= UNUSABLE_SNR && w[1].standard_snr < UNUSABLE_SNR).map(|w| {
        let (a, b) = (w[0], w[1]);
        let f = (a.standard_snr - UNUSABLE_SNR) / (a.standard_snr - b.standard_snr);
        a.noise + f * (b.noise - a.noise)
    })
}

/// "Verify GPU against CPU": the largest differences between what the GPU produced (its
/// maps, and its own λ kernels' pooled difference map and metrics at λ) and the CPU
/// core's recomputation of the same problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Verification {
    /// The largest map difference (tolerance [`Verification::MAP_TOLERANCE`]).
    pub worst: f64,
    pub sentence: String,
}

impl Verification {
    /// Maps are probabilities computed in f32 on both sides in different orders.
    pub const MAP_TOLERANCE: f64 = 1e-5;

    /// `other`: the same problem from the row layout the adapter does not prefer
    /// ([`GpuSession::in_other_layout`]), or why it could not be made.
    pub fn of(run: &LabRun, lambda: f32, px: usize, gpu_pooled: &[f32], gpu_metrics: &LabMetrics, other: Option<(RowLayout, Result<OtherLayout, String>)>) -> Self {
        let cpu = lab::maps(&run.inputs);
        let max_abs = |a: &ndarray::Array2<f32>, b: &ndarray::Array2<f32>| max_abs_diff(a, b) as f64;
        let (d1, d2) = (max_abs(&run.maps.a1, &cpu.a1), max_abs(&run.maps.a2, &cpu.a2));
        let want = pool_max_magnitude(run.n(), px, |i, j| cpu.a1[[i, j]] - lambda * cpu.a2[[i, j]]);
        let (other_worst, other_sentence) = match other {
            None => (0.0, String::new()),
            Some((layout, Err(e))) => (f64::INFINITY, format!(" {}", crate::tr!("lab-verified-other-failed", layout = layout_name(layout), error = e))),
            Some((layout, Ok(o))) => {
                let (o1, o2, od) = (max_abs(&o.maps.a1, &cpu.a1), max_abs(&o.maps.a2, &cpu.a2), max_abs_diff(&o.pooled, &want) as f64);
                (o1.max(o2).max(od), format!(" {}", crate::tr!("lab-verified-other", layout = layout_name(layout), a1 = format!("{o1:.1e}"), a2 = format!("{o2:.1e}"), diff = format!("{od:.1e}"))))
            }
        };
        let dd = max_abs_diff(gpu_pooled, &want) as f64;
        let cm = lab::metrics(&run.inputs, &cpu, lambda);
        let rel = |g: f64, c: f64| if c == 0.0 { (g - c).abs() } else { ((g - c) / c).abs() };
        let snr = rel(gpu_metrics.standard.snr, cm.standard.snr).max(rel(gpu_metrics.differential.snr, cm.differential.snr));
        Self {
            worst: d1.max(d2).max(dd).max(other_worst),
            sentence: crate::tr!(
                "lab-verified",
                a1 = format!("{d1:.1e}"),
                a2 = format!("{d2:.1e}"),
                diff = format!("{dd:.1e}"),
                snr = format!("{snr:.1e}"),
                tolerance = format!("{:.0e}", Self::MAP_TOLERANCE)
            ) + &other_sentence,
        }
    }
}

/// What "Verify" checks of the row layout the adapter does not prefer.
pub struct OtherLayout {
    pub maps: LabMaps,
    /// The λ update's pooled A1 − λ·A2.
    pub pooled: Vec<f32>,
}

/// A row layout in the reader's words.
fn layout_name(layout: RowLayout) -> String {
    match layout {
        RowLayout::WorkgroupPerRow => crate::tr!("lab-layout-workgroup"),
        RowLayout::InvocationPerRow => crate::tr!("lab-layout-invocation"),
    }
}

/// The GPU and the lab's resident buffers on it.
pub struct GpuSession {
    pub ctx: Rc<GpuContext>,
    lab: RefCell<GpuLab>,
}

impl GpuSession {
    pub fn new(ctx: Rc<GpuContext>) -> Self {
        let lab = RefCell::new(GpuLab::new(&ctx));
        Self { ctx, lab }
    }

    /// A new problem on the GPU: both softmaxes there, the maps read back once; what the
    /// λ queries need is made from them block by block (`LabAssembly`).
    pub async fn maps(&self, params: &LabParams, pace: Pace<'_>) -> Result<LabAssembly, String> {
        let inputs = lab::generate(params);
        let readback = self.lab.borrow_mut().load(&self.ctx, &inputs)?;
        let maps = readback.read(&self.ctx, pace).await?;
        Ok(LabAssembly::for_maps(params.clone(), inputs, maps))
    }

    /// A new problem where the page can run it: on the GPU when there is a session, else
    /// (or if the GPU refuses it) on the CPU core, with a sentence saying why. Nothing is
    /// computed yet on the CPU path: its blocks are for the caller to place.
    pub async fn assembly_or_cpu(session: Option<&GpuSession>, params: &LabParams, pace: Pace<'_>) -> (LabAssembly, Option<String>) {
        match session {
            None => (LabAssembly::for_cpu(params), None),
            Some(s) => match s.maps(params, pace).await {
                Ok(a) => (a, None),
                Err(e) => (LabAssembly::for_cpu(params), Some(crate::tr!("lab-runs-on-cpu", error = e.to_string()))),
            },
        }
    }

    /// The problem once more, from the row layout this adapter does not prefer (on a
    /// software adapter: the workgroup-per-row kernels a hardware GPU runs): its maps and
    /// its λ update at `lambda`, pooled to `px`, so "Verify" checks both sets of kernels
    /// on the device at hand. Its buffers are dropped after.
    pub async fn in_other_layout(&self, inputs: &LabInputs, lambda: f32, px: usize) -> (RowLayout, Result<OtherLayout, String>) {
        let other = match RowLayout::preferred(&self.ctx) {
            RowLayout::WorkgroupPerRow => RowLayout::InvocationPerRow,
            RowLayout::InvocationPerRow => RowLayout::WorkgroupPerRow,
        };
        let mut lab = GpuLab::with_layout(&self.ctx, other);
        let made = async {
            let maps = lab.load(&self.ctx, inputs)?.read(&self.ctx, &|| Box::pin(async {})).await?;
            let (pooled, _) = lab.lambda_update(&self.ctx, lambda, px)?.read(&self.ctx, inputs.signal_keys.len()).await?;
            Ok(OtherLayout { maps, pooled })
        };
        (other, made.await)
    }

    /// Starts a λ-only update on the resident maps; await `.read(ctx, n_signal)`.
    /// Keep one in flight at a time (they share a staging buffer).
    pub fn lambda_update(&self, lambda: f32, px: usize) -> Result<LambdaReadback, String> {
        self.lab.borrow().lambda_update(&self.ctx, lambda, px)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verification_reports_the_largest_difference_and_passes_an_exact_match() {
        let params = LabParams { n: 48, ..LabParams::default() };
        let (assembly, note) = pollster::block_on(GpuSession::assembly_or_cpu(None, &params, &|| Box::pin(async {})));
        assert!(note.is_none() && assembly.computes_maps(), "without a GPU session the CPU core runs it, silently");
        let run = assembly.run_all().unwrap();
        assert!(!run.on_gpu);
        let (l, px) = (0.8, 16);
        let pooled = run.pooled(MapKind::Diff, l, px);
        let exact = Verification::of(&run, l, px, &pooled, &run.metrics(l), None);
        assert!(exact.worst <= 1e-7, "{exact:?}");
        assert!(exact.sentence.contains("Tolerance 1e-5 on maps"), "{}", exact.sentence);
        let mut off = pooled.clone();
        off[5] += 3e-4;
        let wrong = Verification::of(&run, l, px, &off, &run.metrics(l), None);
        assert!((wrong.worst - 3e-4).abs() < 1e-6, "{wrong:?}");
        assert!(wrong.worst > Verification::MAP_TOLERANCE);
    }

    #[test]
    fn verification_counts_the_other_row_layout() {
        let params = LabParams { n: 40, ..LabParams::default() };
        let run = LabAssembly::for_cpu(&params).run_all().unwrap();
        let (l, px) = (0.5, 40);
        let pooled = run.pooled(MapKind::Diff, l, px);
        let other = |maps: LabMaps, pooled: Vec<f32>| Some((RowLayout::WorkgroupPerRow, Ok(OtherLayout { maps, pooled })));
        let same = Verification::of(&run, l, px, &pooled, &run.metrics(l), other(run.maps.clone(), pooled.clone()));
        assert!(same.worst <= 1e-7 && same.sentence.contains("The other row layout (one workgroup per row, vec4 loads): A1 0.0e0, A2 0.0e0, A1 − λ·A2 pooled 0.0e0."), "{}", same.sentence);
        let mut maps = run.maps.clone();
        maps.a2[[3, 7]] += 2e-3;
        let off = Verification::of(&run, l, px, &pooled, &run.metrics(l), other(maps, pooled.clone()));
        assert!((off.worst - 2e-3).abs() < 1e-6, "{off:?}");
        let mut wrong = pooled.clone();
        wrong[11] -= 5e-4;
        let off = Verification::of(&run, l, px, &pooled, &run.metrics(l), other(run.maps.clone(), wrong));
        assert!((off.worst - 5e-4).abs() < 1e-6 && off.sentence.contains("pooled 5.0e-4"), "{}", off.sentence);
        let failed = Verification::of(&run, l, px, &pooled, &run.metrics(l), Some((RowLayout::InvocationPerRow, Err("no room".into()))));
        assert!(failed.worst.is_infinite() && failed.sentence.contains("one invocation per row") && failed.sentence.contains("no room"), "{}", failed.sentence);
    }
}
