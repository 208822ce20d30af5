//! The lab's noise charts, a part at a time: the SNR-against-noise chart one noise level
//! at a time (the problem on screen, λ and σ), and the noise-floor chart's masses at
//! every context length (eight O(N) points, up to 128k keys) as one part, since that
//! chart shows them together. Each part is exactly what the page's own `SlowCharts`
//! computes.

use crate::core::lab::{LabParams, NoiseMassPoint, NoiseSweepPoint};
use crate::core::model::Model;
use crate::engine::jobs::fields::{numbers, whole};
use crate::engine::jobs::{Fields, Job, Pairs, WorkerMemory};
use crate::engine::lab::{context_lengths, noise_mass_point, noise_point};

/// Which part of the charts a job computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChartPart {
    /// The noise floor's masses at every context length.
    Masses,
    /// One noise level of the SNR chart.
    Level(f32),
}

/// A part computed.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartPoint {
    Masses(Vec<NoiseMassPoint>),
    Level(NoiseSweepPoint),
}

/// A part of the charts of the problem on screen (`params`), its differential map at `lambda`.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseChartJob {
    pub params: LabParams,
    pub lambda: f32,
    pub part: ChartPart,
}

impl Job for NoiseChartJob {
    const KIND: &'static str = "noise-chart";
    type Output = ChartPoint;

    fn write(&self) -> Pairs {
        let params = serde_json::to_string(&self.params).expect("lab parameters are plain numbers");
        let part = match self.part {
            ChartPart::Masses => "masses".to_string(),
            ChartPart::Level(sigma) => sigma.to_string(),
        };
        vec![("lambda".into(), self.lambda.to_string()), ("part".into(), part), ("params".into(), params)]
    }

    fn read(f: &Fields) -> Result<Self, String> {
        let part = match f.text("part")? {
            "masses" => ChartPart::Masses,
            _ => ChartPart::Level(f.number("part")?),
        };
        Ok(Self { params: f.json("params")?, lambda: f.number("lambda")?, part })
    }

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

    fn write_output(point: ChartPoint) -> (Pairs, Vec<Vec<f32>>) {
        let pairs = match point {
            ChartPoint::Masses(p) => vec![("masses".to_string(), p.iter().map(|p| format!("{}/{}/{}/{}", p.n, p.standard, p.standard_expected, p.differential)).collect::<Vec<_>>().join(","))],
            ChartPoint::Level(p) => vec![("level".to_string(), format!("{}/{}/{}", p.noise, p.standard_snr, p.differential_snr))],
        };
        (pairs, vec![])
    }

    fn read_output(f: &Fields, _: Vec<Vec<f32>>) -> Result<ChartPoint, String> {
        if f.get("masses").is_some() {
            let point = |item: &str| {
                let [n, standard, standard_expected, differential] = numbers::<4>(item)?;
                Ok(NoiseMassPoint { n: whole(n, "context length")?, standard, standard_expected, differential })
            };
            return Ok(ChartPoint::Masses(f.list("masses", point)?));
        }
        let [noise, standard_snr, differential_snr] = numbers::<3>(f.text("level")?)?;
        Ok(ChartPoint::Level(NoiseSweepPoint { noise, standard_snr, differential_snr }))
    }
}
