// Leaving a long computation: #/bench measures for several seconds; a reader who goes
// to the lab meanwhile must get the lab at once, and the benchmark must stop rather than
// keep the page busy behind it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

for (const mode of ['gpu', 'cpu']) {
  test(`leaving #/bench stops it in ${mode} mode`, { timeout: 120_000 }, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/bench');
      await page.waitForSelector('#bench-result');
      // The benchmark starts 1.5 s after the page; leave it halfway through its first part.
      await page.waitForTimeout(2500);
      assert.equal(await page.textContent('#bench-result'), 'running…');
      const t0 = Date.now();
      await page.evaluate(() => { location.hash = '#/lab'; });
      await page.waitForFunction(() => document.querySelector('#snr-standard')?.dataset.value !== undefined, null, { timeout: 30_000 });
      const shown = Date.now() - t0;
      assert.ok(shown < 2000, `the lab showed ${shown} ms after leaving the benchmark`);
      // Then the page is quiet: the long tasks of the next 4 s add up to little.
      const busy = await page.evaluate(() => new Promise((resolve) => {
        let total = 0;
        const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) total += e.duration; });
        observer.observe({ type: 'longtask' });
        setTimeout(() => { observer.disconnect(); resolve(total); }, 4000);
      }));
      assert.ok(busy < 600, `long tasks after leaving add up to ${busy.toFixed(0)} ms: the benchmark kept running`);
      assert.deepEqual(b.errors, []);
    } finally {
      await b.stop();
    }
  });
}
