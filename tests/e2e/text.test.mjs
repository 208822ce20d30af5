// The text page: a student types and the three Shakespeare models read it side by side.
// Every check does what a person does (types, presses keys, clicks, pastes, opens a
// link) and then looks at what is on screen: predictions, the surprise strip, the maps'
// pixels and labels, the written text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, pixels, pixelsChange, KINDS } from './harness.mjs';

/** Characters the models read of a text of `n`: all up to 128, then a window that moves on 32 at a time. */
const windowOf = (n) => (n <= 128 ? n : 97 + ((n - 97) % 32));

/** Ready: the page says so (in no language) and each column shows its next characters. */
const ready = (page) => page.waitForFunction(() => document.querySelector('section.text')?.dataset.status === 'ready'
  && [...document.querySelectorAll('.top5')].every((ol) => ol.children.length === 5), null, { timeout: 60_000 });
const top = (page, kind) => page.textContent(`#top-${kind}`);
/** Every character's loss in a column, as the strip carries it. */
const strip = (page, kind) => page.evaluate((k) => [...document.querySelectorAll(`#strip-${k} .ch`)].map((s) => s.dataset.loss ?? '').join(','), kind);
const changes = (page, sel, before) => page.waitForFunction(([s, b]) => document.querySelector(s)?.textContent !== b, [sel, before], { timeout: 30_000 });

