// The training page: a student sets up a session, presses Train, and watches. Every check
// does what a person does (picks in the menus, clicks Train, Pause, Stop, the downloads,
// drags the scrubber) and then looks at what is on screen: the step counter, the curves,
// the held-out losses, the maps' pixels, the verdict; the downloaded model then loads in
// the explorer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, artifact, pixels, pixelsChange } from './harness.mjs';

/** The steps the status line says were taken. */
const steps = async (page) => Number((await page.textContent('#train-status')).match(/Step (\d+) of/)?.[1] ?? -1);
/** Each model's held-out loss untrained and now, as the page prints them. */
const now = (page) => page.$$eval('#train-now li', (lis) => lis.map((li) => ({ kind: li.dataset.kind, first: Number(li.dataset.first), last: Number(li.dataset.last), text: li.textContent })));

for (const mode of ['cpu', 'gpu']) {
  test(`training page (${mode})`, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/train');
      await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
      assert.match(await page.textContent('#train-status'), /Press Train to start/);
      // One seed of each model keeps the test short; the link says so.
      await page.selectOption('#train-seeds', '1');
      await page.waitForFunction(() => location.hash.includes('seeds=1'), null, { timeout: 10_000 });
      assert.match(await page.textContent('#train-size-note'), /width 64, 2 layers, 64 characters at a time/);
      // Every line the status shows from Train on, to read against the steps it counts.
      await page.evaluate(() => {
        const el = document.querySelector('#train-status');
        window.statusLines = [];
        new MutationObserver(() => window.statusLines.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
      });
      const clicked = Date.now();
      await page.click('#train-start');

      // The counter moves, the curves appear, and every model's held-out loss falls.
      await page.waitForFunction(() => /Step [1-9]\d* of 1800/.test(document.querySelector('#train-status')?.textContent), null, { timeout: 90_000 });
      // No speed before a step has landed; after, never fewer characters per second than
      // the steps shown read (64 × 16 a step) over the whole wait since Train.
      const wall = (Date.now() - clicked) / 1000;
      for (const line of await page.evaluate(() => window.statusLines)) {
        assert.doesNotMatch(line, /Step 0 of .*per second/, line);
        const m = line.match(/Step (\d+) of 1800 over all runs; (\d+) characters per second/);
        if (m) assert.ok(Number(m[2]) >= Number(m[1]) * 1024 / wall, `a speed below the steps over the whole wait: ${line} after ${wall} s`);
      }
      await page.waitForFunction(() => Number(document.querySelector('#train-held-out')?.dataset.points) >= 2, null, { timeout: 90_000 });
      await page.waitForFunction(() => { const li = [...document.querySelectorAll('#train-now li')]; return li.length === 3 && li.every((l) => Number(l.dataset.step) > 0); }, null, { timeout: 90_000 });
      const map = '#train-map-diff_v1-diff canvas.map';
      await page.waitForSelector(map);
      const px0 = await pixels(page, map);
      const seen = await now(page);
      assert.deepEqual(seen.map((m) => m.kind), ['baseline', 'diff_v1', 'diff_v2']);
      for (const m of seen) assert.ok(m.last < m.first - 0.3, `${m.kind}: the held-out loss falls: ${m.text}`);
      assert.equal(await page.getAttribute('#train-loss', 'data-drawn'), 'true');
      // The maps change from one evaluation to the next.
      await pixelsChange(page, map, px0, 90_000);
      await page.screenshot({ path: artifact(`train-${mode}.png`), fullPage: true });

      // Pause holds the counter; Resume moves it again; Stop halts it for good.
      await page.click('#train-pause');
      // "Pausing" while the chunks under way finish; "Paused" once they have landed.
      await page.waitForFunction(() => /^Paus(ing|ed)/.test(document.querySelector('#train-status')?.textContent));
      await page.waitForFunction(() => /^Paused/.test(document.querySelector('#train-status')?.textContent), null, { timeout: 60_000 });
      const held = await steps(page);
      await page.waitForTimeout(3000);
      assert.equal(await steps(page), held, 'paused: no step is taken');
      await page.click('#train-pause');
      await page.waitForFunction((s) => Number(document.querySelector('#train-status')?.textContent.match(/Step (\d+) of/)?.[1]) > s, held, { timeout: 60_000 });
      await page.click('#train-stop');
      await page.waitForFunction(() => /^Stopped/.test(document.querySelector('#train-status')?.textContent));
      const stopped = await steps(page);
      await page.waitForTimeout(3000);
      assert.equal(await steps(page), stopped, 'stopped: no step is taken');

      // The scrubber goes back to the first evaluation: the untrained map.
      const latest = await pixels(page, map);
      await page.focus('#train-scrub');
      await page.keyboard.press('Home');
      await page.waitForFunction(() => document.querySelector('[data-kind=diff_v1] .train-maps-step')?.textContent === 'step 0');
      await pixelsChange(page, map, latest);

      // Keep V1: its weights and config download, and the explorer reads them.
      await page.click('#train-keep summary');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'difflens-train-'));
      const save = async (sel) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
        const to = path.join(dir, download.suggestedFilename());
        await download.saveAs(to);
        return to;
      };
      const run = '#train-keep li[data-run="diff_v1-1"]';
      const weights = await save(`${run} .train-save-weights`);
      const config = await save(`${run} .train-save-config`);
      const card = await save(`${run} .train-save-card`);
      assert.match(path.basename(weights), /^difflens-train-diff_v1-small-seed1-step\d+\.safetensors$/);
      assert.match(fs.readFileSync(card, 'utf8'), /\| attention \| diff_v1 \|/);
      const explorer = await b.open('#/model?view=single&model=baseline');
      await explorer.waitForFunction(() => document.querySelectorAll('#predictions li').length > 0, null, { timeout: 60_000 });
      await explorer.click('#own-model summary');
      await explorer.setInputFiles('#own-files', [config, weights]);
      await explorer.waitForFunction(() => /^Loaded difflens-train-diff_v1.*: diff_v1, 2 layers/.test(document.querySelector('#own-message')?.textContent), null, { timeout: 30_000 });
      await explorer.waitForSelector('#model-a2');
      // And the text page reads it: V1's column becomes the trained model, on the CPU core.
      const text = await b.open('#/text');
      await text.waitForFunction(() => document.querySelector('.page.text')?.dataset.status === 'ready' && /nats per character/.test(document.querySelector('#mean-diff_v1')?.textContent), null, { timeout: 60_000 });
      const shippedMean = await text.textContent('#mean-diff_v1');
      await text.click('#text-own summary');
      const needle = path.join(process.cwd(), 'www/models/diff_v1');
      await text.setInputFiles('#text-own-files', [path.join(needle, 'config.json'), path.join(needle, 'step-03200.safetensors')]);
      await text.waitForFunction(() => /reads 76 symbols/.test(document.querySelector('#text-own-message')?.textContent), null, { timeout: 30_000 });
      await text.setInputFiles('#text-own-files', [config, weights]);
      await text.waitForFunction(() => /DIFF Transformer V1: your model/.test(document.querySelector('#text-diff_v1 h3')?.textContent), null, { timeout: 30_000 });
      await text.waitForFunction((before) => { const m = document.querySelector('#mean-diff_v1')?.textContent; return m && m !== before; }, shippedMean, { timeout: 30_000 });
      assert.match(await text.textContent('#where-diff_v1'), /CPU core/);
      assert.match(await text.textContent('#text-own-note'), /the evaluation below is of the shipped models/);
      await text.click('#text-own-back');
      await text.waitForFunction((before) => document.querySelector('#mean-diff_v1')?.textContent === before, shippedMean, { timeout: 30_000 });
      fs.rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(b.errors, [], 'no console errors');
    } finally {
      await b.stop();
    }
  });
}

