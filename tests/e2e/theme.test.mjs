// The dark theme as a reader meets it: the system's setting is followed (live), the header's
// "Colours" list switches it, the choice stays through navigation, Back and a reload, the
// charts are redrawn light on dark while the maps' colours stay the data's, a handout
// prints light, and every visible text reads at 4.5:1 or more in both themes on every page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, pixels, pixelsChange } from './harness.mjs';
import { lowContrast, chartInk } from './contrast.mjs';

const PAGES = [
  ['#/learn?step=4', () => document.querySelector('#figure-facts')?.textContent.trim()],
  ['#/lab?n=256', () => document.querySelector('#snr-diff')?.dataset.value && document.querySelector('#chart-lambda')?.dataset.drawn === 'true'],
  ['#/model?view=compare', () => document.querySelectorAll('.predictions li').length === 3 && document.querySelector('#net-table td')],
  ['#/model?view=single', () => document.querySelector('#model-status')?.dataset.status === 'ready' && document.querySelectorAll('#predictions li').length > 0],
  ['#/arch', () => !!document.querySelector('#arch-table td')],
  ['#/train', () => !document.querySelector('#train-start')?.disabled],
];

const DARK_PAPER = [26, 30, 38];
const theme = (page) => page.evaluate(() => document.documentElement.dataset.theme);
const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const labReady = PAGES[1][1];

async function readable(page, where) {
  const low = await lowContrast(page);
  assert.deepEqual(low, [], `${where}: texts under 4.5:1 ${JSON.stringify(low, null, 1)}`);
}

for (const mode of ['gpu', 'cpu']) {
  test(`the colour theme, picked and followed, in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      const lab = await b.open('#/lab?n=256');
      await lab.waitForFunction(labReady, null, { timeout: 30_000 });
      assert.equal(await theme(lab), 'light', 'a light system gives the light theme');
      assert.deepEqual((await chartInk(lab, '#chart-lambda')).paper, [255, 255, 255]);
      const map = await pixels(lab, '#map-diff canvas.map');
      const chart = await pixels(lab, '#chart-lambda');

      // The reader picks "Dark" in the header.
      await lab.selectOption('#theme-select', 'dark');
      await lab.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await pixelsChange(lab, '#chart-lambda', chart);
      const ink = await chartInk(lab, '#chart-lambda');
      assert.deepEqual(ink.paper, DARK_PAPER, 'the chart is redrawn on the dark panel');
      assert.ok(ink.light > 0.005 && ink.light < 0.3, `light text and lines on the dark chart (${ink.light})`);
      assert.equal(await pixels(lab, '#map-diff canvas.map'), map, 'the map keeps its colours: a dark frame, not inverted data');
      assert.match(await background(lab), /rgb\(18, 21, 27\)/);
      assert.match(lab.url(), /theme=dark/, 'the choice is in the link');
      await readable(lab, 'lab, dark');
      await lab.screenshot({ path: artifact(`theme-dark-lab-${mode}.png`) });

      // A λ drag's link write keeps it; so do the navigation, Back and a reload.
      await lab.focus('#lambda');
      await lab.keyboard.press('ArrowRight');
      await lab.waitForFunction(() => /[?&]lambda=0\.81(&|$)/.test(location.hash));
      assert.match(lab.url(), /theme=dark/, 'a λ step keeps the theme in the link');
      await lab.click('nav.pages a[data-page="model"]');
      await lab.waitForFunction(() => location.hash.startsWith('#/model'));
      assert.match(lab.url(), /theme=dark/);
      assert.equal(await theme(lab), 'dark');
      await lab.goBack();
      await lab.waitForFunction(() => location.hash.startsWith('#/lab'));
      assert.equal(await theme(lab), 'dark', 'Back keeps the theme');
      await lab.reload();
      await lab.waitForFunction(labReady, null, { timeout: 30_000 });
      assert.equal(await theme(lab), 'dark', 'a reload keeps the theme');
      assert.deepEqual((await chartInk(lab, '#chart-lambda')).paper, DARK_PAPER);

      // A handout prints light, charts included, whatever the screen shows.
      await lab.emulateMedia({ media: 'print' });
      await lab.waitForFunction(() => {
        const c = document.querySelector('#chart-lambda');
        return c.getContext('2d').getImageData(0, 0, 1, 1).data[0] === 255;
      });
      assert.match(await background(lab), /rgb\(251, 251, 253\)|rgb\(255, 255, 255\)/);
      await lab.emulateMedia({ media: 'screen' });
      await lab.waitForFunction(() => document.querySelector('#chart-lambda').getContext('2d').getImageData(0, 0, 1, 1).data[0] === 26);

      // Back to the system's choice: the link loses theme=.
      await lab.selectOption('#theme-select', 'auto');
      await lab.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      assert.doesNotMatch(lab.url(), /theme=/);
      await lab.close();

      for (const [hash, ready] of PAGES) {
        for (const t of ['light', 'dark']) {
          const page = await b.open(`${hash}${hash.includes('?') ? '&' : '?'}theme=${t}`);
          await page.waitForFunction(ready, null, { timeout: 30_000 });
          assert.equal(await theme(page), t);
          await readable(page, `${hash} ${t}`);
          if (hash.includes('compare')) await page.screenshot({ path: artifact(`theme-${t}-compare-${mode}.png`), fullPage: true });
          await page.close();
        }
      }
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });

  test(`a dark system in ${mode} mode`, async () => {
    const b = await start(mode, { colorScheme: 'dark' });
    try {
      const lab = await b.open('#/lab?n=64');
      await lab.waitForFunction(() => document.querySelector('#chart-lambda')?.dataset.drawn === 'true', null, { timeout: 30_000 });
      assert.equal(await theme(lab), 'dark', 'the system asks for dark');
      assert.deepEqual((await chartInk(lab, '#chart-lambda')).paper, DARK_PAPER);
      assert.equal(await lab.inputValue('#theme-select'), 'auto');
      // The reader switches the system to light during the lesson: the page follows.
      await lab.emulateMedia({ colorScheme: 'light' });
      await lab.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await lab.waitForFunction(() => document.querySelector('#chart-lambda').getContext('2d').getImageData(0, 0, 1, 1).data[0] === 255);
      await lab.close();
      // A teacher's link that says light wins over the dark system; garbage says why.
      const linked = await b.open('#/lab?n=64&theme=light');
      assert.equal(await theme(linked), 'light');
      await linked.close();
      const bad = await b.open('#/lab?n=64&theme=pink');
      assert.equal(await theme(bad), 'dark');
      assert.match(await bad.textContent('body'), /theme=pink is not light or dark/);
      await bad.close();
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });
}
