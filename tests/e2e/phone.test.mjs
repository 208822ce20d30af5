// On a phone, with a finger: every page fits the width, its controls stack in one column,
// sliders are finger-sized, a tap does what a hover does, and a drag moves a slider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, pixels, pixelsChange } from './harness.mjs';
import { chartsAreCrisp, colourBarsAreTicked } from './figures.mjs';

// Each page, when it is ready, and which of its figures to read back (charts, colour bars).
const PAGES = [
  ['#/learn?step=4', () => document.querySelector('#figure-facts')?.textContent.trim(), []],
  ['#/lab?n=256', () => document.querySelector('#snr-diff')?.dataset.value && document.querySelector('#chart-lambda')?.dataset.drawn === 'true', ['charts', 'bars']],
  ['#/model?view=compare', () => document.querySelectorAll('.predictions li').length === 3, ['bars']],
  ['#/arch', () => !!document.querySelector('#arch-table td'), []],
  ['#/train', () => !document.querySelector('#train-start')?.disabled, []],
];

for (const mode of ['gpu', 'cpu']) {
  test(`a phone with touch in ${mode} mode`, async () => {
    const b = await start(mode, { phone: true });
    try {
      for (const [hash, ready, figures] of PAGES) {
        const page = await b.open(hash);
        await page.waitForFunction(ready, null, { timeout: 30_000 });
        // Against the phone's 390 px, not innerWidth: a phone's layout viewport widens to
        // fit content that is too wide, and then nothing looks wider than it.
        const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - 390);
        assert.ok(overflow <= 0, `${hash}: ${overflow} px wider than the phone`);
        const sliders = await page.evaluate(() => [...document.querySelectorAll('input[type=range]')].filter((el) => el.getClientRects().length).map((el) => [el.id, el.getBoundingClientRect().height]));
        for (const [id, h] of sliders) assert.ok(h >= 44, `${hash}: slider ${id} is ${h} px tall, under a finger's 44 px`);
        const lefts = await page.evaluate(() => [...document.querySelectorAll('.controls > .control')].filter((el) => el.getClientRects().length).map((el) => Math.round(el.getBoundingClientRect().left)));
        assert.ok(new Set(lefts).size <= 1, `${hash}: the controls stack in one column (${lefts})`);
        // At twice the density: charts drawn at 2 × their box with 12 px text, colour bars marked.
        if (figures.includes('charts')) assert.ok((await chartsAreCrisp(page, hash)).every((c) => c.dpr === 2));
        if (figures.includes('bars')) await colourBarsAreTicked(page, hash);
        await page.close();
      }
      // A tap on a map reads its cell, as a hover does; a drag moves λ and repaints.
      const lab = await b.open('#/lab?n=64');
      await lab.waitForSelector('#map-diff canvas.map');
      await lab.locator('#map-diff canvas.map').scrollIntoViewIfNeeded();
      const box = await lab.locator('#map-diff canvas.map').boundingBox();
      await lab.touchscreen.tap(box.x + box.width * 0.3, box.y + box.height * 0.6);
      await lab.waitForSelector('#map-tooltip');
      assert.match(await lab.textContent('#map-tooltip'), /query i = \d+, key j = \d+/);
      const before = await pixels(lab, '#map-diff canvas.map');
      await lab.locator('#lambda').scrollIntoViewIfNeeded();
      const slider = await lab.locator('#lambda').boundingBox();
      await lab.touchscreen.tap(slider.x + slider.width * 0.15, slider.y + slider.height / 2);
      await pixelsChange(lab, '#map-diff canvas.map', before);
      assert.notEqual(await lab.textContent('[data-testid="lambda-value"]'), '0.80', 'a tap on the slider moved λ');
      await lab.screenshot({ path: artifact(`phone-lab-${mode}.png`), fullPage: true });
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });
}
