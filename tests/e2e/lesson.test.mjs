// The guided lesson, read as a student reads it (keys, a slider, a term, "open this in
// the lab"), and the presenter, embed and lock modes as a teacher uses them: projected,
// inside an <iframe> of another page, pinned. Both modes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { start, artifact, pixels, pixelsChange, lessonSteps } from './harness.mjs';

// From the lesson's own state table, never written here a second time.
const STEPS = lessonSteps();
const stepNumber = async (page) => Number(await page.getAttribute('#lesson-step', 'data-step'));
const facts = (page) => page.textContent('#figure-facts');

/** Waits until the step's figure shows something: a drawn chart, painted maps, a table. */
async function figureShown(page) {
  await page.waitForFunction(() => {
    const fig = document.querySelector('#lesson-figure');
    if (!fig || !document.querySelector('#figure-facts')?.textContent.trim()) return false;
    const charts = [...fig.querySelectorAll('canvas[data-drawn]')];
    if (charts.length && charts.some((c) => c.dataset.drawn !== 'true')) return false;
    const maps = [...fig.querySelectorAll('canvas.map')];
    if (maps.some((c) => c.width < 2)) return false;
    return charts.length + maps.length > 0 || fig.querySelector('table tbody tr');
  }, null, { timeout: 30_000 });
  // Every canvas of the figure shows more than one colour (it was painted, not left blank).
  const blank = await page.evaluate(() => [...document.querySelectorAll('#lesson-figure canvas.map, #lesson-figure canvas[data-drawn]')].filter((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return false;
    return true;
  }).map((c) => c.id || c.closest('[id]')?.id));
  assert.deepEqual(blank, [], 'no canvas of the figure is blank');
}

