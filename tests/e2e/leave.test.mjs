// Leaving a long computation: #/bench measures for several seconds; a reader who goes
// to the lab meanwhile must get the lab at once, and the benchmark must stop rather than
// keep the page busy behind it. The benchmark marks each timed run (User Timing,
// "difflens-bench-run"), so the test sees whether it went on after the lab appeared;
// the lab's own work (its maps, and its noise chart in a background worker, which on a
// two-core machine competes with a software GPU for the cores) is not the benchmark's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';

const runs = () => performance.getEntriesByName('difflens-bench-run').map((e) => e.startTime);

for (const mode of ['gpu', 'cpu']) {
  test(`leaving #/bench stops it in ${mode} mode`, { timeout: 120_000 }, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/bench');
      await page.waitForSelector('#bench-result');
      // The benchmark starts 1.5 s after the page; leave it halfway through its first part.
      await page.waitForTimeout(2500);
      assert.equal(await page.textContent('#bench-result'), 'running…');
      assert.ok((await page.evaluate(runs)).length > 0, 'the benchmark had not started a timed run');
      const t0 = Date.now();
      await page.evaluate(() => { location.hash = '#/lab'; });
      await page.waitForFunction(() => document.querySelector('#snr-standard')?.dataset.value !== undefined, null, { timeout: 30_000 });
      const shown = Date.now() - t0;
      const shownAt = await page.evaluate(() => performance.now());
      assert.ok(shown < 2000, `the lab showed ${shown} ms after leaving the benchmark`);
      assert.equal(await page.locator('#bench-result').count(), 0);
      // Then the benchmark stays stopped: no timed run starts once the lab is on screen.
      await page.waitForTimeout(4000);
      const later = (await page.evaluate(runs)).filter((t) => t > shownAt);
      assert.deepEqual(later.map(Math.round), [], 'the benchmark kept running after the lab appeared');
      assert.deepEqual(b.errors, []);
    } finally {
      await b.stop();
    }
  });
}
