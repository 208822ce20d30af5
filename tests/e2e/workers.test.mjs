// The worker pool (issue 17) as a reader meets it. The lab's noise chart: the same 25
// points from two workers, one, or the page's own thread. "Run 100 prompts": the run
// fills its bars from background workers while the page's thread stays free; two workers
// give the same counts as one and as the page's own thread (when the worker cannot even
// download, the page says so and computes the run itself); a run cancelled and started
// again counts every prompt once, however late the first run's answers arrive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact } from './harness.mjs';

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
  if (breakWorker) await page.route('**/difflens-worker_bg.wasm', (r) => r.fulfill({ status: 200, contentType: 'application/wasm', body: 'not wasm' }));
  await page.goto(b.url + LINK);
  await ready(page);
  return page;
}

/** The lab's SNR-against-noise chart, once all 25 noise levels are in, as its CSV. */
async function noiseChart(b, workers, breakWorker = false) {
  const page = await b.context.newPage();
  page.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
  await page.addInitScript((n) => { window.DIFFLENS_WORKERS = n; }, workers);
  if (breakWorker) await page.route('**/difflens-worker_bg.wasm', (r) => r.fulfill({ status: 200, contentType: 'application/wasm', body: 'not wasm' }));
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
