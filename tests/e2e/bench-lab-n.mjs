// Benchmark (issue 17): the lab's N slider moved from 1024 to 2048 as a person does it,
// from the input to the new maps and numbers on screen: how long that takes, and the
// main thread's long tasks (PerformanceObserver `longtask`, over 50 ms) meanwhile: the
// longest and their sum. Median of `RUNS` runs per mode, each in a fresh page.
// `node tests/e2e/bench-lab-n.mjs [cpu|gpu|both] [runs]`
import { start } from './harness.mjs';

const [which = 'both', runsArg = '3'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];

for (const mode of which === 'both' ? ['cpu', 'gpu'] : [which]) {
  const b = await start(mode);
  try {
    const shown = [], longest = [], blocked = [];
    for (let k = 0; k < RUNS; k++) {
      const page = await b.open('#/lab?n=1024&seed=' + (k + 1));
      await page.evaluate(() => {
        window.__long = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
      });
      await page.waitForFunction(() => document.querySelector('#map-a1 .axis-note')?.textContent.includes('1023') && document.querySelector('#noise-progress')?.dataset.points === '25', null, { timeout: 120_000 });
      const r = await page.evaluate(async () => {
        const el = document.getElementById('n');
        const before = document.querySelector('#snr-standard').dataset.value;
        const t0 = performance.now();
        el.value = '11';
        el.dispatchEvent(new Event('input', { bubbles: true }));
        el.dispatchEvent(new Event('change', { bubbles: true }));
        const done = () => document.querySelector('#map-a1 .axis-note').textContent.includes('2047') && document.querySelector('#snr-standard').dataset.value !== before;
        while (!done()) await new Promise((res) => setTimeout(res, 2));
        await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
        const t1 = performance.now();
        // Long tasks are reported a little later than they end.
        await new Promise((res) => setTimeout(res, 200));
        const tasks = window.__long.filter(([s, d]) => s + d >= t0 && s <= t1).map(([, d]) => d);
        return { ms: t1 - t0, longest: Math.max(0, ...tasks), blocked: tasks.reduce((a, d) => a + d, 0) };
      });
      shown.push(r.ms); longest.push(r.longest); blocked.push(r.blocked);
      await page.close();
    }
    const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
    console.log(`${mode}: N 1024 → 2048, new maps on screen after ${median(shown).toFixed(0)} ms (median of ${list(shown)}); longest main-thread task ${median(longest).toFixed(0)} ms (${list(longest)}); long tasks in all ${median(blocked).toFixed(0)} ms (${list(blocked)})`);
  } finally {
    await b.stop();
  }
}