test('training page: a pasted text too short, or with letters the models lack, is refused with the reason', async () => {
  const b = await start('cpu');
  try {
    const page = await b.open('#/train?task=pasted');
    await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
    await page.fill('#train-text', 'To be, or not to be.');
    assert.match(await page.textContent('#train-held-note'), /too short: 20 characters, and this size needs at least \d+/);
    await page.fill('#train-text', 'Café ' .repeat(200));
    assert.match(await page.textContent('#train-held-note'), /has no é/);
    await page.click('#train-start');
    assert.match(await page.textContent('#train-status'), /has no é/);
    await page.fill('#train-text', 'Now is the winter of our discontent made glorious summer by this sun of York.\n'.repeat(40));
    assert.match(await page.textContent('#train-held-note'), /The last 312 characters are held out/);
    // A link that asks for what does not exist says so and trains what it can.
    const odd = await b.open('#/train?size=huge&models=gpt,diff_v2');
    assert.match(await odd.textContent('#link-notices'), /size=huge/);
    assert.equal(await odd.isChecked('#train-model-diff_v2'), true);
    assert.equal(await odd.isChecked('#train-model-baseline'), false);
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.stop();
  }
});

test('training page: the needle task fine-tunes the shipped models, and their retrieval accuracy climbs', async () => {
  const b = await start('cpu');
  try {
    const page = await b.open('#/train?task=needle&models=baseline,diff_v2&seeds=1');
    await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
    // The needle task has one size, the shipped models': the size menu gives way to what the task is.
    assert.equal(await page.$('#train-size'), null);
    assert.match(await page.textContent('#train-needle-note'), /checkpoint 2, taken after its copy warm-up/);
    await page.click('#train-start');
    await page.waitForFunction(() => /Step [1-9]\d* of 600 over all runs; \d+ prompts per second/.test(document.querySelector('#train-status')?.textContent), null, { timeout: 90_000 });
    await page.waitForFunction(() => Number(document.querySelector('#train-accuracy')?.dataset.points) >= 2, null, { timeout: 90_000 });
    // The probe is a needle prompt, and the losses are counted per answer.
    assert.match(await page.textContent('#train-probe'), /→/);
    assert.match(await page.textContent('#train-now'), /nats per answer/);
    // Retrieval forms: the baseline's accuracy on the held-out questions climbs from near zero.
    const accuracy = () => page.$$eval('#train-now li', (lis) => lis.map((li) => li.textContent.match(/accuracy (\d+) % at the start, (\d+) % now/)?.slice(1).map(Number)));
    await page.waitForFunction(() => { const m = document.querySelector('#train-now li[data-kind=baseline]')?.textContent.match(/(\d+) % now/); return m && Number(m[1]) >= 50; }, null, { timeout: 150_000 });
    const [[start0, now0]] = await accuracy();
    assert.ok(start0 < 20 && now0 >= 50, `baseline: ${start0} % → ${now0} %`);
    assert.equal(await page.getAttribute('#train-accuracy', 'data-drawn'), 'true');
    await page.screenshot({ path: artifact('train-needle-cpu.png'), fullPage: true });
    await page.click('#train-stop');
    await page.waitForFunction(() => /^Stopped/.test(document.querySelector('#train-status')?.textContent));
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.stop();
  }
});


