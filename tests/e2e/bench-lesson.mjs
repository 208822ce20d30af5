// The lesson's benchmark (README, "Performance"): from navigation to the first figure
// painted (the landing page, release build), over fresh loads; then each later step from
// the key press to its figure painted.
// Usage: node tests/e2e/bench-lesson.mjs [cpu|gpu] [loads]   (after a release build in dist/)
import { start } from './harness.mjs';

const mode = process.argv[2] || 'cpu';
const loads = Number(process.argv[3] || 7);
const median = (v) => { const s = [...v].sort((a, c) => a - c); return s[s.length >> 1]; };
const b = await start(mode);

/** Before the app starts: note when a figure is first drawn and then painted. */
function watchFigure() {
  const seen = () => {
    const fig = document.querySelector('#lesson-figure');
    if (!fig || !document.querySelector('#figure-facts')?.textContent.trim()) return false;
    const charts = [...fig.querySelectorAll('canvas[data-drawn]')];
    return charts.length ? charts.every((c) => c.dataset.drawn === 'true') : !!fig.querySelector('canvas.map, tbody tr');
  };
  window.__figurePainted = [];
  // The step last reported (a new step may reuse the figure's element).
  let reported = null;
  window.__figureObserver = new MutationObserver(() => {
    const step = document.querySelector('#lesson-step')?.dataset.step;
    if (step && step !== reported && seen()) {
      reported = step;
      // Painted: the frame that shows it has been produced.
      requestAnimationFrame(() => setTimeout(() => window.__figurePainted.push(performance.now()), 0));
    }
  });
  window.__figureObserver.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

// Cold: the browser's cache disabled, so every load fetches and compiles the wasm again
// (from localhost: a real network adds its transfer time); warm: from the cache.
const first = { cold: [], warm: [] };
for (const kind of ['cold', 'warm']) {
  for (let i = 0; i < loads; i++) {
    const page = await b.open('#/learn');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: kind === 'cold' });
    await page.addInitScript(watchFigure);
    await page.reload();
    await page.waitForFunction(() => window.__figurePainted?.length > 0, null, { timeout: 30_000 });
    first[kind].push(await page.evaluate(() => window.__figurePainted[0]));
    await page.close();
  }
}
const page = await b.open('#/learn');
await page.addInitScript(watchFigure);
await page.reload();
await page.waitForFunction(() => window.__figurePainted?.length > 0);
await page.click('#step-title');
const steps = [];
for (let k = 2; k <= 9; k++) {
  const n = await page.evaluate(() => window.__figurePainted.length);
  const t0 = await page.evaluate(() => performance.now());
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((n) => window.__figurePainted.length > n, n, { timeout: 30_000 });
  await page.waitForFunction((k) => document.querySelector('#lesson-step')?.dataset.step === String(k), k);
  steps.push(`${k}: ${(await page.evaluate((n) => window.__figurePainted[n], n) - t0).toFixed(0)} ms`);
}
for (const kind of ['cold', 'warm']) console.log(`[bench-lesson ${mode}] first figure painted after navigation, ${kind}: median ${median(first[kind]).toFixed(0)} ms, all ${first[kind].map((t) => t.toFixed(0)).join(', ')} ms`);
console.log(`[bench-lesson ${mode}] key press to the next step's figure painted: ${steps.join('; ')}`);
await b.stop();
