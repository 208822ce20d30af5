// Issue 12, used as a teacher and a student use the app: every check clicks, types,
// presses keys, drags, changes the hash or goes Back, and then looks at what is on the
// screen (the prompt text, the pixels, the predictions, the captions), not only at the
// link. One test per item of the issue; both modes: WebGPU (SwiftShader) and the CPU
// fallback. DIFFLENS_DIST=<an older build> runs them against that build.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, pixels, pixelsChange, text, textChanges, modelReady, labReady } from './harness.mjs';

/** Presses `key` on a focused control, as a keyboard user does. */
const press = async (page, sel, key, times = 1) => {
  await page.focus(sel);
  for (let k = 0; k < times; k++) await page.keyboard.press(key);
};
/** What a student sees of the explorer: the prompt, the maps, the predictions, the row chart. */
const modelScreen = async (page) => ({
  prompt: await text(page, '#prompt'),
  a1: await pixels(page, '#model-a1 canvas.map'),
  predictions: await text(page, '#predictions'),
  row: await pixels(page, '#chart-answer-row'),
  seed: await page.evaluate(() => document.querySelector('.model .buttons strong')?.textContent),
});
/** The needles' values, as shown: each needle is "KEY is VALUE ." in the highlighted tokens. */
const needleValues = (page) => page.$$eval('#prompt .tok.needle, #prompt .tok.answer', (els) => els.map((e) => e.textContent).filter((_, i) => i % 4 === 2));
const LAB = '#/lab?lambda=0.8&n=256&noise=1.5&signal=5&k=4&common=0.95&seed=1';

