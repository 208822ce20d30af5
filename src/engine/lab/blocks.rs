//! A lab problem split by query rows, so that no piece of it holds the page's thread for
//! long: the workers compute blocks of rows of both softmax maps (with the blocks' pooled
//! pixels and their part of the λ sweep), the page copies each block into its maps as it
//! arrives, and whatever no worker did is computed on the page a block at a time between
//! paints (a worker's block is a `jobs::BlockJob`). On the GPU path the maps come back whole and only the summaries are made here,
//! block by block. The blocks depend on N alone and are summed in row order, so a
//! problem comes out the same, bit for bit, however many workers computed it.

use crate::core::lab::{self, LabInputs, LabMaps, LabParams, RowSummary, SweepBuilder, SweepPart};
use crate::engine::lab::{LabRun, MAP_PX};
use crate::viz::pooling::{block_edges, pool_pixel_rows, pooled_size};
use ndarray::{s, Array2};
use std::ops::Range;

/// Query rows per block at most: a block is a few milliseconds of work on the page.
const MAX_BLOCK_ROWS: usize = 128;
/// Blocks at least (when N allows): enough to share among eight workers.
const MIN_BLOCKS: usize = 16;

/// The blocks of a problem of N queries: consecutive ranges of query rows that cover
/// `0..n`, each a whole band of the pooled picture's pixel rows.
pub fn blocks(n: usize) -> Vec<Range<usize>> {
    pixel_bands(n).into_iter().map(|(rows, _)| rows).collect()
}

/// Each block's query rows and the pooled picture's pixel rows it makes.
fn pixel_bands(n: usize) -> Vec<(Range<usize>, Range<usize>)> {
    if n == 0 {
        return vec![];
    }
    let px = pooled_size(n, MAP_PX);
    let edges = block_edges(n, px);
    let count = MIN_BLOCKS.max(n.div_ceil(MAX_BLOCK_ROWS)).min(px);
    let per = px.div_ceil(count);
    (0..px).step_by(per).map(|p| (p + per).min(px)).zip((0..px).step_by(per)).map(|(end, start)| (edges[start]..edges[end], start..end)).collect()
}

/// One block computed: its rows of both maps (empty when the maps are already where they
/// are needed), its pixel rows of both pooled pictures, and its summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub summary: RowSummary,
    pub a1: Vec<f32>,
    pub a2: Vec<f32>,
    pub pooled_a1: Vec<f32>,
    pub pooled_a2: Vec<f32>,
}

impl Block {
    /// Computes rows `rows` of the problem from its inputs.
    pub fn compute(inputs: &LabInputs, rows: Range<usize>) -> Result<Block, String> {
        let (_, pixels) = band(inputs.n(), &rows)?;
        let (a1, a2) = lab::map_rows(inputs, rows.clone());
        let mut block = Self::from_rows(inputs, rows, pixels, &a1, &a2);
        (block.a1, block.a2) = (a1, a2);
        Ok(block)
    }

    /// Summarises rows `rows` of maps computed elsewhere (the GPU's, read back).
    fn of_maps(inputs: &LabInputs, maps: &LabMaps, rows: Range<usize>, pixels: Range<usize>) -> Block {
        let slice = |m: &Array2<f32>| m.slice(s![rows.clone(), ..]).as_slice().map(<[f32]>::to_vec);
        let (a1, a2) = match (slice(&maps.a1), slice(&maps.a2)) {
            (Some(a1), Some(a2)) => (a1, a2),
            _ => (maps.a1.slice(s![rows.clone(), ..]).iter().copied().collect(), maps.a2.slice(s![rows.clone(), ..]).iter().copied().collect()),
        };
        Self::from_rows(inputs, rows, pixels, &a1, &a2)
    }

    fn from_rows(inputs: &LabInputs, rows: Range<usize>, pixels: Range<usize>, a1: &[f32], a2: &[f32]) -> Block {
        let (n, first) = (inputs.n(), rows.start);
        let px = pooled_size(n, MAP_PX);
        let pool = |m: &[f32]| pool_pixel_rows(n, px, pixels.clone(), |i, out| out.copy_from_slice(&m[(i - first) * n..(i - first + 1) * n]));
        let (pooled_a1, pooled_a2) = (pool(a1), pool(a2));
        Block { summary: lab::summarise_rows(inputs, rows, a1, a2), a1: vec![], a2: vec![], pooled_a1, pooled_a2 }
    }
}