for (const mode of ['cpu', 'gpu']) {
  test(`text page (${mode})`, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/text');
      await ready(page);
      const text = await page.inputValue('#text-input');
      assert.match(text, /^MACBETH:\nTo-morrow/);
      for (const k of KINDS) {
        assert.equal(await page.locator(`#strip-${k} .ch`).count(), windowOf([...text].length), `${k}: one shaded character each`);
        assert.match(await page.textContent(`#mean-${k}`), /\d\.\d\d nats per character/);
        assert.match(await page.textContent(`#caption-${k}`), /last character's row puts -?\d\.\d\d of its weight on the last 9 characters/);
        // Auto: the CPU core on SwiftShader (a software adapter) and without WebGPU.
        assert.match(await page.textContent(`#where-${k}`), /^Computed on the CPU core/);
      }
      await page.screenshot({ path: artifact(`text-${mode}.png`), fullPage: true });

      // Typing changes the predictions, the strip, the map's pixels and its labels.
      const map = '#text-map-baseline canvas.map';
      const [top0, strip0, px0] = [await top(page, 'baseline'), await strip(page, 'baseline'), await pixels(page, map)];
      await page.click('#text-input');
      await page.keyboard.press('Control+End');
      await page.keyboard.type('candle!');
      await changes(page, '#top-baseline', top0);
      await ready(page);
      assert.notEqual(await strip(page, 'baseline'), strip0);
      await pixelsChange(page, map, px0);
      assert.equal(await page.textContent(`#strip-baseline .ch:last-child`), '!');
      await page.waitForFunction(() => location.hash.includes('candle'), null, { timeout: 10_000 });

      // λ moved by keys changes V1's column only.
      const before = Object.fromEntries(await Promise.all(KINDS.map(async (k) => [k, await strip(page, k)])));
      await page.focus('#lambda');
      await page.keyboard.press('End');
      await page.waitForFunction((b) => [...document.querySelectorAll('#strip-diff_v1 .ch')].map((s) => s.dataset.loss ?? '').join(',') !== b, before.diff_v1, { timeout: 30_000 });
      await ready(page);
      assert.match(await page.textContent('#lambda-diff_v1'), /λ in this layer and head: 2\.000/);
      assert.equal(await strip(page, 'baseline'), before.baseline, 'the baseline did not move');
      assert.equal(await strip(page, 'diff_v2'), before.diff_v2, 'DIFF V2 did not move');
      await page.click('#lambda-learnt');
      await page.waitForFunction((b) => [...document.querySelectorAll('#strip-diff_v1 .ch')].map((s) => s.dataset.loss ?? '').join(',') === b, before.diff_v1, { timeout: 30_000 });

      // V2's λ scaled by keys changes V2's column only, and its link key; back to learnt.
      await page.focus('#v2_scale');
      await page.keyboard.press('End');
      await page.waitForFunction((b) => [...document.querySelectorAll('#strip-diff_v2 .ch')].map((s) => s.dataset.loss ?? '').join(',') !== b, before.diff_v2, { timeout: 30_000 });
      await ready(page);
      assert.equal(await strip(page, 'baseline'), before.baseline, 'the baseline did not move');
      assert.equal(await strip(page, 'diff_v1'), before.diff_v1, 'DIFF V1 did not move');
      await page.waitForFunction(() => /[?&]v2_scale=3(&|$)/.test(location.hash), null, { timeout: 10_000 });
      await page.click('#v2-lambda-learnt');
      await page.waitForFunction((b) => [...document.querySelectorAll('#strip-diff_v2 .ch')].map((s) => s.dataset.loss ?? '').join(',') === b, before.diff_v2, { timeout: 30_000 });

      if (mode === 'gpu') {
        // Chosen in the menu, WebGPU (SwiftShader) computes the columns: the same top five
        // and each character's loss within 2e-4 nats (the strip's 4 decimals; 1e-4 natively).
        const tops = await Promise.all(KINDS.map((k) => top(page, k)));
        await page.selectOption('#compute-on', 'gpu');
        await page.waitForFunction(() => [...document.querySelectorAll('.text-column .where')].every((p) => p.textContent.startsWith('Computed on WebGPU')), null, { timeout: 60_000 });
        await ready(page);
        assert.deepEqual(await Promise.all(KINDS.map((k) => top(page, k))), tops);
        for (const k of KINDS) {
          const [g, c] = [(await strip(page, k)).split(','), before[k].split(',')];
          const worst = Math.max(...g.map((v, i) => (v === '' ? 0 : Math.abs(Number(v) - Number(c[i])))));
          assert.ok(g.length === c.length && worst < 2e-4, `${k}: losses on WebGPU within 2e-4 of the CPU core (${worst})`);
        }
        await page.waitForFunction(() => /[?&]on=gpu(&|$)/.test(location.hash), null, { timeout: 10_000 });
        await page.selectOption('#compute-on', 'auto');
        await page.waitForFunction(() => [...document.querySelectorAll('.text-column .where')].every((p) => p.textContent.startsWith('Computed on the CPU core')), null, { timeout: 60_000 });
        await ready(page);
      }

      // The two softmax maps are drawn when their section is opened, and follow the text.
      assert.equal(await page.locator('#text-a1-diff_v2 canvas.map').count(), 0, 'not drawn while closed');
      await page.click('#text-diff_v2 details.branches summary');
      const a2 = '#text-a2-diff_v2 canvas.map';
      await page.waitForFunction((sel) => document.querySelector(sel)?.width > 1, a2);
      const a2px = await pixels(page, a2);
      await page.focus('#text-input');
      await page.keyboard.press('Control+End');
      await page.keyboard.type('e');
      await pixelsChange(page, a2, a2px);
      await ready(page);
      await page.click('#text-diff_v2 details.branches summary');

      // A click on a thumbnail of the head grid shows that layer and head in every column.
      const grid = '#text-grid-diff_v2';
      assert.equal(await page.locator(`${grid} .thumb`).count(), 16, 'DIFF V2: 4 layers × 4 heads');
      assert.equal(await page.locator('#text-grid-diff_v1 .thumb').count(), 8, 'DIFF V1: 4 layers × 2 differential heads');
      assert.match(await page.textContent(`${grid} .thumb[data-layer="0"][data-head="1"] span`), /^-?\d\.\d\d$/);
      const [caption0, v2px] = [await page.textContent('#caption-diff_v2'), await pixels(page, '#text-map-diff_v2 canvas.map')];
      await page.click(`${grid} .thumb[data-layer="0"][data-head="1"]`);
      await changes(page, '#caption-diff_v2', caption0);
      await pixelsChange(page, '#text-map-diff_v2 canvas.map', v2px);
      assert.equal(await page.getAttribute(`${grid} .thumb[data-layer="0"][data-head="1"]`, 'aria-pressed'), 'true');
      assert.equal(await page.getAttribute('#text-grid-baseline .thumb[data-layer="0"][data-head="1"]', 'aria-pressed'), 'true', 'every column shows the picked head');
      assert.match(await page.textContent('#caption-diff_v2'), new RegExp(`puts ${(await page.textContent(`${grid} .thumb[data-layer="0"][data-head="1"] span`)).replace('-', '\\-')} of its weight`), 'the thumbnail\'s number is the caption\'s');
      await page.waitForFunction(() => /[?&]layer=0(&|$)/.test(location.hash) && /[?&]head=1(&|$)/.test(location.hash), null, { timeout: 10_000 });

      // "Write on" streams text into all three columns, and Stop stops it.
      await page.click('#write-on');
      await page.waitForFunction(() => [...document.querySelectorAll('.written')].every((p) => p.textContent.length >= 6), null, { timeout: 60_000 });
      await page.click('#write-on');
      await page.waitForFunction(() => document.querySelector('#write-on').getAttribute('aria-pressed') === 'false');
      const stopped = await page.evaluate(() => [...document.querySelectorAll('.written')].map((p) => p.textContent).join('|'));
      await page.waitForTimeout(600);
      assert.equal(await page.evaluate(() => [...document.querySelectorAll('.written')].map((p) => p.textContent).join('|')), stopped, 'nothing written after Stop');

      // The link restores the typed text.
      const linked = await b.open(new URL(page.url()).hash);
      await ready(linked);
      assert.equal(await linked.inputValue('#text-input'), await page.inputValue('#text-input'));
      assert.equal(await top(linked, 'diff_v2'), await top(page, 'diff_v2'));

      // A pasted 10 000 characters keeps its end and says so; 中文 and an emoji are
      // shown as unknown; an empty box asks for text. No console error at any point.
      await page.fill('#text-input', 'To be, or not to be: that is the question. '.repeat(233).slice(0, 10_000));
      // Past 128 characters the window moves on 32 at a time: 10 000 = 9 888 + 112.
      await page.waitForFunction(() => /Only the last 112 characters are read; 9888 before them/.test(document.querySelector('#text-notices').textContent));
      await ready(page);
      assert.equal(await page.locator('#strip-diff_v1 .ch').count(), 112);
      // A keystroke at the end keeps the window's start: one more character read.
      const lastBefore = await page.evaluate(() => [...document.querySelectorAll('#strip-diff_v2 .ch')].at(-1).dataset.loss);
      await page.focus('#text-input');
      await page.keyboard.press('Control+End');
      await page.keyboard.type('x');
      await page.waitForFunction(() => /Only the last 113 characters are read; 9888 before them/.test(document.querySelector('#text-notices').textContent));
      await ready(page);
      assert.equal(await page.locator('#strip-diff_v1 .ch').count(), 113);
      assert.notEqual(await page.evaluate(() => [...document.querySelectorAll('#strip-diff_v2 .ch')].at(-1).dataset.loss), lastBefore, 'the new character has its own surprise');
      await page.fill('#text-input', 'Hail, 中文 😀 friend');
      await page.waitForFunction(() => document.querySelector('#text-notices').textContent.includes('中文😀'));
      await ready(page);
      assert.ok(await page.locator('#strip-baseline .ch.unknown').count() === 3, 'three unknown characters shown as □');
      await page.fill('#text-input', '');
      await page.waitForFunction(() => document.querySelector('#text-notices').textContent.includes('Type some text'));
      assert.equal(await page.locator('#strip-baseline .ch').count(), 0);
      assert.deepEqual(b.errors, [], 'no console errors');
    } finally {
      await b.stop();
    }
  });
}

