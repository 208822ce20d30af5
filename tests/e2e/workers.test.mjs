// The worker pool (issue 17) as a reader meets it. The lab's noise chart: the same 25
// points from two workers, one, or the page's own thread. "Run 100 prompts": the run
// fills its bars from background workers while the page's thread stays free; two workers
// give the same counts as one and as the page's own thread (when the worker cannot even
// download, the page says so and computes the run itself); a run cancelled and started
// again counts every prompt once, however late the first run's answers arrive. A new
// lab problem is split by query rows across the workers: the same maps and numbers as the
// page's own thread makes. A worker that panics or runs out of memory shows the banner,
// and the page finishes its work and goes on. Table 3's depth sweep: the same curves from
// two workers, one, or the page's own thread. A new prompt in the explorer (three
// workers, one per model): its three models' passes in the workers, the same columns as
// the page's own passes, a λ step after them resumed on the page from the worker's
// residual stream, and a worker that panics mid-prompt leaving its column made on the
// page and the next prompt to a fresh one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, pixels, KINDS, breakWorkerDownload } from './harness.mjs';

const LINK = '#/model?view=compare&ctx=256&seed=3';
const ready = (page) => page.waitForFunction(() => document.querySelectorAll('.predictions li').length === 3, null, { timeout: 30_000 });
const progress = (page) => page.textContent('#accuracy-run .run-progress');

async function run(page) {
  await page.click('#run-accuracy');
  await page.waitForFunction(() => /^(Done|Stopped)/.test(document.querySelector('#accuracy-run .run-progress')?.textContent || ''), null, { timeout: 120_000 });
  assert.match(await progress(page), /^Done: 100 prompts/);
  return page.$$eval('#accuracy-bars .bar-row', (rows) => rows.map((r) => `${r.dataset.model} ${r.dataset.right}/${r.dataset.asked}`));
}

async function open(b, workers, breakWorker = false) {
  const page = await b.context.newPage();
  page.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
  await page.addInitScript((n) => { window.DIFFLENS_WORKERS = n; }, workers);
  if (breakWorker) await breakWorkerDownload(page);
  await page.goto(b.url + LINK);
  await ready(page);
  return page;
}

/** The lab's SNR-against-noise chart, once all 25 noise levels are in, as its CSV. */
async function noiseChart(b, workers, breakWorker = false) {
  const page = await b.context.newPage();
  page.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
  await page.addInitScript((n) => { window.DIFFLENS_WORKERS = n; }, workers);
  if (breakWorker) await breakWorkerDownload(page);
  await page.goto(b.url + '#/lab?n=1024&lambda=0.6');
  await page.waitForFunction(() => document.querySelector('#chart-noise')?.dataset.points === '25' && document.querySelector('#chart-context')?.dataset.points === '8', null, { timeout: 120_000 });
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('.chart-wrap:has(#chart-noise) .export-csv')]);
  const csv = (await import('node:fs')).readFileSync(await file.path(), 'utf8');
  await page.close();
  return csv.split('\n').filter((l) => l && !l.startsWith('#'));
}

for (const mode of ['gpu', 'cpu']) {
  test(`the lab's noise chart from background workers, in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      const two = await noiseChart(b, 2);
      assert.equal(two[0], 'series,x,y');
      const sigmas = [...new Set(two.slice(1).filter((l) => l.startsWith('standard,')).map((l) => Number(l.split(',')[1])))];
      assert.equal(sigmas.length, 25);
      assert.ok(sigmas.every((x, i) => i === 0 || x > sigmas[i - 1]), 'the points in σ order, however they arrived');
      assert.deepEqual(await noiseChart(b, 1), two, 'one worker draws the same points as two');
      assert.deepEqual(await noiseChart(b, 2, true), two, "the page's own thread draws the same points when the workers cannot start");
      assert.deepEqual(b.errors, [], 'no errors in the page');
    } finally {
      await b.stop();
    }
  });
}

for (const mode of ['gpu', 'cpu']) {
  test(`Run 100 prompts in background workers, in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      const two = await open(b, 2);
      assert.match(await two.textContent('#accuracy-run .explain'), /in 2 background workers/);
      const pooled = await run(two);
      assert.equal(pooled.length, 3);
      for (const bar of pooled) assert.match(bar, /\d+\/100$/, 'every prompt counted once');
      // Cancel, then start again at once: the first run's late answers are dropped.
      await two.click('#run-accuracy');
      await two.waitForFunction(() => /[1-9]\d* of 100 prompts…/.test(document.querySelector('#accuracy-run .run-progress')?.textContent || ''), null, { timeout: 60_000 });
      await two.click('#cancel-accuracy');
      assert.deepEqual(await run(two), pooled, 'a restarted run counts each prompt once');
      await two.close();

      const one = await open(b, 1);
      assert.match(await one.textContent('#accuracy-run .explain'), /in 1 background worker,/);
      assert.deepEqual(await run(one), pooled, 'one worker counts what two do');
      await one.close();

      // The worker's wasm arrives broken: the page runs the prompts itself and says why.
      const broken = await open(b, 2, true);
      assert.deepEqual(await run(broken), pooled, "the page's own thread counts what the workers do");
      assert.match(await broken.textContent('#accuracy-run .run-note'), /A background worker stopped \(.+\); its prompts ran on the page's own thread instead\./);
      await broken.screenshot({ path: artifact(`workers-fallback-${mode}.png`) });
      await broken.close();
      assert.deepEqual(b.errors, [], 'no errors in the page');
    } finally {
      await b.stop();
    }
  });
}

