//! A block of a lab problem's query rows (`engine::lab_blocks`): the problem's
//! parameters, from which the worker makes the same inputs, and the rows. It answers
//! both maps' rows, both pooled bands and the block's summary.

use crate::core::lab::{self, LabParams, RowSummary, SweepPart};
use crate::core::model::Model;
use crate::engine::jobs::{Job, WorkerMemory};
use crate::engine::lab::blocks::Block;
use serde::{Deserialize, Serialize};
use std::ops::Range;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockJob {
    pub params: LabParams,
    pub rows: Range<usize>,
}

/// A block's summary as its numbers cross back; both maps' rows, both pooled bands and
/// the sorted kinks as (r, a2) pairs go as arrays.
#[derive(Serialize, Deserialize)]
pub struct BlockAnswer {
    rows: Range<usize>,
    standard_signal: f64,
    standard_noise_abs: f64,
    constant_noise: f64,
    signal_a1: f64,
    signal_a2: f64,
    signal_entries: usize,
    noise_entries: usize,
}

impl Job for BlockJob {
    const KIND: &'static str = "block";
    type Output = Block;
    type Answer = BlockAnswer;

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

    fn to_answer(b: Block) -> (BlockAnswer, Vec<Vec<f32>>) {
        let Block { summary: RowSummary { rows, standard_signal, standard_noise_abs, sweep: p }, a1, a2, pooled_a1, pooled_a2 } = b;
        let kinks = p.kinks.iter().flat_map(|&(r, w)| [r, w]).collect();
        let answer = BlockAnswer {
            rows,
            standard_signal,
            standard_noise_abs,
            constant_noise: p.constant_noise,
            signal_a1: p.signal_a1,
            signal_a2: p.signal_a2,
            signal_entries: p.n_signal_entries,
            noise_entries: p.n_noise_entries,
        };
        (answer, vec![a1, a2, pooled_a1, pooled_a2, kinks])
    }

    fn from_answer(a: BlockAnswer, arrays: Vec<Vec<f32>>) -> Result<Block, String> {
        let Ok::<[Vec<f32>; 5], _>([a1, a2, pooled_a1, pooled_a2, kinks]) = arrays.try_into() else {
            return Err("a block's answer without its five arrays".into());
        };
        if kinks.len() % 2 != 0 {
            return Err("a block's kinks are not pairs".into());
        }
        let sweep = SweepPart {
            kinks: kinks.chunks_exact(2).map(|c| (c[0], c[1])).collect(),
            constant_noise: a.constant_noise,
            signal_a1: a.signal_a1,
            signal_a2: a.signal_a2,
            n_signal_entries: a.signal_entries,
            n_noise_entries: a.noise_entries,
        };
        let summary = RowSummary { rows: a.rows, standard_signal: a.standard_signal, standard_noise_abs: a.standard_noise_abs, sweep };
        Ok(Block { summary, a1, a2, pooled_a1, pooled_a2 })
    }
}