/// The band a block's rows make, or why they are not one of N's blocks.
fn band(n: usize, rows: &Range<usize>) -> Result<(usize, Range<usize>), String> {
    pixel_bands(n).into_iter().enumerate().find(|(_, (r, _))| r == rows).map(|(k, (_, p))| (k, p)).ok_or_else(|| format!("rows {}..{} are not a block of a problem of {n}", rows.start, rows.end))
}

/// A problem being put together from its blocks.
pub struct LabAssembly {
    params: LabParams,
    inputs: LabInputs,
    maps: LabMaps,
    /// The maps came whole from the GPU: blocks only summarise them.
    on_gpu: bool,
    pooled_a1: Vec<f32>,
    pooled_a2: Vec<f32>,
    bands: Vec<(Range<usize>, Range<usize>)>,
    summaries: Vec<Option<RowSummary>>,
    /// Once every block is in: standard attention's sums and the λ sweep being merged.
    merging: Option<((f64, f64), SweepBuilder)>,
}

impl LabAssembly {
    /// A problem for the CPU: its inputs now, its maps block by block.
    pub fn for_cpu(params: &LabParams) -> Self {
        let inputs = lab::generate(params);
        let n = inputs.n();
        let maps = LabMaps { a1: Array2::zeros((n, n)), a2: Array2::zeros((n, n)) };
        Self::with(params.clone(), inputs, maps, false)
    }

    /// A problem whose maps the GPU computed: only the summaries are left to make.
    pub fn for_maps(params: LabParams, inputs: LabInputs, maps: LabMaps) -> Self {
        Self::with(params, inputs, maps, true)
    }

    fn with(params: LabParams, inputs: LabInputs, maps: LabMaps, on_gpu: bool) -> Self {
        let n = inputs.n();
        let px = pooled_size(n.max(1), MAP_PX);
        let bands = pixel_bands(n);
        let summaries = vec![None; bands.len()];
        Self { params, inputs, maps, on_gpu, pooled_a1: vec![0.0; px * px], pooled_a2: vec![0.0; px * px], bands, summaries, merging: None }
    }

    pub fn params(&self) -> &LabParams {
        &self.params
    }

    /// Whether the blocks left need the maps computed (and so are worth a worker).
    pub fn computes_maps(&self) -> bool {
        !self.on_gpu
    }

    /// The query rows of each block not done yet.
    pub fn missing(&self) -> Vec<Range<usize>> {
        if self.merging.is_some() {
            return vec![];
        }
        self.bands.iter().zip(&self.summaries).filter(|(_, s)| s.is_none()).map(|((rows, _), _)| rows.clone()).collect()
    }

    pub fn is_complete(&self) -> bool {
        self.merging.is_some() || self.summaries.iter().all(Option::is_some)
    }

    /// Does block `rows` here, on this thread.
    pub fn compute(&mut self, rows: Range<usize>) -> Result<(), String> {
        let (k, pixels) = band(self.inputs.n(), &rows)?;
        if self.merging.is_some() || self.summaries[k].is_some() {
            return Ok(());
        }
        let block = if self.on_gpu { Block::of_maps(&self.inputs, &self.maps, rows, pixels) } else { Block::compute(&self.inputs, rows)? };
        self.add(block)
    }