/** Table 3's depth sweep run as a reader runs it, once it is done: both charts as CSV,
 * and the panel's note on where it ran. */
async function depthSweep(b, workers, breakWorker = false) {
  const page = await open(b, workers, breakWorker);
  const blank = await pixels(page, '#chart-sweep-answer');
  await page.click('#run-sweep');
  await page.waitForFunction(() => /^(Done|Stopped)/.test(document.querySelector('#depth-sweep .run-progress')?.textContent || ''), null, { timeout: 180_000 });
  assert.match(await page.textContent('#depth-sweep .run-progress'), /^Done: 100 prompts/);
  assert.notEqual(await pixels(page, '#chart-sweep-answer'), blank, 'the chart is drawn');
  const csv = [];
  for (const id of ['chart-sweep-answer', 'chart-sweep-noise']) {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(`.chart-wrap:has(#${id}) .export-csv`)]);
    csv.push((await import('node:fs')).readFileSync(await file.path(), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')));
  }
  const note = await page.$eval('#depth-sweep', (el) => el.querySelector('.run-note')?.textContent || '');
  await page.close();
  return { csv, note };
}

for (const mode of ['gpu', 'cpu']) {
  test(`Table 3's depth sweep in background workers, in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      const two = await depthSweep(b, 2);
      for (const lines of two.csv) assert.equal(lines.length, 1 + 3 * 5, 'three models at five depths');
      assert.equal(two.note, '', 'nothing to say while the workers are well');
      if (mode === 'cpu') assert.deepEqual((await depthSweep(b, 1)).csv, two.csv, 'one worker draws the same curves as two');
      const broken = await depthSweep(b, 2, true);
      assert.deepEqual(broken.csv, two.csv, "the page's own thread draws the same curves when the workers cannot start");
      assert.match(broken.note, /A background worker stopped \(.+\); its prompts ran on the page's own thread instead\./);
      assert.deepEqual(b.errors, [], 'no errors in the page');
    } finally {
      await b.stop();
    }
  });
}

/** Opens the lab with `workers` workers (0: the worker cannot load, so the page's own
 * thread computes), optionally asking the first worker to fail, and waits for the maps. */
async function lab(b, hash, workers, fault) {
  const page = await b.context.newPage();
  page.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
  await page.addInitScript(({ n, fault }) => { window.DIFFLENS_WORKERS = n || 2; if (fault) window.DIFFLENS_WORKER_FAULT = fault; }, { n: workers, fault });
  if (workers === 0) await breakWorkerDownload(page);
  await page.goto(b.url + hash);
  await page.waitForFunction(() => document.querySelector('#compute-note')?.textContent.startsWith('Computed on') && document.querySelector('#map-a1 .axis-note')?.textContent.includes('1023'), null, { timeout: 60_000 });
  return page;
}

/** What a student sees of a problem: the readouts and the three maps' pixels. */
async function seen(page) {
  const values = await page.$$eval('.readouts [data-value]', (els) => els.map((e) => `${e.id}=${e.dataset.value}`));
  const maps = [];
  for (const m of ['a1', 'a2', 'diff']) maps.push(await pixels(page, `#map-${m} canvas.map`));
  return { values, maps, masses: await page.textContent('#mass-table') };
}

test('a new lab problem split by query rows across the workers, in cpu mode', async () => {
  const b = await start('cpu');
  try {
    const hash = '#/lab?n=1024&lambda=0.7&seed=5';
    const two = await lab(b, hash, 2);
    const want = await seen(two);
    assert.equal(want.values.length, 4);
    assert.match(await two.textContent('#compute-note'), /Computed on CPU/);
    // Moving N as a person does: new maps and numbers from the workers, nothing frozen.
    await two.evaluate(() => { const el = document.getElementById('n'); el.value = '11'; el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true })); });
    await two.waitForFunction(() => document.querySelector('#map-a1 .axis-note').textContent.includes('2047') && !document.querySelector('#busy-note').textContent, null, { timeout: 60_000 });
    assert.notDeepEqual((await seen(two)).values, want.values, 'N = 2048 is another problem');
    await two.close();
    for (const [workers, why] of [[1, 'one worker'], [0, "the page's own thread"]]) {
      const page = await lab(b, hash, workers);
      assert.deepEqual(await seen(page), want, `${why} shows what two workers do, bit for bit`);
      await page.close();
    }
    assert.deepEqual(b.errors, [], 'no errors in the page');
  } finally {
    await b.stop();
  }
});

