// A broken network, as a student on a train meets it: the model files fail to arrive
// (the connection drops) or never answer. The explorer says so in a sentence (no
// JavaScript stack trace), offers "Try again", and the retry loads the models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

const status = (page) => page.textContent('#model-status');

for (const mode of ['gpu', 'cpu']) {
  test(`model files that fail or hang in ${mode} mode`, { timeout: 120_000 }, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/lab');
      // The connection drops: every request for a model file fails.
      await page.route('**/models/**', (route) => route.abort('connectionfailed'));
      await page.evaluate(() => { location.hash = '#/model?view=compare'; });
      await page.waitForSelector('#model-error', { timeout: 10_000 });
      const dropped = await page.textContent('#model-error');
      assert.match(dropped, /models\/baseline\/card\.json: .*connection failed.*try again/i);
      assert.doesNotMatch(dropped, /\bat \S+ \(|\.js:\d+|Error:|TypeError/, 'no stack trace or raw error object');
      assert.match(await status(page), /^Could not load the model/);

      // The network comes back: one click loads the three models and computes.
      await page.unroute('**/models/**');
      await page.click('#model-retry');
      await page.waitForFunction(() => document.querySelector('#model-status')?.dataset.status === 'ready', null, { timeout: 30_000 });
      assert.equal(await page.locator('#model-error').count(), 0, 'the error went with the retry');
      assert.ok(await page.locator('#col-diff_v2 .predictions li').count() > 0, 'the predictions are on screen');

      // A server that never answers: the single view of a checkpoint not loaded yet.
      await page.evaluate(() => { window.DIFFLENS_FETCH_TIMEOUT_MS = 1500; });
      await page.route('**/models/**', () => {});
      await page.evaluate(() => { location.hash = '#/model?view=single&model=diff_v1&ckpt=1'; });
      await page.waitForSelector('#model-error', { timeout: 10_000 });
      assert.match(await page.textContent('#model-error'), /did not answer within 1\.5 s/);
      await page.unroute('**/models/**');
      await page.click('#model-retry');
      await page.waitForFunction(() => document.querySelector('#model-status')?.dataset.status === 'ready', null, { timeout: 30_000 });
      assert.deepEqual(b.errors.filter((e) => !/Failed to load resource|ERR_CONNECTION|net::/.test(e)), [], 'no other console errors');
    } finally {
      await b.stop();
    }
  });
}
