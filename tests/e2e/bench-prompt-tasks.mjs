// Benchmark (issue 17): "New prompt" in the explorer's side-by-side view, clicked as a
// person clicks it, in CPU mode: the time until the three columns show the new prompt
// (their version on the timing line moves, then a frame is painted), and the main
// thread's longest task meanwhile (PerformanceObserver `longtask`, over 50 ms). Medians of `RUNS` clicks at the training length and at 4×,
// with the passes on the page's own thread (the worker's wasm made unloadable) and in
// three background workers, one per model (measured once the workers take the prompts;
// the page sends them to workers only where the pool has one per model).
// `node tests/e2e/bench-prompt-tasks.mjs [cpu|gpu] [runs] [page,3]`
import { start, breakWorkerDownload } from './harness.mjs';

const [mode = 'cpu', runsArg = '7', whereArg = 'page,3'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];
const b = await start(mode);

/** The explorer at `ctx`, its passes where `where` says, ready to be timed. */
async function open(ctx, where) {
  const page = await b.context.newPage();
  if (where === 'page') await breakWorkerDownload(page);
  else await page.addInitScript((n) => { window.DIFFLENS_WORKERS = n; }, Number(where));
  await page.goto(`${b.url}#/model?view=compare&ctx=${ctx}&seed=5`);
  await page.waitForFunction(() => document.querySelectorAll('.predictions li').length === 3, null, { timeout: 60_000 });
  // The first prompts run on the page while the workers start; wait until they take one.
  for (let k = 0; where !== 'page' && k < 30; k++) {
    const v = await page.$eval('#compare-timing', (el) => Number(el.dataset.version));
    await page.click('#new-prompt');
    await page.waitForFunction((v) => Number(document.querySelector('#compare-timing').dataset.version) > v, v, { timeout: 60_000 });
    if (/background workers/.test(await page.textContent('#compare-timing'))) break;
    await page.waitForTimeout(300);
  }
  return page;
}

try {
  for (const [ctx, where] of [64, 256].flatMap((c) => whereArg.split(',').map((w) => [c, w]))) {
    const page = await open(ctx, where);
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
    });
    const shown = [], longest = [];
    for (let k = 0; k < RUNS; k++) {
      const r = await page.evaluate(async () => {
        // The columns' version (on the timing line) moves when all three are set.
        const version = () => Number(document.querySelector('#compare-timing').dataset.version);
        const before = version();
        const t0 = performance.now();
        document.querySelector('#new-prompt').click();
        while (version() === before) await new Promise((res) => setTimeout(res, 1));
        await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
        const t1 = performance.now();
        await new Promise((res) => setTimeout(res, 300));
        const tasks = window.__long.filter(([s, d]) => s + d >= t0 && s <= t1).map(([, d]) => d);
        return { ms: t1 - t0, longest: Math.max(0, ...tasks) };
      });
      shown.push(r.ms);
      longest.push(r.longest);
    }
    const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
    const timing = await page.textContent('#compare-timing');
    console.log(`${mode}, context ${ctx}, ${where === 'page' ? "the page's thread" : `${where} worker(s)`} (last: ${timing}): new prompt on screen after ${median(shown).toFixed(0)} ms (${list(shown)}); longest main-thread task ${median(longest).toFixed(0)} ms (${list(longest)})`);
    await page.close();
  }
} finally {
  await b.stop();
}
