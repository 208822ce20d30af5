//! The compare view's columns computed on the GPU (lavapipe in CI) against the same
//! columns on the CPU core: the three shipped models, learnt and overridden λ, V1's
//! norm off. Everything the page shows of a column is compared: predictions (equal),
//! logits (1e-4) and maps (1e-5) as in `tests/gpu_model.rs`, Table 3's net weights
//! (sums of ≤ 70 map entries: 1e-4) and Table 5's magnitudes (attention logits of O(10):
//! 1e-4 relative).

use difflens::engine::explorer::columns::{plan_columns, ColumnRun};
use difflens::engine::model::load_checkpoint;
use difflens::engine::model::CardInfo;
use difflens::engine::placement::Placement;
use difflens::gpu::context::GpuContext;
use difflens::gpu::model::GpuModel;
use difflens::state::model_state::{AttentionKind, ModelState, V2Lambda};

fn shipped(kind: AttentionKind) -> difflens::engine::model::Model {
    let dir = format!("{}/www/models/{}", env!("CARGO_MANIFEST_DIR"), kind.slug());
    let card = CardInfo::parse("card.json", &std::fs::read_to_string(format!("{dir}/card.json")).unwrap()).unwrap();
    let last = card.checkpoints.last().unwrap();
    load_checkpoint(&card.config, &std::fs::read(format!("{dir}/{}", last.file)).unwrap()).unwrap()
}

fn runs(models: &[difflens::engine::model::Model], gpus: &[GpuModel], ctx: &GpuContext, state: &ModelState, place: Placement) -> Vec<ColumnRun> {
    let refs: Vec<_> = models.iter().collect();
    let (prompt, jobs) = plan_columns(&refs, state, &[], &vec![place; models.len()]);
    jobs.into_iter().zip(models).zip(gpus).map(|((job, m), g)| pollster::block_on(job.run(m, &prompt, Some((ctx, g)))).unwrap()).collect()
}

#[test]
fn columns_on_the_gpu_match_the_cpu_core() {
    let ctx = pollster::block_on(GpuContext::request(wgpu::Backends::VULKAN)).expect("a Vulkan adapter (scripts/install-test-deps.sh installs lavapipe)");
    let models: Vec<_> = AttentionKind::ALL.into_iter().map(shipped).collect();
    let gpus: Vec<_> = models.iter().map(|m| GpuModel::new(&ctx, m)).collect();
    let gpu = Placement::Gpu { adapter: "test adapter".into() };
    let cpu = Placement::Cpu { why: "reference".into() };
    let mut overridden = ModelState { v1_norm: false, v2_lambda: V2Lambda::Scale(1.7), seed: 9, ..ModelState::default() };
    overridden.set_v1_lambda(0, Some(0.4));
    let pinned = ModelState { v2_lambda: V2Lambda::Pin(0.0), needles: 6, queries: 2, context: 128, ..ModelState::default() };
    for state in [ModelState::default(), overridden, pinned] {
        let (g, c) = (runs(&models, &gpus, &ctx, &state, gpu.clone()), runs(&models, &gpus, &ctx, &state, cpu.clone()));
        for (g, c) in g.iter().zip(&c) {
            assert_eq!(g.computed_on, gpu, "the GPU computed it, not a fallback");
            let (gx, cx) = (&g.explained, &c.explained);
            let what = format!("{:?} with {:?}", cx.output.layers.len(), state.run_key());
            let picked = |x: &difflens::engine::model::Explained| x.predictions.iter().map(|p| p.predicted).collect::<Vec<_>>();
            assert_eq!(picked(gx), picked(cx), "{what}: the same predictions");
            let dl = difflens::core::analysis::max_abs_diff(&gx.output.logits, &cx.output.logits);
            assert!(dl < 1e-4, "{what}: logits {dl}");
            for (gl, cl) in gx.output.layers.iter().zip(&cx.output.layers) {
                for (gm, cm) in gl.maps.iter().zip(&cl.maps) {
                    let dm = difflens::core::analysis::max_abs_diff(gm.combined(), cm.combined());
                    assert!(dm < 1e-5, "{what}: map of layer {} head {}: {dm}", gm.layer, gm.head);
                }
            }
            for (gn, cn) in gx.net.0.iter().flatten().zip(cx.net.0.iter().flatten()) {
                assert!((gn.answer - cn.answer).abs() < 1e-4 && (gn.noise - cn.noise).abs() < 1e-4, "{what}: net weights {gn:?} vs {cn:?}");
            }
            let (gs, cs) = (&gx.magnitudes.logits, &cx.magnitudes.logits);
            for (a, b) in [(gs.top1, cs.top1), (gs.top10, cs.top10), (gs.median, cs.median)] {
                assert!((a - b).abs() <= 1e-4 * b.abs().max(1.0), "{what}: attention-logit magnitudes {a} vs {b}");
            }
        }
    }
}

/// A forward pass the GPU refuses falls back to the CPU core and says why.
#[test]
fn a_refused_gpu_pass_is_redone_on_the_cpu_and_says_so() {
    let ctx = pollster::block_on(GpuContext::request(wgpu::Backends::VULKAN)).expect("a Vulkan adapter");
    let model = shipped(AttentionKind::DiffV2);
    let gpu_model = GpuModel::new(&ctx, &model);
    // The engine never places quantised logits on the GPU; a job forced there shows the fallback.
    let state = ModelState { bits: Some(4), ..ModelState::default() };
    let (prompt, jobs) = plan_columns(&[&model], &state, &[], &[Placement::Gpu { adapter: "x".into() }]);
    let run = pollster::block_on(jobs.into_iter().next().unwrap().run(&model, &prompt, Some((&ctx, &gpu_model)))).unwrap();
    let said = run.computed_on.sentence();
    assert!(!run.computed_on.on_gpu() && said.contains("WebGPU failed (4-bit attention logits are computed on the CPU core only)"), "{said}");
}
