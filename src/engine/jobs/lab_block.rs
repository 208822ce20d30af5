//! A block of a lab problem's query rows (`engine::lab_blocks`): the problem's
//! parameters, from which the worker makes the same inputs, and the rows. It answers
//! both maps' rows, both pooled bands and the block's summary.

use crate::core::lab::{self, LabParams, RowSummary, SweepPart};
use crate::core::model::Model;
use crate::engine::jobs::{Fields, Job, Pairs, WorkerMemory};
use crate::engine::lab::blocks::Block;
use std::ops::Range;

#[derive(Clone, Debug, PartialEq)]
pub struct BlockJob {
    pub params: LabParams,
    pub rows: Range<usize>,
}

impl Job for BlockJob {
    const KIND: &'static str = "block";
    type Output = Block;

    fn write(&self) -> Pairs {
        let params = serde_json::to_string(&self.params).expect("lab parameters are plain numbers");
        vec![("from".into(), self.rows.start.to_string()), ("to".into(), self.rows.end.to_string()), ("params".into(), params)]
    }

    fn read(f: &Fields) -> Result<Self, String> {
        Ok(Self { params: f.json("params")?, rows: f.number("from")?..f.number("to")? })
    }

    /// Computes the block; the worker keeps the last problem's inputs, which every
    /// block of it shares.
    fn run(&self, _: &[&Model], memory: &mut WorkerMemory) -> Result<Block, String> {
        let inputs = &mut memory.lab_inputs;
        if inputs.as_ref().is_none_or(|(p, _)| *p != self.params) {
            *inputs = Some((self.params.clone(), lab::generate(&self.params)));
        }
        let (_, made) = inputs.as_ref().expect("made just above");
        Block::compute(made, self.rows.clone())
    }

    /// The summary's numbers as text; both maps' rows, both pooled bands and the sorted
    /// kinks as (r, a2) pairs as arrays.
    fn write_output(b: Block) -> (Pairs, Vec<Vec<f32>>) {
        let (s, p) = (&b.summary, &b.summary.sweep);
        let pairs = [
            ("from", s.rows.start.to_string()),
            ("to", s.rows.end.to_string()),
            ("standard_signal", s.standard_signal.to_string()),
            ("standard_noise", s.standard_noise_abs.to_string()),
            ("constant_noise", p.constant_noise.to_string()),
            ("signal_a1", p.signal_a1.to_string()),
            ("signal_a2", p.signal_a2.to_string()),
            ("signal_entries", p.n_signal_entries.to_string()),
            ("noise_entries", p.n_noise_entries.to_string()),
        ];
        let kinks = p.kinks.iter().flat_map(|&(r, w)| [r, w]).collect();
        (pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), vec![b.a1, b.a2, b.pooled_a1, b.pooled_a2, kinks])
    }

    fn read_output(f: &Fields, arrays: Vec<Vec<f32>>) -> Result<Block, String> {
        let Ok::<[Vec<f32>; 5], _>([a1, a2, pooled_a1, pooled_a2, kinks]) = arrays.try_into() else {
            return Err("a block's answer without its five arrays".into());
        };
        if kinks.len() % 2 != 0 {
            return Err("a block's kinks are not pairs".into());
        }
        let sweep = SweepPart {
            kinks: kinks.chunks_exact(2).map(|c| (c[0], c[1])).collect(),
            constant_noise: f.number("constant_noise")?,
            signal_a1: f.number("signal_a1")?,
            signal_a2: f.number("signal_a2")?,
            n_signal_entries: f.number("signal_entries")?,
            n_noise_entries: f.number("noise_entries")?,
        };
        let summary = RowSummary { rows: f.number("from")?..f.number("to")?, standard_signal: f.number("standard_signal")?, standard_noise_abs: f.number("standard_noise")?, sweep };
        Ok(Block { summary, a1, a2, pooled_a1, pooled_a2 })
    }
}
