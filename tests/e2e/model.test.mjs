// The model explorer with the shipped checkpoints: a prompt, the model's answers, the
// maps of any layer and head, training progress, and clear messages for bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, pixels, pixelsChange, modelReady } from './harness.mjs';

const ready = (page) => modelReady(page);

test('model explorer', async () => {
  const b = await start('cpu');
  try {
    const page = await b.open('#/model?model=diff_v1&ckpt=4&n=4&r=2&ctx=64&depth=50&seed=1&layer=2&head=0');
    await ready(page);
    assert.equal(await page.locator('#predictions li').count(), 2, 'one line per query');
    assert.match(await page.textContent('#predictions'), /Query 1: predicts \d+ \(\d+%\), the answer is \d+/);
    // The trained model retrieves: both queries of this four-needle prompt answered right.
    assert.equal(await page.locator('#predictions li[data-right="true"]').count(), 2, await page.textContent('#predictions'));
    assert.match(await page.textContent('label[for=ckpt]'), /fully trained: step \d+ \(100%\)/);
    assert.match(await page.textContent('#lambda-note'), /λ of layer 2: -?\d\.\d{3}/);
    const t = await page.evaluate(() => document.querySelector('#model-diff canvas.map').width);
    assert.equal(t, 1 + 64 + 8, 'one pixel per token: <bos>, 64 context tokens, two queries');
    assert.equal(await page.locator('#prompt .tok.answer').count(), 4, 'the asked needle is highlighted');
    await page.screenshot({ path: artifact('model-diff_v1.png'), fullPage: true });

    // Hover a cell: the tooltip names both tokens.
    await page.locator('#model-a1 canvas.map').scrollIntoViewIfNeeded();
    const box = await page.locator('#model-a1 canvas.map').boundingBox();
    await page.mouse.move(box.x + box.width * 0.99, box.y + box.height * 0.99);
    assert.match(await page.textContent('#model-tooltip'), /query 72 “\d+” → key 72/);

    // The untrained checkpoint answers differently from the trained one, and the link follows.
    const trained = await page.textContent('#predictions');
    await page.evaluate(() => { const el = document.getElementById('ckpt'); el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    await page.waitForFunction((before) => document.querySelector('#predictions')?.textContent !== before, trained);
    assert.match(page.url(), /ckpt=0/);
    assert.match(await page.textContent('label[for=ckpt]'), /untrained: step 0 \(0%\)/);

    // Every model loads, the baseline has no A2.
    for (const kind of ['diff_v2', 'baseline']) {
      await page.selectOption('#model-kind', kind);
      await page.waitForFunction((k) => location.hash.includes(`model=${k}`), kind);
      await ready(page);
    }
    assert.equal(await page.locator('#model-a2').count(), 0, 'the baseline has one map per head');

    // One model's view, opened bare, starts on DIFF V2's needle-finding head.
    const fresh = await b.open('#/model?view=single');
    await ready(fresh);
    assert.match(fresh.url(), /model=diff_v2.*layer=2&head=2/);
    assert.equal(await fresh.locator('#predictions li[data-right="true"]').count(), 1, await fresh.textContent('#predictions'));
    await fresh.screenshot({ path: artifact('model-diff_v2.png'), fullPage: true });

    // A link full of garbage is clamped and reported.
    const bad = await b.open('#/model?model=gpt&ckpt=9&ctx=100&zzz=1');
    await ready(bad);
    const notice = await bad.textContent('#link-notices');
    for (const s of ['model=gpt', 'ckpt=9 is above 4', 'ctx=100', 'unknown setting `zzz`']) assert.ok(notice.includes(s), `notice mentions ${s}: ${notice}`);

    // A corrupted checkpoint gets a message naming the file, and the page stays usable.
    const broken = await b.open('#/model?model=diff_v1&ckpt=4');
    await ready(broken);
    await broken.route('**/models/diff_v2/step-*.safetensors', (r) => r.fulfill({ status: 200, body: 'not a model' }));
    await broken.selectOption('#model-kind', 'diff_v2');
    await broken.waitForSelector('#model-error');
    assert.match(await broken.textContent('#model-error'), /diff_v2\/step-\d+\.safetensors: not a safetensors file: .* this one starts with "not a model"/);
    await broken.selectOption('#model-kind', 'diff_v1');
    await ready(broken);
    assert.deepEqual(b.errors.filter((e) => !/Failed to load resource/.test(e)), [], 'no console errors');
  } finally {
    await b.stop();
  }
});

test('model explorer: the WebGPU forward pass agrees with the CPU core', async () => {
  const b = await start('gpu');
  try {
    const page = await b.open('#/model?model=diff_v2&ckpt=4&n=2&r=1&ctx=64&depth=25&seed=3&layer=1&head=2');
    await ready(page);
    await page.click('#model-dev summary');
    await page.click('#model-gpu-check');
    await page.waitForFunction(() => /WebGPU forward (in|failed)/.test(document.querySelector('#model-gpu-result')?.textContent), null, { timeout: 120_000 });
    const text = await page.textContent('#model-gpu-result');
    console.log(text);
    const score = Number(await page.getAttribute('#model-gpu-result', 'data-score'));
    assert.ok(score <= 1, `GPU and CPU disagree beyond tolerance: ${text}`);
  } finally {
    await b.stop();
  }
});

test('model explorer: your own model from disk, and a mismatched one named', async () => {
  const b = await start('cpu');
  try {
    const models = new URL('../../www/models/', import.meta.url).pathname;
    const page = await b.open('#/model?view=single&model=baseline');
    await ready(page);
    const shipped = await page.textContent('#predictions');
    await page.click('#own-model summary');
    // A wrong pair first: DIFF V1's config with the baseline's weights.
    await page.setInputFiles('#own-files', [`${models}diff_v1/config.json`, `${models}baseline/step-03200.safetensors`]);
    await page.waitForSelector('#own-message.notice');
    assert.match(await page.textContent('#own-message'), /^step-03200\.safetensors: .*layers\.0\.attn\./);
    assert.equal(await page.textContent('#predictions'), shipped, 'the page keeps what it showed');
    // Then the right pair: the page explores it like a shipped model.
    await page.setInputFiles('#own-files', [`${models}diff_v1/config.json`, `${models}diff_v1/step-03200.safetensors`]);
    await page.waitForFunction(() => /^Loaded step-03200\.safetensors \+ config\.json: diff_v1, 3 layers/.test(document.querySelector('#own-message')?.textContent));
    // The baseline has one map per head; the loaded DIFF V1 shows A2 as well.
    await page.waitForSelector('#model-a2');
    assert.match(await page.textContent('#lambda-note'), /λ of layer \d: /);
    assert.match(await page.$eval('#model-kind', (s) => s.selectedOptions[0].textContent), /^Your model \(step-03200\.safetensors \+ config\.json\)$/);
    assert.equal(await page.locator('#ckpt').count(), 0, 'no training slider for a model without checkpoints');
    await page.click('#own-close');
    await page.waitForFunction(() => !document.querySelector('#model-a2'));
    assert.equal(await page.$eval('#model-kind', (s) => s.value), 'baseline');
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.stop();
  }
});

/** A safetensors file holding `x` ([T, E], f32), as a reader would write it. */
function xFile(t, e, name = 'x.safetensors') {
  let header = JSON.stringify({ x: { dtype: 'F32', shape: [t, e], data_offsets: [0, t * e * 4] } });
  header += ' '.repeat((8 - (header.length % 8)) % 8);
  const data = new Float32Array(t * e).map((_, i) => Math.sin(i * 0.37));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return { name, mimeType: 'application/octet-stream', buffer: Buffer.concat([len, Buffer.from(header), Buffer.from(data.buffer)]) };
}

for (const mode of ['cpu', 'gpu']) {
  test(`model explorer (${mode}): one attention layer from a file, on a random and an uploaded x; wrong choices named`, async () => {
    const b = await start(mode);
    const models = new URL('../../www/models/', import.meta.url).pathname;
    const map = (id) => page.evaluate((id) => { const c = document.querySelector(`#${id} canvas.map`); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let h = 0; for (let i = 0; i < d.length; i += 7) h = (h * 31 + d[i]) >>> 0; return `${c.width}:${h}`; }, id);
    const message = (re) => page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#layer-message')?.textContent || ''), re.source, { timeout: 30_000 });
    let page;
    try {
      page = await b.open('#/model?view=single&model=diff_v1&layer=2');
      await ready(page);
      await page.click('#own-layer summary');
      assert.equal(await page.textContent('#layer-message'), 'Choose a layer\'s file.');
      // A whole-model checkpoint: its first layer opens, the others can be picked.
      await page.setInputFiles('#layer-file', `${models}diff_v1/step-03200.safetensors`);
      await message(/^Opened layers\.0\.attn of step-03200\.safetensors: diff_v1, 2 heads, width 64, on a random x of 32 tokens \(seed 1\)\. The file also holds \d+ tensor/);
      assert.deepEqual(await page.$$eval('#layer-prefix option', (o) => o.map((e) => e.value)), ['layers.0.attn', 'layers.1.attn', 'layers.2.attn']);
      assert.match(await page.textContent('#layer-lambda'), /^λ = -?\d\.\d{3}: one for every head/);
      const first = await map('layer-diff');
      assert.ok(first.startsWith('32:'), `one pixel per token: ${first}`);
      const firstPixels = await pixels(page, '#layer-diff canvas.map');
      await page.selectOption('#layer-prefix', 'layers.2.attn');
      await message(/^Opened layers\.2\.attn/);
      // Layer 2 of a whole model is at depth 2: its λ is the one the model's explorer shows.
      assert.equal(await page.inputValue('#layer-depth'), '2');
      const modelLambda = (await page.textContent('#lambda-note')).match(/λ of layer 2: (-?\d\.\d{3})/)[1];
      await page.waitForFunction((l) => document.querySelector('#layer-lambda').textContent.startsWith(`λ = ${l}:`), modelLambda);
      await pixelsChange(page, '#layer-diff canvas.map', firstPixels);
      const head0 = await pixels(page, '#layer-a1 canvas.map');
      await page.selectOption('#layer-head', '1');
      await pixelsChange(page, '#layer-a1 canvas.map', head0);
      // Wrong choices are named, and the page keeps working.
      await page.fill('#layer-heads', '3');
      await page.dispatchEvent('#layer-heads', 'change');
      await message(/from 3 heads and the layer's width 64/);
      await page.fill('#layer-heads', '2');
      await page.dispatchEvent('#layer-heads', 'change');
      await page.selectOption('#layer-kind', 'diff_v2');
      await message(/^step-03200\.safetensors: .*layers\.2\.attn\./);
      await page.selectOption('#layer-kind', 'diff_v1');
      await message(/^Opened layers\.2\.attn/);
      // An uploaded x: 10 tokens; one of the wrong width is refused by name.
      await page.setInputFiles('#layer-x', xFile(10, 64));
      await message(/on x from x\.safetensors\./);
      await page.waitForFunction(() => document.querySelector('#layer-diff canvas.map')?.width === 10);
      await page.setInputFiles('#layer-x', xFile(10, 32, 'narrow.safetensors'));
      await message(/^narrow\.safetensors: `x` is 32 wide but the layer takes 64$/);
      await page.fill('#layer-tokens', '48');
      await page.dispatchEvent('#layer-tokens', 'change');
      await message(/on a random x of 48 tokens/);
      await page.locator('#layer-a2').scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifact(`layer-view-${mode}.png`) });
      assert.deepEqual(b.errors, [], 'no console errors');
    } finally {
      await b.stop();
    }
  });
}
