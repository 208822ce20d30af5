// Benchmark (issue 17): "New prompt" in the explorer's side-by-side view, clicked as a
// person clicks it, in CPU mode: the time until the three columns show the new prompt's
// predictions, and the main thread's longest task meanwhile (PerformanceObserver
// `longtask`, over 50 ms). Medians of `RUNS` clicks at the training length and at 4×.
// `node tests/e2e/bench-prompt-tasks.mjs [cpu|gpu] [runs]`
import { start } from './harness.mjs';

const [mode = 'cpu', runsArg = '7'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];
const b = await start(mode);
try {
  for (const ctx of [64, 256]) {
    const page = await b.open(`#/model?view=compare&ctx=${ctx}&seed=5`);
    await page.waitForFunction(() => document.querySelectorAll('.predictions li').length === 3, null, { timeout: 60_000 });
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
    });
    const shown = [], longest = [];
    for (let k = 0; k < RUNS; k++) {
      const r = await page.evaluate(async () => {
        const seed = () => new URLSearchParams(location.hash.split('?')[1]).get('seed');
        const before = [...document.querySelectorAll('.predictions li')].map((li) => li.textContent).join('|') + seed();
        const t0 = performance.now();
        document.querySelector('#new-prompt').click();
        const now = () => [...document.querySelectorAll('.predictions li')].map((li) => li.textContent).join('|') + seed();
        while (now() === before) await new Promise((res) => setTimeout(res, 1));
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
    console.log(`${mode}, context ${ctx}: new prompt on screen after ${median(shown).toFixed(0)} ms (${list(shown)}); longest main-thread task ${median(longest).toFixed(0)} ms (${list(longest)})`);
    await page.close();
  }
} finally {
  await b.stop();
}