for (const [mode, fault] of [['cpu', 'panic'], ['gpu', 'oom']]) {
  test(`a worker that fails (${fault}) shows the banner and the page goes on, in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      const hash = '#/lab?n=1024&lambda=0.7&seed=5';
      const healthy = await lab(b, hash, 2);
      await healthy.waitForFunction(() => document.querySelector('#chart-noise')?.dataset.points === '25' && document.querySelector('#chart-context')?.dataset.points === '8', null, { timeout: 120_000 });
      const want = await seen(healthy);
      assert.equal(await healthy.$('#worker-failed'), null, 'no banner while the workers are well');
      await healthy.close();

      const page = await lab(b, hash, 2, fault);
      await page.waitForSelector('#worker-failed', { timeout: 60_000 });
      const banner = await page.textContent('#worker-failed');
      assert.match(banner, /A background worker failed \(.+\)\. Its work was finished on this page/);
      if (fault === 'panic') assert.match(banner, /asked to fail/, `the panic's own message: ${banner}`);
      await page.screenshot({ path: artifact(`worker-failed-${mode}.png`) });
      // The work the worker dropped is done anyway: the same maps, numbers and charts.
      await page.waitForFunction(() => document.querySelector('#chart-noise')?.dataset.points === '25' && document.querySelector('#chart-context')?.dataset.points === '8', null, { timeout: 120_000 });
      assert.deepEqual(await seen(page), want, 'what the page shows does not depend on the failure');
      // And it goes on: dismiss the banner, change the problem, and it is computed (by a
      // fresh worker where the failed one was).
      await page.click('#worker-failed button');
      assert.equal(await page.$('#worker-failed'), null);
      const before = await pixels(page, '#map-a1 canvas.map');
      await page.click('#new-sample');
      await page.waitForFunction(() => !document.querySelector('#busy-note').textContent && document.querySelector('#chart-noise')?.dataset.points === '25', null, { timeout: 120_000 });
      assert.notEqual(await pixels(page, '#map-a1 canvas.map'), before, 'a new sample is drawn');
      assert.equal(await page.$('#worker-failed'), null, 'the fresh worker does not fail');
      assert.deepEqual(b.errors.filter((e) => !/worker/i.test(e)), [], 'no errors in the page itself');
      await page.close();
    } finally {
      await b.stop();
    }
  });
}


/** What a student sees of the explorer's three columns: predictions, net weights and maps. */
async function columns(page) {
  const out = [];
  for (const k of KINDS) out.push([await page.textContent(`#col-${k} .predictions`), await page.textContent(`#net-${k}`), await pixels(page, `#cmp-${k}-main canvas.map`)]);
  return out;
}

/** The columns once they have stopped changing (the maps paint after the predictions). */
async function settled(page) {
  await ready(page);
  let last = JSON.stringify(await columns(page));
  for (;;) {
    await page.waitForTimeout(200);
    const now = JSON.stringify(await columns(page));
    if (now === last) return JSON.parse(now);
    last = now;
  }
}

const version = (page) => page.$eval('#compare-timing', (el) => Number(el.dataset.version));