    /// Puts a block computed elsewhere in its place (a block already in place is kept).
    pub fn add(&mut self, block: Block) -> Result<(), String> {
        let n = self.inputs.n();
        let rows = block.summary.rows.clone();
        let (k, pixels) = band(n, &rows)?;
        let px = pooled_size(n, MAP_PX);
        let cells = pixels.len() * px;
        if block.pooled_a1.len() != cells || block.pooled_a2.len() != cells {
            return Err(format!("block {}..{}: {} and {} pooled pixels, not {cells}", rows.start, rows.end, block.pooled_a1.len(), block.pooled_a2.len()));
        }
        if !self.on_gpu {
            let want = rows.len() * n;
            if block.a1.len() != want || block.a2.len() != want {
                return Err(format!("block {}..{}: {} and {} map entries, not {want}", rows.start, rows.end, block.a1.len(), block.a2.len()));
            }
        }
        if self.merging.is_some() || self.summaries[k].is_some() {
            return Ok(());
        }
        if !self.on_gpu {
            let put = |m: &mut Array2<f32>, v: &[f32]| match m.slice_mut(s![rows.clone(), ..]).as_slice_mut() {
                Some(dst) => dst.copy_from_slice(v),
                None => m.slice_mut(s![rows.clone(), ..]).iter_mut().zip(v).for_each(|(d, s)| *d = *s),
            };
            put(&mut self.maps.a1, &block.a1);
            put(&mut self.maps.a2, &block.a2);
        }
        let at = pixels.start * px..pixels.end * px;
        self.pooled_a1[at.clone()].copy_from_slice(&block.pooled_a1);
        self.pooled_a2[at].copy_from_slice(&block.pooled_a2);
        self.summaries[k] = Some(block.summary);
        Ok(())
    }

    /// One bounded piece of putting the blocks together once all are in (the blocks'
    /// sums added in row order, then one merge of their sorted kinks); false once
    /// nothing but [`Self::finish`] is left, or while blocks are missing.
    pub fn merge_step(&mut self) -> bool {
        if self.merging.is_none() {
            if !self.is_complete() {
                return false;
            }
            let (mut signal, mut noise_abs) = (0.0, 0.0);
            let mut parts: Vec<SweepPart> = Vec::with_capacity(self.summaries.len());
            for s in self.summaries.iter_mut().map(|s| s.take().expect("complete")) {
                signal += s.standard_signal;
                noise_abs += s.standard_noise_abs;
                parts.push(s.sweep);
            }
            self.merging = Some(((signal, noise_abs), SweepBuilder::new(self.inputs.n(), parts)));
            return true;
        }
        self.merging.as_mut().is_some_and(|(_, b)| b.step())
    }

    /// The problem, once every block is in and merged (what merging is left is done now).
    pub fn finish(mut self) -> Result<LabRun, String> {
        let missing = self.missing();
        if self.merging.is_none() {
            if let Some(rows) = missing.first() {
                return Err(format!("{} blocks not computed, from rows {}..{}", missing.len(), rows.start, rows.end));
            }
            self.merge_step();
        }
        let ((signal, noise_abs), builder) = self.merging.take().expect("merging began above");
        let n = self.inputs.n();
        let sweep = builder.finish();
        let standard = lab::LabMetrics::from_sums(n, self.inputs.signal_keys.len(), n, [signal, noise_abs, 0.0, 0.0], 0.0);
        let px = pooled_size(n.max(1), MAP_PX);
        Ok(LabRun::assembled(self.params, self.inputs, self.maps, sweep, standard, (px, self.pooled_a1, self.pooled_a2), self.on_gpu))
    }

