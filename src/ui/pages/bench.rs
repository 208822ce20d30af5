//! `#/bench`: the CPU path's benchmarks, run in the browser (wasm) with the same shapes
//! as the native ones, so the README can compare them. Results appear as JSON in
//! `#bench-result`; the browser benchmark script reads them.

use crate::engine::bench::{cpu_report, gpu_report, Stopped};
use crate::tr;
use crate::ui::{now_ms, yield_to_browser};
use leptos::prelude::*;
use std::future::Future;
use std::pin::Pin;

/// The User Timing mark made before every timed run.
const RUN_MARK: &str = "difflens-bench-run";

#[component]
pub fn BenchPage() -> impl IntoView {
    let result = RwSignal::new(None::<String>);
    // Start after the first paint so the page shows that it is working; wait for the
    // backend detection so the GPU part knows whether it has a device.
    set_timeout(
        move || {
            // Between timed runs: paint, and stop once this page's signals are gone. Each
            // run that goes on is a User Timing mark, so DevTools' timeline (and the test
            // that leaves this page) can see when the benchmark worked.
            let pause = move || -> Pin<Box<dyn Future<Output = bool>>> {
                Box::pin(async move {
                    yield_to_browser().await;
                    let go_on = result.try_get_untracked().is_some();
                    if go_on {
                        let _ = web_sys::window().and_then(|w| w.performance()).map(|p| p.mark(RUN_MARK));
                    }
                    go_on
                })
            };
            leptos::task::spawn_local(async move {
                let report = async {
                    let cpu = cpu_report(&now_ms, &pause).await?;
                    let gpu = gpu_report(crate::ui::backend::gpu(), &now_ms, &pause).await?;
                    Ok::<_, Stopped>(format!(r#"{{"cpu": {cpu}, "webgpu": {gpu}}}"#))
                };
                if let Ok(json) = report.await {
                    result.try_set(Some(json));
                }
            })
        },
        std::time::Duration::from_millis(1500),
    );
    view! {
        <section class="page">
            <h2>{tr!("page-bench")}</h2>
            <p class="explain">{tr!("bench-explain")}</p>
            <pre id="bench-result">{move || result.get().unwrap_or_else(|| tr!("bench-running"))}</pre>
        </section>
    }
}