/** Clicks "New prompt" and waits for the columns to follow; returns the timing line. */
async function newPrompt(page) {
  const v = await version(page);
  await page.click('#new-prompt');
  await page.waitForFunction((v) => Number(document.querySelector('#compare-timing').dataset.version) > v, v, { timeout: 60_000 });
  return page.textContent('#compare-timing');
}

/** New prompts until one is run in the workers (the page runs the first ones itself
 * while the pool is still starting); the columns must change each time. */
async function promptInWorkers(page) {
  for (let k = 0; k < 20; k++) {
    const before = await columns(page);
    const timing = await newPrompt(page);
    assert.notDeepEqual(await columns(page), before, 'a new prompt changes the columns');
    if (/background workers/.test(timing)) return timing;
    await page.waitForTimeout(500);
  }
  throw new Error('the workers never took a new prompt');
}

for (const mode of ['gpu', 'cpu']) {
  test(`a new prompt's three models in background workers, in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      const page = await open(b, 3);
      assert.match(await promptInWorkers(page), /^Last update: 3 forward passes with every map kept, \d+ ms on the CPU core in background workers\.$/);
      for (const k of KINDS) assert.match(await page.textContent(`#where-${k}`), /^Computed on the CPU core \(WebAssembly, in a background worker, so the page stays responsive\): .+\.$/);
      const shown = await settled(page);
      await page.screenshot({ path: artifact(`compare-workers-${mode}.png`) });
      // The same prompt (its link) with no workers: the page's own passes show the same.
      const link = new URL(page.url()).hash;
      const here = await b.context.newPage();
      await breakWorkerDownload(here);
      await here.goto(b.url + link);
      assert.deepEqual(await settled(here), shown, "the workers' passes equal the page's own, bit for bit");
      // A λ step after a worker's pass: DIFF V1 alone reruns, here on the page, from the
      // worker's residual stream, and shows what a fresh pass with that λ shows.
      await page.click('#lambda-panel-diff_v1 summary');
      const v = await version(page);
      await page.focus('#v1-lambda-1');
      for (let k = 0; k < 40; k++) await page.keyboard.press('PageUp');
      await page.waitForFunction((v) => Number(document.querySelector('#compare-timing').dataset.version) > v && /learnt/.test(document.querySelector('label[for=v1-lambda-1]').textContent), v);
      await page.waitForFunction(() => /v1_lambda=/.test(location.hash));
      const stepped = await settled(page);
      assert.notDeepEqual(stepped[1], shown[1], "V1's column follows its λ");
      assert.deepEqual([stepped[0], stepped[2]], [shown[0], shown[2]], 'the other columns are kept');
      assert.match(await page.textContent('#compare-timing'), /1 forward pass with every map kept, \d+ ms on the CPU core\./);
      await here.goto(b.url + new URL(page.url()).hash);
      await here.reload();
      assert.deepEqual(await settled(here), stepped, "resumed from the worker's pass, the same as a whole pass on the page");
      await here.close();
      await page.close();

      // A worker that panics on its first forward pass: the banner says so, its column is
      // made on the page, and the next prompt goes to a fresh worker.
      const failing = await b.context.newPage();
      failing.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
      await failing.addInitScript(() => { window.DIFFLENS_WORKERS = 3; window.DIFFLENS_WORKER_FAULT = 'panic'; });
      await failing.goto(b.url + LINK);
      await ready(failing);
      for (let k = 0; k < 20 && !(await failing.$('#worker-failed')); k++) {
        const before = await columns(failing);
        await newPrompt(failing);
        assert.notDeepEqual(await columns(failing), before, 'the columns follow the prompt, failure or not');
        await failing.waitForTimeout(500);
      }
      assert.match(await failing.textContent('#worker-failed'), /A background worker failed \(.+asked to fail\)\. Its work was finished on this page/);
      await settled(failing);
      const wheres = await Promise.all(KINDS.map((k) => failing.textContent(`#where-${k}`)));
      assert.ok(wheres.some((w) => /^Computed on the CPU core \(WebAssembly\): /.test(w)), `the failed pass was made on the page: ${wheres}`);
      await failing.click('#worker-failed button');
      assert.match(await promptInWorkers(failing), /background workers/, 'a fresh worker takes the next prompt');
      assert.equal(await failing.$('#worker-failed'), null);
      await failing.close();
      assert.deepEqual(b.errors.filter((e) => !/worker/i.test(e)), [], 'no errors in the page itself');
    } finally {
      await b.stop();
    }
  });
}