    /// Every block here at once (native callers, and tests).
    pub fn run_all(mut self) -> Result<LabRun, String> {
        for rows in self.missing() {
            self.compute(rows)?;
        }
        self.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lab::MapKind;

    #[test]
    fn blocks_cover_the_rows_once_along_pixel_bands() {
        for n in [1, 7, 64, 256, 384, 1000, 2048, 4096] {
            let b = blocks(n);
            assert_eq!(b.first().map(|r| r.start), Some(0), "n {n}");
            assert_eq!(b.last().map(|r| r.end), Some(n), "n {n}");
            assert!(b.windows(2).all(|w| w[0].end == w[1].start && w[0].start < w[0].end), "n {n}: {b:?}");
            assert!(b.iter().all(|r| r.len() <= MAX_BLOCK_ROWS.max(n.div_ceil(MIN_BLOCKS))), "n {n}: {b:?}");
        }
        assert_eq!(blocks(2048).len(), 16);
        assert_eq!(blocks(4096).len(), 32);
    }

    /// Whatever order the blocks come in, and whether they are computed block by block
    /// (here or in a worker: `jobs::tests`) or summarised from whole maps, the problem is the
    /// same bit for bit; and it is the core's problem: the same maps, and the metrics and
    /// λ sweep of the whole maps within f64 rounding of the sums' order.
    #[test]
    fn a_problem_from_blocks_in_any_order_is_the_whole_problem() {
        for n in [48, 300, 1500] {
            let params = LabParams { n, noise: 2.0, ..LabParams::default() };
            let here = LabAssembly::for_cpu(&params).run_all().unwrap();
            let mut by_workers = LabAssembly::for_cpu(&params);
            let inputs = lab::generate(&params);
            for rows in by_workers.missing().into_iter().rev() {
                by_workers.add(Block::compute(&inputs, rows).unwrap()).unwrap();
            }
            // Merged a step at a time, as the page does between paints.
            let mut steps = 0;
            while by_workers.merge_step() {
                steps += 1;
            }
            assert!(steps >= blocks(n).len(), "n {n}: the sums, then a merge per block but the first, then the prefix sums");
            let by_workers = by_workers.finish().unwrap();
            let inputs = lab::generate(&params);
            let whole = lab::maps(&inputs);
            let from_maps = LabAssembly::for_maps(params.clone(), inputs.clone(), whole.clone()).run_all().unwrap();
            let lambdas = lab::linspace(-0.5, 1.5, 41);
            for run in [&by_workers, &from_maps] {
                assert_eq!(run.maps.a1, here.maps.a1, "n {n}");
                assert_eq!(run.maps.a2, here.maps.a2, "n {n}");
                assert_eq!(run.sweep.curve(&lambdas), here.sweep.curve(&lambdas), "n {n}");
                assert_eq!(run.lambda_curve(121), here.lambda_curve(121), "n {n}");
                assert_eq!(run.metrics(0.6), here.metrics(0.6), "n {n}");
                for kind in [MapKind::A1, MapKind::A2] {
                    assert_eq!(run.pooled_softmax(kind), here.pooled_softmax(kind), "n {n}");
                }
            }
            // Against the core's whole maps: blocks are rows of the same products.
            let d = |a: &Array2<f32>, b: &Array2<f32>| crate::core::analysis::max_abs_diff(a, b);
            assert!(d(&here.maps.a1, &whole.a1) <= 1e-7 && d(&here.maps.a2, &whole.a2) <= 1e-7, "n {n}");
            let px = pooled_size(n, MAP_PX);
            assert_eq!(*here.pooled_softmax(MapKind::A1), here.pooled(MapKind::A1, 0.0, px), "n {n}: the blocks' pooled bands are the pooled map");
            let (core_sweep, core_metrics) = (lab::LambdaSweep::new(&inputs, &whole), lab::metrics(&inputs, &whole, 0.6));
            // Sums of the same f64 terms grouped by block: equal to ~1e-12. The sweep's
            // differential side rebuilds a1 as r·a2 in f32, so against a direct pass over
            // the maps it agrees to f32 rounding (~1e-7), as it always has.
            let close = |a: f64, b: f64, tol: f64| (a - b).abs() <= tol * b.abs().max(1e-300);
            for &l in &lambdas {
                assert!(close(here.sweep.snr(l), core_sweep.snr(l), 1e-12), "n {n}, λ {l}");
            }
            let m = here.metrics(0.6);
            assert!(close(m.standard.snr, core_metrics.standard.snr, 1e-12) && close(m.differential.snr, core_metrics.differential.snr, 1e-6), "n {n}: {m:?} vs {core_metrics:?}");
        }
    }

    #[test]
    fn wrong_blocks_and_broken_answers_are_refused() {
        let params = LabParams { n: 64, ..LabParams::default() };
        let mut a = LabAssembly::for_cpu(&params);
        assert!(a.compute(0..5).unwrap_err().contains("not a block"));
        let rows = a.missing()[0].clone();
        let mut block = Block::compute(&lab::generate(&params), rows.clone()).unwrap();
        block.a1.pop();
        assert!(a.add(block).unwrap_err().contains("map entries"));
        assert!(a.finish().err().expect("blocks are missing").contains("blocks not computed"));
    }
}