test('training page: a worker that panics mid-session shows the banner, and training goes on', async () => {
  const b = await start('cpu');
  try {
    const page = await b.context.newPage();
    page.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
    // The first worker panics on its first job (the run's first chunk).
    await page.addInitScript(() => { window.DIFFLENS_WORKERS = 1; window.DIFFLENS_WORKER_FAULT = 'panic'; });
    await page.goto(b.url + '#/train?task=needle&models=baseline&seeds=1');
    await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
    await page.click('#train-start');
    await page.waitForSelector('#worker-failed', { timeout: 60_000 });
    assert.match(await page.textContent('#worker-failed'), /A background worker failed \(.+asked to fail\)\. Training sends its chunk to a fresh worker/);
    // The chunk the worker dropped goes to a fresh worker (the page holds no training
    // code): the run is not marked failed, its steps move on and it learns.
    await page.waitForFunction(() => Number(document.querySelector('#train-status')?.textContent.match(/Step (\d+) of/)?.[1]) >= 40, null, { timeout: 120_000 });
    assert.equal(await page.isHidden('#train-failures'), true, 'no run stopped');
    await page.waitForFunction(() => { const m = document.querySelector('#train-now li')?.textContent.match(/(\d+) % now/); return m && Number(m[1]) >= 50; }, null, { timeout: 120_000 });
    await page.click('#train-stop');
    assert.deepEqual(b.errors.filter((e) => !/worker/i.test(e)), [], 'no errors in the page itself');
  } finally {
    await b.stop();
  }
});

test('training page: the training code arrives only when a person trains, and a training wasm that cannot load stops the runs with the reason', async () => {
  const b = await start('cpu');
  try {
    const page = await b.context.newPage();
    page.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
    const asked = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    const training = () => asked.filter((p) => /difflens-train/.test(p));
    // The lab and the training page before Train: the training wasm is not fetched.
    await page.goto(b.url + '#/lab');
    await page.waitForSelector('canvas.map');
    await page.click('a[href$="#/train"]');
    await page.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
    assert.deepEqual(training(), [], 'no training code before Train');
    await page.selectOption('#train-seeds', '1');
    await page.click('#train-start');
    await page.waitForFunction(() => /Step [1-9]\d* of/.test(document.querySelector('#train-status')?.textContent), null, { timeout: 90_000 });
    assert.ok(training().some((p) => p.endsWith('difflens-train_bg.wasm')), `the training workers fetched their wasm: ${training()}`);
    await page.click('#train-stop');
    await page.close();

    // Its download breaks: each run's chunk is sent twice, then every run stops with the
    // reason, the banner says it, and the page goes on.
    const broken = await b.context.newPage();
    broken.on('pageerror', (e) => b.errors.push(`pageerror: ${e.message}`));
    await broken.addInitScript(() => { window.DIFFLENS_WORKERS = 1; window.DIFFLENS_BREAK_WORKER_DOWNLOAD = true; });
    await broken.goto(b.url + '#/train?task=needle&models=baseline,diff_v1&seeds=1');
    await broken.waitForFunction(() => !document.querySelector('#train-start')?.disabled, null, { timeout: 30_000 });
    await broken.click('#train-start');
    await broken.waitForFunction(() => document.querySelectorAll('#train-failures li').length === 2, null, { timeout: 90_000 });
    const failures = await broken.$$eval('#train-failures li', (lis) => lis.map((li) => li.textContent));
    for (const f of failures) assert.match(f, /worker/i, f);
    assert.match(await broken.textContent('#worker-failed'), /A background worker failed .*Training sends its chunk to a fresh worker/);
    assert.equal(await broken.textContent('#train-status'), 'Every run stopped early (below), so nothing more is trained in this session.');
    await broken.click('a[href$="#/lab"]');
    await broken.waitForSelector('canvas.map');
    assert.deepEqual(b.errors.filter((e) => !/worker/i.test(e)), [], 'no errors in the page itself');
  } finally {
    await b.stop();
  }
});