test('text page: phone and Chinese', async () => {
  const b = await start('cpu', { phone: true });
  try {
    for (const lang of ['en', 'zh']) {
      const page = await b.open(`#/text?lang=${lang}`);
      await ready(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${lang}: the page fits the phone (${width} px)`);
      await page.screenshot({ path: artifact(`text-phone-${lang}.png`), fullPage: true });
    }
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.stop();
  }
});

// What the evaluation found, as the page shows it: the numbers on screen are eval.json's
// (every seed, the n-gram, each play), and the verdicts name each seed's difference.
test('text page: the held-out results with seeds, the n-gram and each play', async () => {
  const b = await start('cpu');
  try {
    const page = await b.open('#/text');
    await page.waitForSelector('#text-results tbody tr[data-kind="ngram"]', { timeout: 60_000 });
    const long = (await page.evaluate(() => fetch('text-models/eval.json').then((r) => r.json()))).long_context;
    const cells = (sel) => page.locator(sel).allTextContents();
    for (const [i, kind] of KINDS.entries()) {
      const row = await cells(`#text-results tr[data-kind="${kind}"] td`);
      const m = long.models[i];
      assert.ok(row[0].startsWith(m.mean.toFixed(3)), `${kind}: ${row[0]} is the mean over the seeds`);
      assert.equal(row[1], m.seed_losses.map((l) => l.toFixed(3)).join(' · '), `${kind}: each seed`);
      const v = long.versus.find((x) => x.model === kind);
      const sig = (x) => (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(4);
      if (v) assert.equal(row[5], `[${sig(v.data_low95)}, ${sig(v.data_high95)}]`, `${kind}: the text's interval alone`);
    }
    const ngram = await cells('#text-results tr[data-kind="ngram"] > *');
    assert.equal(ngram[0], `Kneser–Ney ${long.ngram.order}-gram`);
    assert.equal(ngram[1], long.ngram.loss.toFixed(3));
    assert.equal(await page.locator('#text-per-play tbody tr').count(), long.plays.length);
    const macbeth = long.plays.indexOf('macbeth');
    const row = await cells('#text-per-play tr[data-play="macbeth"] > *');
    assert.equal(row[0], 'Macbeth');
    assert.deepEqual(row.slice(1, 5), [...long.models.map((m) => m.per_play[macbeth]), long.ngram.per_play[macbeth]].map((x) => x.toFixed(3)));
    const verdict = await page.textContent('#text-verdict');
    for (const v of long.versus) {
      for (const d of v.seed_differences) assert.ok(verdict.includes((d >= 0 ? '+' : '−') + Math.abs(d).toFixed(4)), `the verdict names ${v.model}'s seed difference ${d}`);
    }
    assert.match(await page.textContent('#text-ngram'), new RegExp(`Kneser–Ney ${long.ngram.order}-gram`));
    await page.locator('#text-honest').screenshot({ path: artifact('text-results.png') });
    // The same in Chinese: the plays' names and the n-gram's.
    await page.evaluate(() => { location.hash = '#/text?lang=zh'; });
    await page.waitForFunction(() => document.querySelector('#text-per-play tr[data-play="macbeth"] th')?.textContent === '《麦克白》', null, { timeout: 30_000 });
    assert.match(await page.textContent('#text-results tr[data-kind="ngram"] th'), /元语法/);
    await page.locator('#text-honest').screenshot({ path: artifact('text-results-zh.png') });
    assert.deepEqual(b.errors, [], 'no console errors');
  } finally {
    await b.stop();
  }
});
