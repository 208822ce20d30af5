//! The text page's columns computed on the GPU (lavapipe in CI) against the CPU core:
//! the three shipped text models on 128 characters of a held-out play, with learnt and
//! overridden λ. Each character's loss within 1e-4 nats (logits within 1e-4, as in
//! `tests/gpu_model.rs`), the same top five characters, every map within 1e-5.

use difflens::core::analysis::max_abs_diff;
use difflens::core::attention::LambdaOverride;
use difflens::engine::model::library::ModelLibrary;
use difflens::engine::text::run::{v1_override, TextRun};
use difflens::engine::text::session::load;
use difflens::engine::text::typed::TypedText;
use difflens::engine::text::CONTEXT;
use difflens::gpu::context::GpuContext;
use difflens::gpu::model::GpuModel;
use difflens::state::text_state::DEFAULT_TEXT;

#[test]
fn text_columns_on_the_gpu_match_the_cpu_core() {
    let ctx = pollster::block_on(GpuContext::request(wgpu::Backends::VULKAN)).expect("a Vulkan adapter (scripts/install-test-deps.sh installs lavapipe)");
    let www = format!("{}/www", env!("CARGO_MANIFEST_DIR"));
    let library = ModelLibrary::in_folder(difflens::engine::text::FOLDER);
    let models = pollster::block_on(load(&library, 4, |path: String| {
        let file = format!("{www}/{path}");
        async move { std::fs::read(&file).map_err(|e| format!("{file}: {e}")) }
    }))
    .unwrap();
    let text: String = DEFAULT_TEXT.chars().take(CONTEXT).collect();
    let typed = TypedText::of(&models.vocab, &text);
    assert_eq!(typed.tokens.len(), CONTEXT, "a full window");
    let lambdas = |layers: usize| [LambdaOverride::Learnt, v1_override(layers, 2, Some(0.9)), LambdaOverride::Scale(1.8), LambdaOverride::Constant(0.0)];
    for model in &models.models {
        let kind = model.config.attention;
        let gpu = GpuModel::new(&ctx, model);
        for lambda in lambdas(model.config.n_layers) {
            let what = format!("{kind:?} with {lambda:?}");
            let cpu = TextRun::of(model, &models.vocab, typed.clone(), lambda.clone()).unwrap();
            let on_gpu = pollster::block_on(TextRun::on_gpu((&ctx, &gpu), kind, &models.vocab, typed.clone(), lambda.clone())).unwrap();
            let dl = on_gpu.losses.iter().zip(&cpu.losses).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
            assert!(dl < 1e-4, "{what}: losses differ by {dl}");
            assert_eq!(on_gpu.top.iter().map(|t| t.0).collect::<String>(), cpu.top.iter().map(|t| t.0).collect::<String>(), "{what}: top five");
            for layer in 0..cpu.layers() {
                for head in 0..cpu.heads(layer) {
                    let (g, c) = (on_gpu.maps(layer, head).unwrap(), cpu.maps(layer, head).unwrap());
                    let dm = max_abs_diff(g.combined(), c.combined());
                    assert!(dm < 1e-5, "{what}: map of layer {layer} head {head}: {dm}");
                }
            }
        }
    }
}
