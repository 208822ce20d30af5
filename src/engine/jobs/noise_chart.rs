//! The lab's noise charts, a part at a time: the SNR-against-noise chart one noise level
//! at a time (the problem on screen, λ and σ), and the noise-floor chart's masses at
//! every context length (eight O(N) points, up to 128k keys) as one part, since that
//! chart shows them together. Where no worker is left, the page computes a part in
//! slices (a context length, or a few query rows, at a time) with the same sums.

use crate::core::lab::{LabParams, NoiseMassPoint, NoiseSweepPoint};
use crate::core::model::Model;
use crate::engine::jobs::{plain, plain_back, Job, Slices, WorkerMemory};
use crate::engine::lab::{context_lengths, noise_mass_point, noise_point};
use serde::{Deserialize, Serialize};

/// Which part of the charts a job computes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum ChartPart {
    /// The noise floor's masses at every context length.
    Masses,
    /// One noise level of the SNR chart.
    Level(f32),
}

/// A part computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ChartPoint {
    Masses(Vec<NoiseMassPoint>),
    Level(NoiseSweepPoint),
}

/// A part of the charts of the problem on screen (`params`), its differential map at `lambda`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseChartJob {
    pub params: LabParams,
    pub lambda: f32,
    pub part: ChartPart,
}

/// A part on the page: the masses a context length at a time, a noise level a few rows
/// at a time.
enum PartSlices {
    Masses { params: LabParams, lambda: f32, lengths: std::vec::IntoIter<usize>, points: Vec<NoiseMassPoint> },
    Level { sigma: f32, stream: crate::core::lab::MetricsStream<'static> },
}

/// Rows of a noise level's problem per slice step.
const ROWS_PER_STEP: usize = 8;

impl Slices<ChartPoint> for PartSlices {
    fn step(&mut self, _: &[&Model], _: &mut WorkerMemory) -> Result<Option<ChartPoint>, String> {
        Ok(match self {
            Self::Masses { params, lambda, lengths, points } => match lengths.next() {
                Some(n) => {
                    points.push(noise_mass_point(params, *lambda, n));
                    None
                }
                None => Some(ChartPoint::Masses(std::mem::take(points))),
            },
            Self::Level { sigma, stream } => match stream.advance(ROWS_PER_STEP) {
                true => None,
                false => Some(ChartPoint::Level(NoiseSweepPoint::new(*sigma, &stream.finish()))),
            },
        })
    }
}

impl Job for NoiseChartJob {
    const KIND: &'static str = "noise-chart";
    type Output = ChartPoint;
    type Answer = ChartPoint;

    /// A worker computes a noise level's rows all at once; the page's slices, a few at a
    /// time, give the same sums (the tests compare them).
    fn run(&self, _: &[&Model], _: &mut WorkerMemory) -> Result<ChartPoint, String> {
        Ok(match self.part {
            ChartPart::Masses => ChartPoint::Masses(context_lengths().into_iter().map(|n| noise_mass_point(&self.params, self.lambda, n)).collect()),
            ChartPart::Level(sigma) => {
                let mut stream = noise_point(&self.params, self.lambda, sigma);
                while stream.advance(usize::MAX) {}
                ChartPoint::Level(NoiseSweepPoint::new(sigma, &stream.finish()))
            }
        })
    }

    fn slices(&self, _: &[&Model]) -> Result<Box<dyn Slices<ChartPoint>>, String> {
        Ok(Box::new(match self.part {
            ChartPart::Masses => PartSlices::Masses { params: self.params.clone(), lambda: self.lambda, lengths: context_lengths().into_iter(), points: vec![] },
            ChartPart::Level(sigma) => PartSlices::Level { sigma, stream: noise_point(&self.params, self.lambda, sigma) },
        }))
    }

    fn to_answer(point: ChartPoint) -> (ChartPoint, Vec<Vec<f32>>) {
        plain(point)
    }

    fn from_answer(point: ChartPoint, arrays: Vec<Vec<f32>>) -> Result<ChartPoint, String> {
        plain_back(point, arrays)
    }
}
