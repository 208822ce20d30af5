// Benchmark (issue 17): "Run 100 prompts" × 3 models at 4× the training length, Table
// 3's depth sweep (the same prompts' count, every map kept) and the lab's noise chart at
// N = 2048, each on the page's own thread (the workers' wasm made
// unloadable, so the page takes over as before the pool) and with 1, 2 and 4 workers;
// median of `RUNS` runs each, and the longest main-thread task.
// `node tests/e2e/bench-workers.mjs [cpu|gpu] [runs] [all|batch|sweep|noise]`
import { start, breakWorkerDownload } from './harness.mjs';

const [mode = 'cpu', runsArg = '3', what = 'all'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const b = await start(mode);
const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];
try {
  // "Run 100 prompts" (Table 2) and the depth sweep (Table 3: 100 prompts, every map kept).
  const runs = [['batch', '#run-accuracy', '#accuracy-run', 'Run 100 prompts'], ['sweep', '#run-sweep', '#depth-sweep', 'depth sweep']].filter(([w]) => what === 'all' || what === w);
  for (const [, button, panel, label] of runs) for (const workers of ['page thread', 1, 2, 4]) {
    const page = await b.context.newPage();
    await page.addInitScript((n) => { window.DIFFLENS_WORKERS = typeof n === 'number' ? n : 2; }, workers);
    if (workers === 'page thread') await breakWorkerDownload(page);
    await page.goto(b.url + '#/model?view=compare&ctx=256&seed=3');
    await page.waitForFunction(() => document.querySelectorAll('.predictions li').length === 3, null, { timeout: 60_000 });
    const times = [], longest = [];
    for (let k = 0; k < RUNS; k++) {
      const r = await page.evaluate(async ([button, panel]) => {
        let long = 0;
        const observer = new PerformanceObserver((l) => { for (const e of l.getEntries()) long = Math.max(long, e.duration); });
        observer.observe({ type: 'longtask' });
        const t0 = performance.now();
        document.querySelector(button).click();
        while (/^Done/.test(document.querySelector(`${panel} .run-progress`)?.textContent || '')) await new Promise((res) => setTimeout(res, 5));
        while (!/^Done/.test(document.querySelector(`${panel} .run-progress`)?.textContent || '')) await new Promise((res) => setTimeout(res, 20));
        const ms = performance.now() - t0;
        observer.disconnect();
        return { ms, long };
      }, [button, panel]);
      times.push(r.ms / 1000);
      longest.push(r.long);
    }
    console.log(`${mode}, ${label}, ${workers === 'page thread' ? 'page thread (no worker)' : `${workers} worker${workers > 1 ? 's' : ''}`}: ${median(times).toFixed(2)} s median of [${times.map((t) => t.toFixed(2)).join(', ')}]; longest main-thread task ${Math.max(...longest).toFixed(0)} ms`);
    await page.close();
  }
  // The lab's SNR-against-noise chart at N = 2048 (25 whole problems): from the problem's
  // own maps on screen to the 25th point drawn, and the longest main-thread task meanwhile.
  for (const workers of what === 'all' || what === 'noise' ? ['page thread', 1, 2, 4] : []) {
    const fills = [], longest = [];
    for (let k = 0; k < RUNS; k++) {
      const page = await b.context.newPage();
      await page.addInitScript((n) => {
        window.DIFFLENS_WORKERS = typeof n === 'number' ? n : 2;
        window.__long = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
      }, workers);
      if (workers === 'page thread') await breakWorkerDownload(page);
      await page.goto(b.url + '#/lab?n=2048');
      await page.waitForFunction(() => document.querySelector('#compute-note')?.textContent && document.querySelector('#map-a1 .axis-note')?.textContent.includes('2047'), null, { timeout: 60_000 });
      const t0 = await page.evaluate(() => performance.now());
      await page.waitForFunction(() => document.querySelector('#chart-noise')?.dataset.points === '25', null, { timeout: 120_000, polling: 10 });
      const r = await page.evaluate((t0) => ({ ms: performance.now() - t0, long: Math.max(0, ...window.__long.filter(([s]) => s >= t0).map(([, d]) => d)) }), t0);
      fills.push(r.ms / 1000);
      longest.push(r.long);
      await page.close();
    }
    console.log(`${mode}, noise chart at N = 2048, ${workers === 'page thread' ? 'page thread (no worker)' : `${workers} worker${workers > 1 ? 's' : ''}`}: ${median(fills).toFixed(2)} s median of [${fills.map((t) => t.toFixed(2)).join(', ')}]; longest main-thread task while it filled ${Math.max(...longest).toFixed(0)} ms`);
  }
} finally {
  await b.stop();
}
