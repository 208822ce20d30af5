//! The lab's slow charts as one resumable job: the noise mass at eight context lengths,
//! then the SNR at 25 noise levels (each a whole problem). A caller on the browser's main
//! thread runs it a small step at a time and paints between steps; anything can stop it
//! between two steps (a newer problem or λ simply starts a new job).

use crate::core::lab::{self, LabParams, MetricsStream, NoiseMassPoint, NoiseSweepPoint};
use crate::engine::lab::{context_lengths, noise_grid};

/// What one step finished.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Still working on the current point.
    Working,
    /// The noise-mass chart is complete (its points are shown together).
    Masses(Vec<NoiseMassPoint>),
    /// One more point of the SNR-against-noise chart.
    Noise(NoiseSweepPoint),
    /// Nothing left to do.
    Done,
}

pub struct SlowCharts {
    params: LabParams,
    lambda: f32,
    lengths: std::vec::IntoIter<usize>,
    masses: Vec<NoiseMassPoint>,
    levels: std::vec::IntoIter<f32>,
    /// The noise level being computed and its stream of query rows.
    current: Option<(f32, MetricsStream<'static>)>,
}

impl SlowCharts {
    pub fn new(params: &LabParams, lambda: f32) -> Self {
        Self::with(params, lambda, context_lengths(), noise_grid())
    }

    /// The same job over chosen context lengths and noise levels (the page hands the
    /// noise levels to its workers and computes here only what they leave).
    pub fn with(params: &LabParams, lambda: f32, lengths: Vec<usize>, levels: Vec<f32>) -> Self {
        Self { params: params.clone(), lambda, lengths: lengths.into_iter(), masses: vec![], levels: levels.into_iter(), current: None }
    }

    /// Does a bounded piece of work: one noise-mass point (O(N) for N up to 128k keys),
    /// or up to `rows` query rows of the current noise level's problem.
    pub fn step(&mut self, rows: usize) -> Step {
        if let Some(n) = self.lengths.next() {
            self.masses.push(lab::noise_mass(&self.params, self.lambda, n));
            return if self.lengths.len() == 0 { Step::Masses(std::mem::take(&mut self.masses)) } else { Step::Working };
        }
        if self.current.is_none() {
            let Some(sigma) = self.levels.next() else { return Step::Done };
            self.current = Some((sigma, lab::noise_point_stream(&self.params, self.lambda, sigma)));
        }
        let (sigma, stream) = self.current.as_mut().expect("set just above");
        if stream.advance(rows) {
            return Step::Working;
        }
        let point = NoiseSweepPoint::new(*sigma, &stream.finish());
        self.current = None;
        Step::Noise(point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_yields_every_point_of_both_charts_as_computed_directly() {
        let params = LabParams { n: 64, ..LabParams::default() };
        let mut job = SlowCharts::new(&params, 0.7);
        let (mut masses, mut noise, mut steps) = (None, vec![], 0);
        loop {
            steps += 1;
            match job.step(5) {
                Step::Working => {}
                Step::Masses(m) => masses = Some(m),
                Step::Noise(p) => noise.push(p),
                Step::Done => break,
            }
        }
        let masses = masses.expect("the noise-mass chart completes");
        let want: Vec<_> = context_lengths().into_iter().map(|n| lab::noise_mass(&params, 0.7, n)).collect();
        assert_eq!(masses, want);
        assert_eq!(noise.len(), noise_grid().len());
        for (p, sigma) in noise.iter().zip(noise_grid()) {
            let mut direct = lab::noise_point_stream(&params, 0.7, sigma);
            while direct.advance(64) {}
            assert_eq!(*p, NoiseSweepPoint::new(sigma, &direct.finish()), "σ = {sigma}: five rows at a time or all at once, the same sums");
        }
        // 8 mass points, then 13 steps of 5 rows per 64-row problem at 25 levels, then Done.
        assert_eq!(steps, 8 + 25 * 13 + 1);
        assert_eq!(job.step(5), Step::Done, "a finished job stays finished");
    }
}
