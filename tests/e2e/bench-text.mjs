// Benchmark (issue 34): the text page in CPU mode, driven as a person drives it.
// - a keystroke at 128 characters until the three columns show it and a frame is painted;
// - a λ step (arrow key on V1's λ) until V1's column shows it and a frame is painted;
// - "Write on": characters per second per model, all three writing, over WRITE_S seconds;
// - the main thread's longest task (PerformanceObserver `longtask`, over 50 ms) meanwhile.
// Medians of `runs` keystrokes and steps. `node tests/e2e/bench-text.mjs [cpu|gpu] [runs]`
import { start } from './harness.mjs';

const [mode = 'cpu', runsArg = '9'] = process.argv.slice(2);
const RUNS = Number(runsArg);
const WRITE_S = 6;
const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];
const b = await start(mode);

const lossesOf = (page, kind) => page.evaluate((k) => [...document.querySelectorAll(`#strip-${k} .ch`)].map((s) => s.dataset.loss ?? '').join(','), kind);
const ready = (page) => page.waitForFunction(() => document.querySelector('section.text')?.dataset.status === 'ready', null, { timeout: 60_000 });
const painted = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

try {
  const page = await b.open('#/text');
  await ready(page);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
  });
  await page.click('#text-input');
  await page.keyboard.press('Control+End');
  const keys = [];
  for (let i = 0; i < RUNS; i++) {
    const before = await lossesOf(page, 'diff_v2');
    const t0 = await page.evaluate(() => performance.now());
    await page.keyboard.type('abcdefghij'[i % 10]);
    await page.waitForFunction((b) => document.querySelector('section.text')?.dataset.status === 'ready'
      && [...document.querySelectorAll('#strip-diff_v2 .ch')].map((s) => s.dataset.loss ?? '').join(',') !== b, before, { timeout: 30_000, polling: 'raf' });
    await painted(page);
    keys.push(await page.evaluate((t) => performance.now() - t, t0));
  }
  const typingLong = await page.evaluate(() => Math.max(0, ...window.__long));
  const steps = [];
  await page.focus('#lambda');
  for (let i = 0; i < RUNS; i++) {
    const before = await lossesOf(page, 'diff_v1');
    const t0 = await page.evaluate(() => performance.now());
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.waitForFunction((b) => [...document.querySelectorAll('#strip-diff_v1 .ch')].map((s) => s.dataset.loss ?? '').join(',') !== b, before, { timeout: 30_000, polling: 'raf' });
    await painted(page);
    steps.push(await page.evaluate((t) => performance.now() - t, t0));
  }
  await page.click('#lambda-learnt');
  await ready(page);
  await page.evaluate(() => { window.__long = []; });
  await page.click('#write-on');
  await page.waitForTimeout(WRITE_S * 1000);
  const written = await page.evaluate(() => [...document.querySelectorAll('.written')].map((p) => [...p.textContent].length));
  await page.click('#write-on');
  const writingLong = await page.evaluate(() => Math.max(0, ...window.__long));
  console.log(JSON.stringify({
    mode,
    keystroke_ms_median: Math.round(median(keys)), keystroke_ms: keys.map(Math.round),
    lambda_step_ms_median: Math.round(median(steps)), lambda_step_ms: steps.map(Math.round),
    write_on_chars_per_s: written.map((n) => +(n / WRITE_S).toFixed(1)),
    longest_task_typing_ms: Math.round(typingLong), longest_task_writing_ms: Math.round(writingLong),
  }));
} finally {
  await b.stop();
}