for (const mode of ['cpu', 'gpu']) {
  describe(`issue 12 in ${mode} mode`, () => {
    let b;
    before(async () => { b = await start(mode); });
    after(async () => {
      assert.deepEqual(b.errors, [], 'no console errors');
      await b.stop();
    });

    it('#1 the explorer\'s New prompt and every prompt control change the prompt, the maps and the row chart', async () => {
      const page = await b.open('#/model?view=single');
      await modelReady(page);
      let before = await modelScreen(page);
      await page.click('#new-prompt');
      await textChanges(page, '#prompt', before.prompt);
      let after = await modelScreen(page);
      assert.notEqual(after.seed, before.seed);
      assert.notEqual(after.a1, before.a1, 'the maps follow the new prompt');
      // (The predicted value may repeat by chance; the chart of the answering row cannot.)
      assert.notEqual(after.row, before.row, 'the row chart follows the new prompt');
      const controls = [
        ['needles', () => press(page, '#needles', 'ArrowRight')],
        ['queries', () => press(page, '#queries', 'ArrowRight')],
        ['depth', () => press(page, '#depth', 'ArrowLeft')],
        ['context', () => page.selectOption('#context', '128')],
      ];
      for (const [name, act] of controls) {
        before = await modelScreen(page);
        await act();
        await textChanges(page, '#prompt', before.prompt);
        after = await modelScreen(page);
        assert.notEqual(after.a1, before.a1, `${name}: the maps change`);
        assert.ok(after.predictions !== before.predictions || after.row !== before.row, `${name}: the predictions or the row chart change`);
      }
      assert.equal(await page.locator('#predictions li').count(), 2, 'two queries asked: two predictions');
      assert.equal(await page.locator('#prompt .tok.needle, #prompt .tok.answer').count(), 5 * 4, 'five needles');
      // Layer changes the maps, not the prompt.
      before = await modelScreen(page);
      await page.selectOption('#layer', '0');
      await pixelsChange(page, '#model-a1 canvas.map', before.a1);
      assert.equal(await text(page, '#prompt'), before.prompt);
      await page.screenshot({ path: artifact(`issue12-model-${mode}.png`), fullPage: true });
    });

    it('#2 a new lab link on the lab opens that state, and Back returns', async () => {
      const page = await b.open(LAB);
      await labReady(page);
      const first = await pixels(page, '#map-diff canvas.map');
      await page.evaluate(() => { location.hash = '#/lab?lambda=0.3&n=128&seed=5'; });
      await page.waitForFunction(() => document.querySelector('[data-testid="lambda-value"]')?.textContent === '0.30', null, { timeout: 10_000 });
      await page.waitForFunction(() => /^128 × 128 maps/.test(document.querySelector('#pooling-note')?.textContent), null, { timeout: 30_000 });
      await labReady(page);
      assert.equal(await text(page, '#seed-value'), '5');
      assert.notEqual(await pixels(page, '#map-diff canvas.map'), first);
      await page.goBack();
      await page.waitForFunction(() => /^256 × 256 maps/.test(document.querySelector('#pooling-note')?.textContent), null, { timeout: 30_000 });
      await labReady(page);
      assert.equal(await text(page, '[data-testid="lambda-value"]'), '0.80');
      assert.equal(await pixels(page, '#map-diff canvas.map'), first, 'Back shows the first maps again');
    });

    it('#2 a link followed while the lab\'s own link update is pending still opens', async () => {
      const page = await b.open(LAB);
      await labReady(page);
      // Move λ (the lab rewrites its link 120 ms later), keep the page busy past that
      // moment, then follow a link: the pending rewrite must not put the lab's link back.
      await page.evaluate(() => {
        const el = document.getElementById('lambda');
        el.value = '0.5';
        el.dispatchEvent(new Event('input', { bubbles: true }));
        const t = performance.now();
        while (performance.now() - t < 200) { /* a busy main thread */ }
        location.hash = '#/arch?layers=7';
      });
      await page.waitForFunction(() => document.querySelector('main h2')?.textContent === 'Architecture calculator', null, { timeout: 10_000 });
      assert.equal(await page.inputValue('#layers'), '7');
      assert.match(page.url(), /#\/arch\?.*layers=7/);
    });

    it('#2 a new explorer link on the explorer opens that model and prompt, and Back returns', async () => {
      const page = await b.open('#/model?model=diff_v1&seed=9&layer=2&head=0');
      await modelReady(page);
      const first = await modelScreen(page);
      await page.evaluate(() => { location.hash = '#/model?model=baseline&ckpt=4&n=2&r=1&ctx=64&depth=0&seed=77&layer=2&head=3'; });
      await textChanges(page, '#prompt', first.prompt);
      await modelReady(page);
      assert.equal(await page.locator('#model-a2').count(), 0, 'the baseline has no A2');
      assert.equal(await page.locator('#prompt .tok.needle, #prompt .tok.answer').count(), 8, 'two needles');
      await page.goBack();
      await page.waitForFunction((p) => document.querySelector('#prompt')?.textContent === p, first.prompt, { timeout: 15_000 });
      await modelReady(page);
      assert.equal(await page.locator('#model-a2').count(), 1, 'Back: DIFF V1 again, with its A2');
      assert.equal(await pixels(page, '#model-a1 canvas.map'), first.a1);
    });

    it('#3 a click or Enter on an explorer map plots that row', async () => {
      const page = await b.open('#/model?model=diff_v2&n=4&r=1&ctx=64&seed=3&layer=2&head=2');
      await modelReady(page);
      const caption = await text(page, 'figure:has(#chart-answer-row) figcaption');
      const chart = await pixels(page, '#chart-answer-row');
      const canvas = page.locator('#model-a1 canvas.map');
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      const t = await page.evaluate(() => document.querySelector('#model-a1 canvas.map').width);
      // Chromium reports whole CSS pixels: aim at the first whole pixel inside row 40.
      await page.mouse.click(Math.round(box.x + box.width * 0.5), Math.ceil(box.y + box.height * 40 / t + 1e-3));
      await pixelsChange(page, '#chart-answer-row', chart);
      assert.match(await text(page, 'figure:has(#chart-answer-row) figcaption'), /^Row 40 \(/);
      assert.notEqual(await text(page, 'figure:has(#chart-answer-row) figcaption'), caption);
      // The keyboard: the cursor starts at row 0 and moves T/64 rows per arrow press.
      await page.mouse.move(0, 0);
      await canvas.focus();
      await page.keyboard.press('ArrowDown');
      const picked = await pixels(page, '#chart-answer-row');
      await page.keyboard.press('Enter');
      await pixelsChange(page, '#chart-answer-row', picked);
      assert.match(await text(page, 'figure:has(#chart-answer-row) figcaption'), new RegExp(`^Row ${Math.max(1, Math.floor(t / 64))} \\(`));
      await page.click('#row-reset');
      await page.waitForFunction(() => /^The row of “→”/.test(document.querySelector('figure:has(#chart-answer-row) figcaption')?.textContent));
    });

    it('#4 notices go when the state they describe changes', async () => {
      const page = await b.open('#/model?model=diff_v1&layer=2&head=3');
      await modelReady(page);
      await page.waitForFunction(() => /head 3 do not exist/.test(document.querySelector('#link-notices')?.textContent), null, { timeout: 10_000 });
      await page.click('#new-prompt');
      await page.waitForFunction(() => !document.querySelector('#link-notices'), null, { timeout: 5000 });

      const lab = await b.open(LAB);
      await labReady(lab);
      await lab.click('#copy-link');
      await lab.waitForFunction(() => /(Link copied|copy it from here): .*n=256/.test(document.querySelector('#copied')?.textContent));
      await press(lab, '#n', 'ArrowRight', 8); // log2 N + 1: 512
      await lab.waitForFunction(() => document.querySelector('[data-testid="n-value"]')?.textContent === '512');
      await labReady(lab);
      assert.equal(await text(lab, '#copied'), '', 'the copied link no longer describes the page');
    });

    it('#5 while N computes the page says so, and the captions always belong to the maps on screen', async () => {
      const page = await b.open(LAB);
      await labReady(page);
      await page.evaluate(() => {
        window.__samples = [];
        const sample = () => {
          const maps = document.querySelector('.lab .maps');
          window.__samples.push({
            busy: document.querySelector('#busy-note')?.textContent || '',
            stale: maps.classList.contains('stale'),
            shownN: Number(maps.dataset.n),
            poolingN: Number((document.querySelector('#pooling-note').textContent.match(/^(\d+) ×/) || [])[1]),
            axisN: Number((document.querySelector('#map-a1 .axis-note').textContent.match(/… (\d+)\)/) || [])[1]) + 1,
            width: document.querySelector('#map-a1 canvas.map').width,
            noiseDrawn: document.querySelector('#chart-noise').dataset.drawn,
            noisePoints: Number(document.querySelector('#noise-progress').dataset.points),
          });
          if (!window.__stop) requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      });
      await press(page, '#n', 'ArrowRight', 24); // 256 · 2³ = 2048, through every step between
      await page.waitForFunction(() => /^2048 × 2048/.test(document.querySelector('#pooling-note')?.textContent) && document.querySelector('#compute-note')?.textContent.startsWith('Computed on') && !document.querySelector('#busy-note')?.textContent, null, { timeout: 60_000 });
      await page.waitForFunction(() => window.__samples.some((s) => s.poolingN === 2048 && s.width === 384));
      const samples = await page.evaluate(() => { window.__stop = true; return window.__samples; });
      const during = samples.filter((s) => s.busy);
      assert.ok(during.length > 0, 'a frame showed that the new maps were computing');
      assert.ok(during.every((s) => /N = \d+/.test(s.busy) && s.stale), `the busy note names the N being computed, and the old maps are dimmed: ${JSON.stringify(during[0])}`);
      assert.match(during[during.length - 1].busy, /N = 2048/, 'the last one computed is the N asked for');
      for (const s of samples) {
        assert.equal(s.poolingN, s.shownN, `the pooling caption belongs to the maps: ${JSON.stringify(s)}`);
        assert.equal(s.axisN, s.shownN, `the axes belong to the maps: ${JSON.stringify(s)}`);
        assert.equal(s.width, Math.min(s.shownN, 384), `the canvas holds the maps the caption names: ${JSON.stringify(s)}`);
        if (s.noisePoints === 0) assert.equal(s.noiseDrawn, 'false', `no old or empty-axis noise chart while it computes: ${JSON.stringify(s)}`);
      }
      assert.ok(samples.some((s) => s.noisePoints === 0), 'the noise chart restarted for N = 2048');
      assert.match(await text(page, '#pooling-note'), /^2048 × 2048 maps shown at 384 × 384/);
    });

    it('#6 the lab keeps its state through Lab → Model → Lab by the navigation', async () => {
      const page = await b.open(LAB);
      await labReady(page);
      const slider = await page.locator('#lambda').boundingBox();
      await page.mouse.click(slider.x + slider.width * 0.43, slider.y + slider.height / 2);
      await page.waitForFunction(() => document.querySelector('[data-testid="lambda-value"]')?.textContent !== '0.80');
      const dragged = { lambda: await text(page, '[data-testid="lambda-value"]'), diff: await pixels(page, '#map-diff canvas.map') };
      await page.click('nav.pages a:text("Model explorer")');
      await modelReady(page);
      await page.click('nav.pages a:text("Noise-floor lab")');
      await labReady(page);
      assert.equal(await text(page, '[data-testid="lambda-value"]'), dragged.lambda, 'λ survives Lab → Model → Lab');
      assert.equal(await pixels(page, '#map-diff canvas.map'), dragged.diff, 'the same difference map');
    });

    it('#10 developer material is folded away', async () => {
      const page = await b.open('#/model?view=single');
      await modelReady(page);
      assert.doesNotMatch(await text(page, '#model-status'), /test/);
      assert.equal(await page.locator('#model-dev').getAttribute('open'), null, 'the explorer\'s developer section starts closed');
      const lab = await b.open(LAB);
      await labReady(lab);
      assert.equal(await lab.locator('#lab-dev').getAttribute('open'), null, 'the lab\'s developer section starts closed');
      if (mode === 'gpu') {
        assert.equal(await lab.locator('#verify').isVisible(), false, 'Verify is not in the student view');
        await lab.click('#lab-dev summary');
        assert.equal(await lab.locator('#verify').isVisible(), true, 'one click opens it');
      }
    });

    it('#11 the explorer\'s prompts give every needle its own value', async () => {
      const page = await b.open('#/model?view=single');
      await modelReady(page);
      for (let k = 0; k < 6; k++) {
        const values = await needleValues(page);
        assert.equal(values.length, 4, 'four needles');
        assert.equal(new Set(values).size, values.length, `distinct needle values: ${values}`);
        const p = await text(page, '#prompt');
        await page.click('#new-prompt');
        await textChanges(page, '#prompt', p);
      }
    });

    it('#12 captions are true for the state on screen', async () => {
      const page = await b.open('#/model?model=diff_v1&n=4&r=1&seed=1&layer=0&head=0');
      await modelReady(page);
      const caption = await text(page, 'figure:has(#chart-answer-row) figcaption');
      assert.match(caption, /net weight of [+−]\d\.\d\d on the asked needle and [+−]\d\.\d\d on the rest/);
      assert.doesNotMatch(caption, /a good head/);
      await page.selectOption('#head', '1');
      await textChanges(page, 'figure:has(#chart-answer-row) figcaption', caption);
      assert.doesNotMatch(await text(page, 'label[for=needles]'), /\bN\b/, '"N" is the lab\'s sequence length, not the needles');
      const lab = await b.open('#/lab?n=16');
      await labReady(lab);
      assert.match(await text(lab, '#pooling-note'), /^16 × 16 maps/);
      assert.doesNotMatch(await text(lab, '#pooling-note'), /one pixel/, 'entries are drawn far larger than a pixel');
      assert.match(await text(lab, '.charts figure:last-child figcaption'), /can exceed 1/, 'the noise-mass caption explains a differential curve above 1');
    });
  });
}

describe('issue 12: CPU mode only (layout, typing, the badge)', () => {
  let b;
  before(async () => { b = await start('cpu'); });
  after(async () => {
    assert.deepEqual(b.errors, [], 'no console errors');
    await b.stop();
  });

  it('#7 the calculator\'s typed values and links follow one rule, with one message', async () => {
    const page = await b.open('#/arch');
    const type = async (id, value) => {
      await page.fill(`#${id}`, String(value));
      await page.press(`#${id}`, 'Tab');
    };
    const v1 = () => text(page, 'tr[data-variant="DIFF V1"] td:nth-child(3)');
    await type('heads', 31);
    await page.waitForFunction(() => /heads=31 must be even/.test(document.querySelector('main .notice')?.textContent), null, { timeout: 5000 });
    assert.equal(await page.inputValue('#heads'), '32');
    await type('kv_heads', 5);
    await page.waitForFunction(() => /kv_heads=5 must be even and divide heads \(32\)/.test(document.querySelector('main .notice')?.textContent));
    assert.equal(await page.inputValue('#kv_heads'), '4');
    const before = await v1();
    await type('heads', 99999999);
    await page.waitForFunction(() => /heads=99999999 is above 1000000; set to 1000000/.test(document.querySelector('main .notice')?.textContent));
    assert.equal(await page.inputValue('#heads'), '1000000');
    assert.notEqual(await v1(), before, 'the table follows the typed value');
    const linked = await b.open('#/arch?heads=99999999');
    assert.equal(await linked.inputValue('#heads'), '1000000', 'a link with the same value gives the same result');
    assert.match(await text(linked, 'main .notice'), /heads=99999999 is above 1000000; set to 1000000/, 'and the same message');
    await type('layers', 12);
    await page.waitForFunction(() => !document.querySelector('main .notice'), null, { timeout: 5000 });
    // The largest config the calculator allows is counted exactly, never wrapped (issue 18, item 6).
    const huge = await b.open('#/arch?hidden=1000000&heads=1000000&head_dim=1000000&kv_heads=1000000&layers=1000000&ffn=1000000&vocab=1000000');
    assert.equal(await text(huge, 'tr[data-variant="baseline"] td:nth-child(3)'), '4.00 × 10²⁴ (4,000,003,000,004,000,001,000,000)');
    assert.match(await text(huge, 'tr[data-variant="DIFF V1"] td:nth-child(4)'), /^\+6\.00 × 10¹² \(6,000,000,000,000\)$/);
  });

  it('#9 the CPU badge says it kindly, the reason one click away', async () => {
    const page = await b.open('#/lab');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.match(await text(page, '#backend-badge'), /^Running on your CPU: everything works, a little slower/);
    assert.doesNotMatch(await page.innerText('#backend-badge'), /adapter|requested/, 'no raw wgpu error in sight');
    assert.equal(await page.locator('#backend-reason').isVisible(), false, 'the browser\'s reason is folded');
    const height = (await page.locator('#backend-badge').boundingBox()).height;
    assert.ok(height <= 70, `the badge is ${height} px tall on a phone`);
    await page.click('#backend-badge summary');
    assert.ok((await text(page, '#backend-reason')).length > 10, 'the reason behind the click');
  });

  it('#13 at N = 4096 the slider\'s label and value stay apart', async () => {
    const page = await b.open('#/lab?n=256');
    await labReady(page);
    await press(page, '#n', 'End');
    await page.waitForFunction(() => document.querySelector('[data-testid="n-value"]')?.textContent === '4096');
    // Apart: side by side with a gap, or the value on a line of its own.
    const [l, v] = await page.evaluate(() => [...document.querySelectorAll('label[for=n] span')].map((e) => e.getBoundingClientRect().toJSON()));
    assert.ok(v.left - l.right >= 6 || v.top >= l.bottom, `label ${JSON.stringify(l)} and value ${JSON.stringify(v)} run together`);
  });

  it('#14 a focused map has a ring as clear as the other controls\'', async () => {
    const page = await b.open('#/lab?n=128');
    await labReady(page);
    await page.focus('#map-a1 canvas.map');
    const ring = await page.evaluate(() => { const s = getComputedStyle(document.querySelector('#map-a1 canvas.map')); return { width: parseFloat(s.outlineWidth), style: s.outlineStyle, shadow: s.boxShadow }; });
    assert.ok(ring.width >= 3 && ring.style === 'solid' && ring.shadow !== 'none', `focus ring: ${JSON.stringify(ring)}`);
  });

  it('#15 a phone: no sideways scrolling, and the tooltip scrolls with its map', async () => {
    const page = await b.open('#/arch');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the calculator is ${width} px wide on a 390 px phone`);
    await page.screenshot({ path: artifact('issue12-phone-arch.png'), fullPage: true });
    await page.click('nav.pages a:text("Noise-floor lab")');
    await labReady(page);
    const map = page.locator('#map-a1 canvas.map');
    await map.scrollIntoViewIfNeeded();
    const box = await map.boundingBox();
    // On the right of the map, where a tooltip could run off the screen.
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    await page.waitForSelector('#map-tooltip');
    const offset = () => page.evaluate(() => document.querySelector('#map-tooltip').getBoundingClientRect().top - document.querySelector('#map-a1 canvas.map').getBoundingClientRect().top);
    const [before, scrolled] = [await offset(), await page.evaluate(() => window.scrollY)];
    await page.mouse.wheel(0, 300);
    await page.waitForFunction((y) => window.scrollY > y + 100, scrolled);
    await page.waitForTimeout(100);
    if (await page.locator('#map-tooltip').count()) assert.ok(Math.abs(await offset() - before) < 1, 'the tooltip stays beside its cell, not over what scrolled under it');
    const tip = await page.evaluate(() => { const r = document.querySelector('#map-tooltip')?.getBoundingClientRect(); return r && { left: r.left, right: r.right }; });
    if (tip) assert.ok(tip.left >= 0 && tip.right <= 390, `the tooltip stays on the screen: ${JSON.stringify(tip)}`);
    const labWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(labWidth <= 390, `the lab is ${labWidth} px wide on a phone`);
    await page.screenshot({ path: artifact('issue12-phone-lab.png'), fullPage: true });
  });
});