for (const mode of ['gpu', 'cpu']) {
  test(`lesson in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      // The bare address is the lesson; its first figure paints quickly.
      const page = await b.open('');
      await page.waitForFunction(() => document.querySelector('#fig-row')?.dataset.drawn === 'true', null, { polling: 'raf', timeout: 30_000 });
      const firstPaintMs = await page.evaluate(() => performance.now());
      assert.equal(await stepNumber(page), 1);
      assert.match(await page.textContent('#step-title'), /Softmax never gives exactly zero/);
      assert.match(await facts(page), /smallest weight is .+: small, but not zero/);
      await page.screenshot({ path: artifact(`lesson-${mode}.png`), fullPage: true });

      // A glossary term opens its definition in place.
      await page.click('button.term[data-term="softmax"]');
      assert.match(await page.textContent('.definition'), /add up to 1/);

      // The slider of step 1 (noise σ) changes the chart and the sentence.
      const before = [await pixels(page, '#fig-row'), await facts(page)];
      await page.focus('#noise');
      for (let k = 0; k < 10; k++) await page.keyboard.press('ArrowRight');
      await pixelsChange(page, '#fig-row', before[0]);
      assert.notEqual(await facts(page), before[1], 'the sentence follows the slider');
      assert.equal(await stepNumber(page), 1, 'arrow keys on a slider move the slider, not the lesson');

      // Through every step with the keyboard, as a clicker does.
      await page.click('#step-title');
      const titles = [];
      for (let k = 1; k <= STEPS; k++) {
        assert.equal(await stepNumber(page), k);
        await figureShown(page);
        titles.push(await page.textContent('#step-title'));
        assert.equal(new URL(page.url()).hash.match(/step=(\d+)/)?.[1], String(k), 'the step is in the link');
        if (k === 7) {
          // The cost step: grouped KV heads change the table, the sentence and where "open" goes.
          const sentence = await facts(page);
          await page.click('#cost-gqa');
          await page.waitForFunction((s) => document.querySelector('#figure-facts').textContent !== s, sentence);
          assert.match(await page.getAttribute('#open-in', 'href'), /#\/arch\?.*kv_heads=8/);
          const cache = await page.locator('#cost-table tbody tr td:nth-child(5)').allTextContents();
          assert.equal(cache[2], cache[0], `V2 with GQA keeps the baseline's KV cache: ${cache}`);
          await page.click('#step-title');
        }
        if (k < STEPS) {
          await page.keyboard.press(k % 2 ? 'ArrowRight' : 'PageDown');
          await page.waitForFunction((n) => document.querySelector('#lesson-step')?.dataset.step === String(n), k + 1);
          await page.waitForFunction((n) => location.hash.includes(`step=${n}`), k + 1);
        }
      }
      assert.equal(new Set(titles).size, STEPS, `ten different steps: ${titles.join(' | ')}`);
      // The last step runs the three Shakespeare models on a line of Macbeth; its sentence
      // is computed from their maps, and "open" leads to the text page.
      assert.equal(await page.locator('#lesson-figure article.column').count(), 3);
      assert.match(await facts(page), /averaged over the last layer's heads, leaves -?\d\.\d\d of its weight on characters more than 9 back in the baseline, -?\d\.\d\d in DIFF V1/);
      assert.match(await page.textContent('#lesson-prompt'), /To-morrow, and to-morrow/);
      assert.match(await page.getAttribute('#open-in', 'href'), /#\/text$/);
      await page.screenshot({ path: artifact(`lesson-text-${mode}.png`), fullPage: true });
      await page.keyboard.press('ArrowRight');
      assert.equal(await stepNumber(page), STEPS, 'no step after the last');
      // The two steps before it run the needle models.
      await page.keyboard.press('PageUp');
      await page.waitForFunction(() => document.querySelector('#lesson-step')?.dataset.step === '9');
      await figureShown(page);
      assert.match(await page.textContent('#paper-table'), /ours, tiny/);
      const fourBit = await page.locator('#paper-table .four-bit').allTextContents();
      assert.equal(fourBit.length, 3);
      for (const t of fourBit) assert.match(t, /^(right|wrong) \(\d/, `each model's answer with 4-bit logits: ${fourBit}`);
      await page.keyboard.press('PageUp');
      await page.waitForFunction(() => document.querySelector('#lesson-step')?.dataset.step === '8');
      await figureShown(page);
      assert.equal(await page.locator('#lesson-figure .prediction').count(), 3, 'three models, three predictions');
      assert.match(await facts(page), /of the three models answer right/);
      await page.screenshot({ path: artifact(`lesson-models-${mode}.png`), fullPage: true });

      // Step 4: drag λ, then "open this in the lab" lands on the same numbers.
      await page.click('nav.steps a[data-step="4"]');
      await page.waitForFunction(() => document.querySelector('#lesson-step')?.dataset.step === '4');
      await figureShown(page);
      const diffBefore = await pixels(page, '#fig-diff canvas.map');
      await page.focus('#lambda');
      for (let k = 0; k < 30; k++) await page.keyboard.press('ArrowLeft');
      await pixelsChange(page, '#fig-diff canvas.map', diffBefore);
      const lessonLambda = await page.textContent('[data-testid="lambda-value"]');
      assert.equal(lessonLambda, '0.50');
      assert.match(await facts(page), /At λ = 0\.50, the first row of A1 − λ·A2 adds up to 0\.500/);
      const lessonSnr = Number(await page.getAttribute('#lesson-figure', 'data-snr-diff'));
      await page.waitForFunction(() => location.hash.includes('lambda=0.5'));
      await page.click('#open-in');
      await page.waitForSelector('main h2:text("Noise-floor lab")');
      await page.waitForFunction(() => document.querySelector('#snr-diff')?.dataset.value && document.querySelector('#map-diff')?.closest('.maps')?.dataset.n === '64');
      assert.equal(await page.textContent('[data-testid="lambda-value"]'), lessonLambda);
      const labSnr = Number(await page.getAttribute('#snr-diff', 'data-value'));
      // The same problem: equal on the CPU; on WebGPU the maps come from SwiftShader and
      // the lab's own GPU-vs-CPU tolerance (1e-5 per weight) allows a small difference.
      assert.ok(Math.abs(labSnr - lessonSnr) <= (mode === 'cpu' ? 1e-9 : 1e-3) * lessonSnr, `lab SNR ${labSnr} vs lesson ${lessonSnr}`);
      await page.goBack();
      await page.waitForFunction(() => document.querySelector('#lesson-step')?.dataset.step === '4');

      // On a phone: nothing overflows sideways, the figure fills the width.
      await page.setViewportSize({ width: 390, height: 844 });
      await figureShown(page);
      const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the lesson fits a phone's width (overflow ${overflow}px)`);
      await page.screenshot({ path: artifact(`lesson-phone-${mode}.png`), fullPage: true });
      await page.setViewportSize({ width: 1400, height: 1000 });

      // A link to a step with its slider, and garbage, as a teacher might paste.
      const linked = await b.open('#/learn?step=6&common=0.1&zz=1');
      await figureShown(linked);
      assert.match(await facts(linked), /With 10% of the noise shared/);
      assert.match(await linked.textContent('#link-notices'), /`zz`/);
      assert.deepEqual(b.errors, [], 'no errors in the console');
      fs.writeFileSync(artifact(`perf-lesson-${mode}.json`), JSON.stringify({ firstFigurePaintedMs: firstPaintMs }, null, 1));
      console.log(`[lesson ${mode}] first figure painted ${firstPaintMs.toFixed(0)} ms after navigation`);
      assert.ok(firstPaintMs < 5000, `the first figure within 5 s even on a loaded test machine (the README's benchmark reports the figure): ${firstPaintMs} ms`);
    } finally {
      await b.stop();
    }
  });

  test(`presenter, embed and lock modes in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      // Presenter: no header, navigation or footer; only the named controls; large type.
      const shown = await b.open('#/lab?present=1&controls=lambda,n&n=256');
      await shown.waitForSelector('#map-diff canvas.map');
      assert.equal(await shown.isVisible('header.top'), false, 'no header');
      assert.equal(await shown.locator('nav.pages').count(), 0, 'no navigation');
      assert.equal(await shown.locator('footer').count(), 0, 'no footer');
      assert.ok(await shown.isVisible('#lambda') && await shown.isVisible('#n'), 'the named controls stay');
      for (const hidden of ['#noise', '#signal', '#common', '#new-sample', '#contrast']) assert.equal(await shown.isVisible(hidden), false, `${hidden} is hidden`);
      const size = await shown.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.explain')).fontSize));
      assert.ok(size >= 20, `projector text is large: ${size}px`);
      await shown.screenshot({ path: artifact(`present-lab-${mode}.png`) });
      // The explorer too: only the needles slider among its many controls.
      const explorer = await b.open('#/model?view=compare&present=1&controls=n');
      await explorer.waitForFunction(() => document.querySelectorAll('.predictions li').length === 3, null, { timeout: 30_000 });
      assert.ok(await explorer.isVisible('#needles'));
      for (const hidden of ['#bits', '#layer', '#run-accuracy', '#run-sweep', '#prompt-editor', '#new-prompt', '#view-single', '#grid-diff_v2', '#lambda-panel-diff_v1']) assert.equal(await explorer.isVisible(hidden), false, `${hidden} is hidden`);
      assert.ok(await explorer.isVisible('#cmp-diff_v2-main canvas.map'), 'the maps stay');
      const lesson = await b.open('#/learn?step=4&present=1');
      await figureShown(lesson);
      assert.equal(await lesson.isVisible('nav.steps'), false);
      await lesson.click('#step-title');
      await lesson.keyboard.press('PageDown');
      await lesson.waitForFunction(() => document.querySelector('#lesson-step')?.dataset.step === '5');
      assert.match(lesson.url(), /present=1/, 'the mode stays in the link');
      await lesson.screenshot({ path: artifact(`present-lesson-${mode}.png`) });

      // "Copy embed code" gives an iframe of this state in embed mode.
      const lab = await b.open('#/lab?lambda=0.3&n=64');
      await lab.waitForSelector('#map-diff canvas.map');
      await lab.click('#copy-embed');
      await lab.waitForSelector('#embed-code');
      const code = await lab.inputValue('#embed-code');
      const src = code.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
      assert.ok(src.startsWith(b.url) && /#\/lab\?.*lambda=0\.3.*embed=1/.test(src), `the snippet links this state under the site's path: ${src}`);

      // That iframe inside another page: it renders and answers the keyboard.
      const host = await b.open('#/arch');
      await host.setContent(`<!doctype html><link rel="icon" href="data:,"><title>A course page</title><h1>Week 3</h1>${code.replace('src="', 'id="difflens" src="').replace(/&amp;embed=1/, '&amp;embed=1&amp;controls=lambda')}`);
      const frame = host.frameLocator('#difflens');
      await frame.locator('#map-diff canvas.map').waitFor();
      await host.waitForFunction(() => {
        const doc = document.querySelector('#difflens')?.contentDocument;
        return doc && doc.querySelector('#row-sum')?.dataset.value;
      });
      assert.equal(await frame.locator('nav.pages').count(), 0, 'embedded without the navigation');
      assert.equal(await frame.locator('#noise').isVisible(), false);
      const f = host.frames().find((x) => x.url().includes('embed=1'));
      const mapBefore = await pixels(f, '#map-diff canvas.map');
      await frame.locator('#lambda').focus();
      for (let k = 0; k < 20; k++) await host.keyboard.press('ArrowRight');
      assert.equal(await frame.locator('[data-testid="lambda-value"]').textContent(), '0.50');
      await pixelsChange(f, '#map-diff canvas.map', mapBefore);
      await host.screenshot({ path: artifact(`embed-${mode}.png`) });
      // The lesson embedded: the keyboard moves its steps inside the frame.
      await host.setContent(`<!doctype html><link rel="icon" href="data:,"><h1>Slides</h1><iframe id="l" src="${b.url}#/learn?embed=1" width="900" height="700"></iframe>`);
      const lf = host.frameLocator('#l');
      await lf.locator('#fig-row[data-drawn="true"]').waitFor();
      await lf.locator('#step-title').click();
      await host.keyboard.press('ArrowRight');
      await lf.locator('#lesson-step[data-step="2"]').waitFor();

      // Pinned: the controls move, the link does not, a reload restores it.
      const pinned = await b.open('#/lab?lambda=0.4&n=64&lock=1');
      await pinned.waitForSelector('#locked-note');
      await pinned.focus('#lambda');
      for (let k = 0; k < 10; k++) await pinned.keyboard.press('ArrowRight');
      assert.equal(await pinned.textContent('[data-testid="lambda-value"]'), '0.50');
      await pinned.waitForTimeout(400);
      assert.match(pinned.url(), /lambda=0\.4&n=64&lock=1$/, 'the link is not rewritten');
      await pinned.reload();
      await pinned.waitForSelector('#locked-note');
      await pinned.waitForFunction(() => document.querySelector('[data-testid="lambda-value"]')?.textContent === '0.40');
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });
}
