// Benchmark (issue 34): the text page in CPU mode, driven as a person drives it.
// - a keystroke at the end of the prefilled text until the three columns show it and the
//   frame that shows it is painted (the window keeps its start: one new character runs);
// - a keystroke that moves the window on (a 160-character text, then one more: the three
//   models read the whole window again), the same way;
// - a λ step (arrow key on V1's λ) until V1's column shows it and that frame is painted;
// - a λ drag step, timed as the lab's and the explorer's drags are (input events of a drag
//   arrive at a frame's start: the slider's value set and its input event dispatched in a
//   requestAnimationFrame callback, then the time until V1's strip shows it and a task
//   after it; under one frame means the frame that took the input showed the result);
// Each time runs in the page from the key event's timestamp to the end of the frame that
// first shows the change (a MutationObserver, then requestAnimationFrame and a task),
// so no polling frame is added to it.
// - "Write on": characters per second per model, all three writing, until each has written
//   its most (400) or WRITE_S seconds have passed;
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
// Arms the page: the next change after which `done()` holds resolves `window.__timed`
// with the milliseconds from the last keydown to the end of the frame that shows it.
const arm = (page, doneSrc) => page.evaluate((src) => {
  if (!window.__keydown) {
    window.__keydown = true;
    addEventListener('keydown', (e) => { window.__t0 = e.timeStamp; }, true);
  }
  const done = new Function(`return (${src})()`);
  window.__timed = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (!done()) return;
      obs.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - window.__t0), 0));
    });
    obs.observe(document.querySelector('section.text'), { subtree: true, attributes: true, childList: true, characterData: true });
  });
}, doneSrc);
const timed = (page) => page.evaluate(() => window.__timed);
const stripChanged = (kind, before) => `() => document.querySelector('section.text')?.dataset.status === 'ready'
  && [...document.querySelectorAll('#strip-${kind} .ch')].map((s) => s.dataset.loss ?? '').join(',') !== ${JSON.stringify(before)}`;

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
    await arm(page, stripChanged('diff_v2', await lossesOf(page, 'diff_v2')));
    await page.keyboard.type('abcdefghij'[i % 10]);
    keys.push(await timed(page));
  }
  const moves = [];
  const base = 'To be, or not to be: that is the question. '.repeat(4).slice(0, 160);
  for (let i = 0; i < RUNS; i++) {
    await page.fill('#text-input', base.slice(0, 159 - (i % 2)) + 'xy'.slice(0, 1 + (i % 2)));
    await ready(page);
    await page.keyboard.press('Control+End');
    await arm(page, stripChanged('diff_v2', await lossesOf(page, 'diff_v2')));
    await page.keyboard.type('z');
    moves.push(await timed(page));
  }
  const typingLong = await page.evaluate(() => Math.max(0, ...window.__long));
  const steps = [];
  await page.focus('#lambda');
  for (let i = 0; i < RUNS; i++) {
    await arm(page, stripChanged('diff_v1', await lossesOf(page, 'diff_v1')));
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    steps.push(await timed(page));
  }
  const drags = [];
  for (let i = 0; i < RUNS; i++) {
    const before = await lossesOf(page, 'diff_v1');
    drags.push(await page.evaluate(async ({ before, value }) => {
      const strip = () => [...document.querySelectorAll('#strip-diff_v1 .ch')].map((s) => s.dataset.loss ?? '').join(',');
      const t0 = await new Promise((resolve) => requestAnimationFrame(() => {
        const t = performance.now();
        const el = document.getElementById('lambda');
        el.value = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
        resolve(t);
      }));
      const reached = () => strip() !== before;
      for (let k = 0; k < 100 && !reached(); k++) await Promise.resolve();
      if (reached()) {
        await new Promise((r) => setTimeout(r, 0));
      } else {
        while (!reached()) await new Promise((r) => setTimeout(r, 0));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      }
      return performance.now() - t0;
    }, { before, value: (0.3 + 0.01 * (i % 2)).toFixed(2) }));
  }
  await page.click('#lambda-learnt');
  await ready(page);
  await page.evaluate(() => { window.__long = []; });
  // Until each model has written its most (400 characters) or WRITE_S have passed: the
  // rate is what was written over the time it took, read every 20 ms.
  await page.click('#write-on');
  const { written, seconds } = await page.evaluate(async (limit) => {
    const t0 = performance.now();
    const lengths = () => [...document.querySelectorAll('.written')].map((p) => [...p.textContent].length);
    while (performance.now() - t0 < limit && !lengths().every((n) => n >= 400)) await new Promise((r) => setTimeout(r, 20));
    return { written: lengths(), seconds: (performance.now() - t0) / 1000 };
  }, WRITE_S * 1000);
  if (written.some((n) => n < 400)) await page.click('#write-on');
  const writingLong = await page.evaluate(() => Math.max(0, ...window.__long));
  console.log(JSON.stringify({
    mode,
    keystroke_ms_median: Math.round(median(keys)), keystroke_ms: keys.map(Math.round),
    window_move_ms_median: Math.round(median(moves)), window_move_ms: moves.map(Math.round),
    lambda_step_ms_median: Math.round(median(steps)), lambda_step_ms: steps.map(Math.round),
    lambda_drag_ms_median: +median(drags).toFixed(1), lambda_drag_ms: drags.map((t) => +t.toFixed(1)),
    write_on_chars_per_s: written.map((n) => +(n / seconds).toFixed(1)),
    longest_task_typing_ms: Math.round(typingLong), longest_task_writing_ms: Math.round(writingLong),
  }));
} finally {
  await b.stop();
}
