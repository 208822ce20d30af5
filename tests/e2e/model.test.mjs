// The model explorer with the shipped checkpoints: a prompt, the model's answers, the
// maps of any layer and head, training progress, and clear messages for bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact } from './harness.mjs';

const ready = (page) => page.waitForFunction(() => document.querySelector('#model-status')?.textContent.startsWith('Computed') && document.querySelectorAll('#predictions li').length > 0, null, { timeout: 30_000 });

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
