// Benchmark (issue 43): the training page in Chromium, CPU mode unless told.
//   node tests/e2e/bench-train.mjs [cpu|gpu] [runs]
// 1. One baseline run of the small preset on one worker: the held-out loss at each
//    evaluation with the seconds since Train was pressed; when it passes below the
//    bigram entropy of the excerpt (2.47 nats per character on Shakespeare) and 2.0.
// 2. The default session (three kinds × three seeds, small preset) until done: its
//    seconds, with the pool the machine gives (hardwareConcurrency − 1 workers).
// 3. The needle task: one run of each kind (seed 1) on one worker: the seconds until its
//    held-out retrieval accuracy reaches 90 % (bench_train gives every seed natively).
// Writes artifacts/bench-train-<mode>.json. `node tests/e2e/bench-train.mjs cpu 3 needle`
// runs the needle part alone, `... cpu 3 single` the single runs without the session.
import fs from 'node:fs';
import { start, artifact } from './harness.mjs';

const mode = process.argv[2] || 'cpu';
const runs = Number(process.argv[3] || 3);
const BIGRAM = 2.47;

async function oneRun(b) {
  const page = await b.open('#/train?models=baseline&seeds=1');
  await page.evaluate(() => { window.DIFFLENS_WORKERS = 1; });
  await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
  const t0 = Date.now();
  await page.click('#train-start');
  const seen = [];
  let below = null;
  let two = null;
  while (Date.now() - t0 < 120_000) {
    const li = await page.$('#train-now li');
    if (li) {
      const step = Number(await li.getAttribute('data-step'));
      const last = Number(await li.getAttribute('data-last'));
      if (!seen.length || seen[seen.length - 1].step !== step) {
        const s = (Date.now() - t0) / 1000;
        seen.push({ step, loss: last, s });
        if (below === null && last < BIGRAM) below = s;
        if (two === null && last <= 2.0) two = s;
      }
      if (two !== null) break;
    }
    await page.waitForTimeout(200);
  }
  const status = await page.textContent('#train-status');
  await page.close();
  return { below_bigram_s: below, at_most_2_s: two, evaluations: seen, status };
}

async function session(b) {
  const page = await b.open('#/train');
  await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
  const t0 = Date.now();
  await page.click('#train-start');
  await page.waitForFunction(() => /^Done/.test(document.querySelector('#train-status')?.textContent), null, { timeout: 1_800_000, polling: 1000 });
  const s = (Date.now() - t0) / 1000;
  const verdict = await page.textContent('#train-verdict-sentences');
  const workers = await page.evaluate(() => Math.max(1, Math.min(8, navigator.hardwareConcurrency - 1)));
  await page.close();
  return { seconds: s, workers, verdict };
}

async function needleRun(b, kind) {
  const page = await b.open(`#/train?task=needle&models=${kind}&seeds=1`);
  await page.evaluate(() => { window.DIFFLENS_WORKERS = 1; });
  await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
  const t0 = Date.now();
  await page.click('#train-start');
  await page.waitForFunction(() => { const m = document.querySelector('#train-now li')?.textContent.match(/(\d+) % now/); return m && Number(m[1]) >= 90; }, null, { timeout: 600_000, polling: 250 });
  const s = (Date.now() - t0) / 1000;
  const step = Number(await page.getAttribute('#train-now li', 'data-step'));
  await page.close();
  return { kind, seconds_to_90: s, step };
}

/** The needle part: each kind's seconds to 90 %. */
async function needleRuns(b) {
  const needle = [];
  for (const kind of ['baseline', 'diff_v1', 'diff_v2']) needle.push(await needleRun(b, kind));
  fs.writeFileSync(artifact(`bench-train-needle-${mode}.json`), JSON.stringify(needle, null, 1));
  console.log(JSON.stringify(needle, null, 1));
}

/** The text part: single runs, then the default session. */
async function textRuns(b) {
  const single = [];
  for (let i = 0; i < runs; i++) single.push(await oneRun(b));
  const all = process.argv[4] === 'single' ? null : await session(b);
  const result = { mode, single, session: all };
  fs.writeFileSync(artifact(`bench-train-${mode}.json`), JSON.stringify(result, null, 1));
  console.log(JSON.stringify({ below_bigram_s: single.map((r) => r.below_bigram_s), at_most_2_s: single.map((r) => r.at_most_2_s), session: all }, null, 1));
}

const b = await start(mode);
try {
  if (process.argv[4] === 'needle') await needleRuns(b);
  else await textRuns(b);
} finally {
  await b.stop();
}
