// Issue 14, as a student uses the explorer's compare view: open it and read three
// predictions, pick a head on a grid, quantise the attention logits, change the prompt,
// run 100 prompts (and cancel a run), sweep the depths. Every check looks at what is on
// screen (text, pixels, bars), in both modes: WebGPU (SwiftShader) and the CPU fallback.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, pixels, pixelsChange, KINDS, text, textChanges } from './harness.mjs';

/** The prompt on screen, as words. */
const promptWords = (page) => page.$$eval('#prompt .tok', (els) => els.map((e) => e.textContent).join(' '));
/** Every column shows its predictions and the status says where they were computed. */
const compareReady = (page) => page.waitForFunction((kinds) => document.querySelector('#model-status')?.dataset.status === 'ready' && kinds.every((k) => document.querySelectorAll(`#col-${k} .predictions li`).length > 0), KINDS, { timeout: 30_000 });
/** Runs done: the progress line says so. */
const runDone = (page, panel, timeout = 120_000) => page.waitForFunction((p) => /^Done/.test(document.querySelector(`${p} .run-progress`)?.textContent || ''), panel, { timeout });

for (const mode of ['cpu', 'gpu']) {
  describe(`the compare view in ${mode} mode`, () => {
    let b;
    before(async () => { b = await start(mode); });
    after(async () => {
      assert.deepEqual(b.errors, [], 'no console errors');
      await b.stop();
    });

    it('opens by default with three columns on one prompt, each on its best head', async () => {
      const page = await b.open('#/model');
      await compareReady(page);
      assert.equal(await page.getAttribute('#view-compare', 'aria-pressed'), 'true');
      for (const k of KINDS) {
        assert.match(await text(page, `#col-${k} .predictions`), /Query 1: predicts \d+ \(\d+%\), the answer is \d+ — (right|wrong)/);
        assert.match(await text(page, `#which-${k}`), /^Layer 2, head \d: the head with the most net weight on the asked needle/);
        // The default head is the grid's largest number in the chosen layer.
        const nets = await page.$$eval(`#grid-${k} .grid-row:nth-of-type(3) .thumb span`, (els) => els.map((e) => Number(e.textContent.replace('−', '-'))));
        const head = Number((await text(page, `#which-${k}`)).match(/head (\d)/)[1]);
        assert.equal(nets[head], Math.max(...nets), `${k}: head ${head} of ${nets}`);
      }
      assert.equal(await page.locator('#col-baseline #cmp-baseline-a2').count(), 0, 'the baseline has one map');
      // The DIFF V2 column finds the asked needle in the last layer (README, Table 3).
      assert.match(await text(page, '#net-diff_v2'), /net weight of \+0\.[5-9]\d on the asked needle/);
      const t = await page.evaluate(() => document.querySelector('#cmp-diff_v1-main canvas.map').width);
      assert.equal(t, 1 + 64 + 4, 'one pixel per token');
      console.log(`${mode}: ${await text(page, '#compare-timing')}`);
      await page.screenshot({ path: artifact(`compare-${mode}.png`), fullPage: true });
    });

    it('a click on a grid thumbnail shows that head, in the link too, and "Back" returns', async () => {
      const page = await b.open('#/model?view=compare&seed=4');
      await compareReady(page);
      const before = { which: await text(page, '#which-diff_v2'), map: await pixels(page, '#cmp-diff_v2-main canvas.map'), v1: await text(page, '#which-diff_v1') };
      await page.click('#grid-diff_v2 .grid-row:nth-of-type(1) .thumb:nth-of-type(1)');
      await textChanges(page, '#which-diff_v2', before.which);
      assert.equal(await text(page, '#which-diff_v2'), 'Layer 0, head 0: picked on the grid');
      await pixelsChange(page, '#cmp-diff_v2-main canvas.map', before.map);
      assert.match(await text(page, '#which-diff_v1'), /^Layer 0, head \d: the head with the most/, 'the layer is shared by the columns');
      assert.match(page.url(), /layer=0.*head_diff_v2=0/);
      assert.equal(await page.getAttribute('#grid-diff_v2 .grid-row:nth-of-type(1) .thumb:nth-of-type(1)', 'aria-pressed'), 'true');
      // Keyboard: Tab to another thumbnail and press Enter.
      await page.focus('#grid-diff_v2 .grid-row:nth-of-type(2) .thumb:nth-of-type(2)');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('#which-diff_v2').textContent === 'Layer 1, head 1: picked on the grid');
      await page.click('#grid-diff_v2 .grid-reset');
      await page.waitForFunction(() => /the head with the most/.test(document.querySelector('#which-diff_v2').textContent));
      assert.doesNotMatch(page.url(), /head_diff_v2/);
    });

    it('4-bit attention logits change the maps, the magnitudes and the link', async () => {
      const page = await b.open('#/model?view=compare&seed=2');
      await compareReady(page);
      const before = { table: await text(page, '#magnitude-table tbody'), map: await pixels(page, '#cmp-baseline-main canvas.map') };
      await page.selectOption('#bits', '4');
      await textChanges(page, '#magnitude-table tbody', before.table);
      await pixelsChange(page, '#cmp-baseline-main canvas.map', before.map);
      assert.match(page.url(), /bits=4/);
      assert.match(await text(page, '#accuracy-run .explain'), /attention logits at 4 bits/);
    });

    it('New prompt changes every column and the live Table 3', async () => {
      const page = await b.open('#/model?view=compare&seed=5');
      await compareReady(page);
      const before = { prompt: await text(page, '#prompt'), table: await text(page, '#net-table tbody'), maps: await Promise.all(KINDS.map((k) => pixels(page, `#cmp-${k}-main canvas.map`))) };
      await page.click('#new-prompt');
      await textChanges(page, '#prompt', before.prompt);
      await textChanges(page, '#net-table tbody', before.table);
      for (const [i, k] of KINDS.entries()) await pixelsChange(page, `#cmp-${k}-main canvas.map`, before.maps[i]);
      assert.match(await text(page, '#net-table tbody'), /all layers/);
    });

    it('Run 100 prompts fills three bars with their counts, the page staying responsive; Cancel stops a run', async () => {
      const page = await b.open('#/model?view=compare&n=4&r=1&ctx=256&seed=3');
      await compareReady(page);
      await page.evaluate(() => {
        window.__longest = 0;
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask' });
      });
      // The observer sees a task that blocks (so a 0 below means none did).
      await page.evaluate(() => { setTimeout(() => { const t = performance.now(); while (performance.now() - t < 120); }, 0); });
      await page.waitForFunction(() => window.__longest >= 100);
      await page.evaluate(() => { window.__longest = 0; });
      const t0 = Date.now();
      await page.click('#run-accuracy');
      await page.waitForFunction(() => /\d+ of 100 prompts…/.test(document.querySelector('#accuracy-run .run-progress')?.textContent || ''));
      await runDone(page, '#accuracy-run');
      const seconds = (Date.now() - t0) / 1000;
      const longest = await page.evaluate(() => window.__longest);
      console.log(`${mode}: 100 prompts × 3 models at context 256 in ${seconds.toFixed(1)} s; longest main-thread task ${longest.toFixed(0)} ms`);
      assert.ok(longest < 250, `the run held the main thread for ${longest} ms at once`);
      const bars = await page.$$eval('#accuracy-bars .bar-row', (rows) => rows.map((r) => ({ model: r.dataset.model, right: Number(r.dataset.right), asked: Number(r.dataset.asked), text: r.textContent })));
      assert.deepEqual(bars.map((r) => r.model), KINDS);
      for (const r of bars) {
        assert.equal(r.asked, 100, 'one query per prompt');
        assert.match(r.text, new RegExp(`${Math.round(100 * r.right / r.asked)}% \\(${r.right} of 100 queries\\)`));
      }
      assert.match(await text(page, '#accuracy-bars'), /For N = 4 needles, R = 1 queries, context 256 \(4× the training length\)/);
      await page.screenshot({ path: artifact(`compare-run-${mode}.png`), fullPage: true });
      // A second run, cancelled part-way: it stops and says where.
      await page.click('#run-accuracy');
      await page.click('#cancel-accuracy');
      await page.waitForFunction(() => /^Cancelled after \d+ of 100 prompts/.test(document.querySelector('#accuracy-run .run-progress')?.textContent || ''));
      assert.equal(await page.isEnabled('#run-accuracy'), true);
    });

    it('the depth sweep draws both charts', async () => {
      const page = await b.open('#/model?view=compare&seed=6');
      await compareReady(page);
      const blank = await pixels(page, '#chart-sweep-answer');
      await page.click('#run-sweep');
      await runDone(page, '#depth-sweep');
      await pixelsChange(page, '#chart-sweep-answer', blank);
      assert.match(await text(page, '#depth-sweep .run-progress'), /Done: 100 prompts/);
    });

    if (mode === 'cpu') {
      it('fits a phone: no sideways scrolling, columns stacked', async () => {
        const page = await b.open('#/model?view=compare');
        await page.setViewportSize({ width: 390, height: 844 });
        await compareReady(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
        const xs = await Promise.all(KINDS.map((k) => page.locator(`#col-${k}`).boundingBox()));
        assert.ok(xs[0].x === xs[1].x && xs[1].y > xs[0].y, 'columns stack');
        await page.screenshot({ path: artifact('compare-phone.png'), fullPage: true });
      });
    }
  });
}

describe('where the models run (issue 14, item 9)', () => {
  let gpu, cpu;
  before(async () => { [gpu, cpu] = await Promise.all([start('gpu'), start('cpu')]); });
  after(async () => {
    for (const b of [gpu, cpu]) assert.deepEqual(b.errors, [], 'no console errors');
    await Promise.all([gpu.stop(), cpu.stop()]);
  });
  const wheres = (page) => Promise.all(KINDS.map((k) => text(page, `#where-${k}`)));
  const predictions = (page) => Promise.all(KINDS.map((k) => text(page, `#col-${k} .predictions`)));
  const onWebGpu = (page) => page.waitForFunction((kinds) => kinds.every((k) => document.querySelector(`#where-${k}`)?.textContent.startsWith('Computed on WebGPU')), KINDS, { timeout: 60_000 });

  it('WebGPU: a software adapter leaves the columns on the CPU core; choosing WebGPU runs them there with the same answers; 4 bits returns to the CPU', async () => {
    const page = await gpu.open('#/model?view=compare&seed=3&layer=1');
    await compareReady(page);
    // The columns may be made while the browser is still asked for its adapter (and say
    // so); once it has named a software one they say why they stay on the CPU core.
    await page.waitForFunction((kinds) => kinds.every((k) => /^Computed on the CPU core \(WebAssembly[^)]*\): the WebGPU adapter \(.*swiftshader.*\) is a software renderer/i.test(document.querySelector(`#where-${k}`)?.textContent)), KINDS, { timeout: 30_000 });
    // The adapter's answer changed only the reason: the line still tells of the passes made.
    assert.match(await text(page, '#compare-timing'), /^Last update: 3 forward passes with every map kept, \d+ ms on the CPU core/);
    const onCpu = { predictions: await predictions(page), net: await text(page, '#net-diff_v2'), table: await text(page, '#net-table tbody'), v1map: await pixels(page, '#cmp-diff_v1-main canvas.map') };
    await page.selectOption('#compute-on', 'gpu');
    await onWebGpu(page);
    assert.match(page.url(), /on=gpu/);
    const gpuLink = page.url();
    assert.match(await text(page, '#compare-timing'), /Last update: 3 forward passes with every map kept, \d+ ms on WebGPU\./);
    assert.deepEqual(await predictions(page), onCpu.predictions, 'the GPU gives the CPU core\'s answers');
    assert.equal(await text(page, '#net-diff_v2'), onCpu.net);
    assert.equal(await text(page, '#net-table tbody'), onCpu.table, 'Table 3 live, to two decimals, is the same');
    // A λ step on WebGPU repaints V1's column from the GPU's maps.
    await page.click('#lambda-panel-diff_v1 summary');
    await page.evaluate(() => { const el = document.getElementById('v1-lambda-1'); el.value = '3'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    await pixelsChange(page, '#cmp-diff_v1-main canvas.map', onCpu.v1map);
    await page.waitForFunction(() => /λ of layer 1 = 3\.00/.test(document.querySelector('#lambda-diff_v1').textContent));
    assert.match(await text(page, '#where-diff_v1'), /^Computed on WebGPU/);
    // Quantised logits are the CPU core's alone: the columns say so.
    await page.selectOption('#bits', '4');
    await page.waitForFunction(() => /4-bit attention logits are computed on the CPU core only/.test(document.querySelector('#where-diff_v2').textContent), null, { timeout: 30_000 });
    await page.selectOption('#bits', '32');
    await onWebGpu(page);
    await page.selectOption('#compute-on', 'cpu');
    await page.waitForFunction(() => /^Computed on the CPU core \(WebAssembly[^)]*\): you chose the CPU core\.$/.test(document.querySelector('#where-baseline').textContent));
    assert.doesNotMatch(await text(page, '#compare-timing'), /WebGPU/);
    // The link that asked for WebGPU opens on WebGPU.
    const again = await gpu.open(`#${gpuLink.split('#')[1]}`);
    await onWebGpu(again);
  });

  it('WebGPU: the one-model view runs on WebGPU too when asked, and says so', async () => {
    const page = await gpu.open('#/model?view=single&model=diff_v1&on=gpu');
    await page.waitForFunction(() => document.querySelector('#where-single')?.textContent.startsWith('Computed on WebGPU') && document.querySelectorAll('#predictions li').length > 0, null, { timeout: 60_000 });
    assert.match(await text(page, '#predictions'), /Query 1: predicts \d+/);
  });

  it('CPU fallback: WebGPU cannot be chosen, and a link asking for it computes on the CPU core and says why', async () => {
    const page = await cpu.open('#/model?view=compare&on=gpu');
    await compareReady(page);
    for (const w of await wheres(page)) assert.equal(w, 'Computed on the CPU core (WebAssembly): this browser has no WebGPU.');
    assert.equal(await page.locator('#compute-on option[value=gpu]').isDisabled(), true);
    assert.match(await text(page, '#compute-on option[value=gpu]'), /not available in this browser/);
  });
});

describe('λ set by the reader, in the compare view (CPU mode)', () => {
  let b;
  before(async () => { b = await start('cpu'); });
  after(async () => {
    assert.deepEqual(b.errors, [], 'no console errors');
    await b.stop();
  });

  it('moving DIFF V1\'s λ of layer 1 changes its prediction and maps, not the other columns; λ = 0 and Back work', async () => {
    const page = await b.open('#/model?view=compare&seed=1&layer=1');
    await compareReady(page);
    const before = { v1: await text(page, '#col-diff_v1 .predictions'), v2: await text(page, '#col-diff_v2 .predictions'), map: await pixels(page, '#cmp-diff_v1-main canvas.map'), v2map: await pixels(page, '#cmp-diff_v2-main canvas.map'), grid: await text(page, '#grid-diff_v1'), v2grid: await text(page, '#grid-diff_v2'), table: await text(page, '#net-table tbody'), magnitudes: await text(page, '#magnitude-table tbody') };
    await page.click('#lambda-panel-diff_v1 summary');
    assert.match(await text(page, 'label[for=v1-lambda-0]'), /−?\d\.\d\d \(learnt\)/);
    // A keyboard user: focus the slider of layer 1 and hold the right arrow.
    await page.focus('#v1-lambda-1');
    for (let k = 0; k < 150; k++) await page.keyboard.press('PageUp');
    await page.waitForFunction(() => /3\.00 \(learnt/.test(document.querySelector('label[for=v1-lambda-1]').textContent));
    await textChanges(page, '#col-diff_v1 .predictions', before.v1);
    await pixelsChange(page, '#cmp-diff_v1-main canvas.map', before.map);
    assert.match(await text(page, '#lambda-diff_v1'), /^λ of layer 1 = 3\.00, set by you/, 'the caption says whose λ it is');
    // The head grid's net weights and Tables 3 and 5 follow a frame after the maps.
    await textChanges(page, '#grid-diff_v1', before.grid);
    await textChanges(page, '#net-table tbody', before.table);
    await textChanges(page, '#magnitude-table tbody', before.magnitudes);
    assert.equal(await text(page, '#grid-diff_v2'), before.v2grid);
    assert.equal(await text(page, '#col-diff_v2 .predictions'), before.v2, 'the other models are untouched');
    assert.equal(await pixels(page, '#cmp-diff_v2-main canvas.map'), before.v2map);
    // The link follows a λ drag once it settles (120 ms), as the lab's does.
    await page.waitForFunction(() => /v1_lambda=%2C3/.test(location.hash));
    assert.match(page.url(), /v1_lambda=%2C3/);
    assert.match(await text(page, '#lambda-panel-diff_v1 summary'), /changed/);
    assert.match(await text(page, '#accuracy-run .explain'), /your λ for DIFF Transformer V1\)/, 'the runs use the λ on screen, and say so');
    // How long one λ step takes to recompute (the model that changed only).
    const ms = [];
    for (const v of ['2.5', '2', '1.5', '1', '0.5', '0.25', '0', '-0.5', '-1']) {
      const version = await page.getAttribute('#compare-timing', 'data-version');
      await page.evaluate((v) => { const el = document.getElementById('v1-lambda-1'); el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); }, v);
      await page.waitForFunction((v) => document.querySelector('#compare-timing').dataset.version !== v, version);
      const m = (await text(page, '#compare-timing')).match(/Last update: 1 forward pass with every map kept, (\d+) ms/);
      if (m) ms.push(Number(m[1]));
    }
    ms.sort((a, b) => a - b);
    console.log(`cpu: a λ step reruns one model in ${ms[ms.length >> 1]} ms (median of ${ms.length}: ${ms})`);
    assert.match(await text(page, '#lambda-diff_v1'), /^λ of layer 1 = −1\.00, set by you: negative, so A1 − λ·A2 adds the second map/);
    await page.click('#v1-lambda-learnt');
    await page.waitForFunction((v) => document.querySelector('#col-diff_v1 .predictions').textContent === v, before.v1);
    assert.match(await text(page, '#lambda-diff_v1'), /^λ of layer 1 = −?\d\.\d\d, learnt/);
    await page.waitForFunction(() => !/v1_lambda/.test(location.hash));
    assert.doesNotMatch(page.url(), /v1_lambda/);
  });

  it('DIFF V2 at λ = 0 shows A1 as its difference map, and the norm switch reruns V1', async () => {
    const page = await b.open('#/model?view=compare&seed=2');
    await compareReady(page);
    await page.click('#lambda-panel-diff_v2 summary');
    const before = await pixels(page, '#cmp-diff_v2-main canvas.map');
    await page.click('#v2-lambda-zero');
    await pixelsChange(page, '#cmp-diff_v2-main canvas.map', before);
    assert.match(await text(page, '#lambda-diff_v2'), /^λ of layer \d pinned by you to 0\.00 for every token and head: A1 − λ·A2 is A1 alone/);
    assert.match(await text(page, '#v2-lambda-now'), /pinned to 0\.00/);
    // With λ = 0 the map that multiplies V is A1: every cell's tooltip says so.
    await page.locator('#cmp-diff_v2-main canvas.map').scrollIntoViewIfNeeded();
    const box = await page.locator('#cmp-diff_v2-main canvas.map').boundingBox();
    await page.mouse.move(box.x + box.width * 0.97, box.y + box.height * 0.99);
    const tip = await page.locator('#col-diff_v2 .tooltip').textContent();
    const [a1, diff] = [tip.match(/A1 = (\S+)/)[1], tip.match(/A1 − λ·A2 = (\S+)/)[1]];
    assert.equal(diff, a1, tip);
    await page.click('#lambda-panel-diff_v1 summary');
    const version = await page.getAttribute('#compare-timing', 'data-version');
    await page.uncheck('#v1-norm');
    await page.waitForFunction((v) => document.querySelector('#compare-timing').dataset.version !== v, version);
    assert.match(page.url(), /v1_norm=off/);
    assert.match(await text(page, '#compare-timing'), /Last update: 1 forward pass/, 'V1 alone ran again, without its norm');
  });
});

describe('your own prompt (CPU mode)', () => {
  let b;
  before(async () => { b = await start('cpu'); });
  after(async () => {
    assert.deepEqual(b.errors, [], 'no console errors');
    await b.stop();
  });

  it('a typed prompt runs through all three models and stays in the link; an unknown word is named, never dropped', async () => {
    const page = await b.open('#/model?view=compare&seed=8');
    await compareReady(page);
    const before = await text(page, '#prompt');
    await page.click('#prompt-editor summary');
    await page.waitForFunction(() => document.querySelector('#prompt-text').value !== '');
    assert.match(await page.inputValue('#prompt-text'), /^<bos> .* → \d\d$/, 'the editor starts from the prompt on screen');
    await page.fill('#prompt-text', 'sun Bern is 15 . rose Lima is 22 . hills Paris ? Lima →');
    await page.click('#prompt-use');
    await page.waitForSelector('#prompt-error:not([hidden])');
    assert.match(await text(page, '#prompt-error'), /“Paris” \(word 12\)/);
    assert.equal(await text(page, '#prompt'), before, 'nothing ran');
    await page.fill('#prompt-text', 'sun Bern is 15 . rose Lima is 22 . hills ? Lima →');
    await page.click('#prompt-use');
    await textChanges(page, '#prompt', before);
    assert.equal((await promptWords(page)), '<bos> sun Bern is 15 . rose Lima is 22 . hills ? Lima →');
    for (const k of KINDS) assert.match(await text(page, `#col-${k} .predictions`), /the answer is 22/);
    assert.match(page.url(), /prompt=/);
    assert.match(await text(page, '#prompt-editor summary'), /Your own prompt is in use/);
    // The link brings it back on reload.
    const again = await b.open(page.url().replace(/^.*#/, '#'));
    await compareReady(again);
    assert.equal((await promptWords(again)), '<bos> sun Bern is 15 . rose Lima is 22 . hills ? Lima →');
    const typed = await text(page, '#prompt');
    await page.click('#prompt-generated');
    await textChanges(page, '#prompt', typed);
    assert.doesNotMatch(page.url(), /prompt=/);
  });

  it('a clicked word is replaced from the vocabulary: a new value becomes the new answer; a key that breaks the query is refused', async () => {
    await replaceAWord(b, 'cpu');
  });

  it('the maps label their tokens, highlight the hovered one, and follow an edit', async () => {
    await labelsFollowThePrompt(b);
  });

  it('a needle moves to another depth, a needle is added, asked about and its query removed, all by clicks; a needed needle is kept', async () => {
    await editNeedlesByClicks(b);
  });
});

/** Item 7 by clicks: move the asked needle to the start, add a needle, ask about it (a
 *  second prediction in every column), remove that query; removing the asked needle is
 *  refused with the reason and the prompt stays. */
async function editNeedlesByClicks(b) {
  const start = '<bos> sun Bern is 15 . rose hills Lima is 22 . river ran ? Lima →';
  const page = await b.open('#/model?view=compare&prompt=' + encodeURIComponent(start));
  await compareReady(page);
  const map = await pixels(page, '#cmp-diff_v2-main canvas.map');
  await page.click('#prompt .tok.answer >> nth=0');
  assert.match(await text(page, 'label[for=needle-depth]'), /^Move “Lima is 22 \.” \(now \d+% deep\) to/);
  await page.selectOption('#needle-depth', '0');
  await page.waitForFunction(() => /^<bos> Lima is 22 \. sun Bern/.test([...document.querySelectorAll('#prompt .tok')].map((e) => e.textContent).join(' ')));
  await pixelsChange(page, '#cmp-diff_v2-main canvas.map', map);
  assert.match(decodeURIComponent(page.url()), /prompt=<bos> Lima is 22 \. sun Bern is 15/);
  // Add a needle at the end: a fresh key and value, marked as a needle.
  const needles = await page.locator('#prompt .tok.needle').count();
  await page.selectOption('#add-depth', '100');
  await page.click('#needle-add');
  await page.waitForFunction((n) => document.querySelectorAll('#prompt .tok.needle').length === n + 4, needles);
  const added = await page.$$eval('#prompt .tok.needle', (els) => els.slice(-4).map((e) => e.textContent).join(' '));
  assert.match(added, /^\S+ is \d\d \.$/);
  // Ask about the new needle: every column predicts two queries.
  await page.click('#prompt .tok.needle >> nth=-1');
  await page.click('#needle-ask');
  await page.waitForFunction((kinds) => kinds.every((k) => document.querySelectorAll(`#col-${k} .predictions li`).length === 2), KINDS);
  assert.match(await text(page, '#col-diff_v2 .predictions'), new RegExp(`Query 2: predicts \\d+ \\(\\d+%\\), the answer is ${added.split(' ')[2]}`));
  // Remove that query again.
  await page.click('#prompt .tok.query >> nth=-1');
  await page.click('#query-remove');
  await page.waitForFunction((kinds) => kinds.every((k) => document.querySelectorAll(`#col-${k} .predictions li`).length === 1), KINDS);
  // The asked needle cannot go while a query needs it.
  const words = await promptWords(page);
  await page.click('#prompt .tok.answer >> nth=0');
  await page.click('#needle-remove');
  assert.match(await text(page, '#token-error'), /a query asks for “Lima is 22 \.”: remove that query first/);
  assert.equal(await promptWords(page), words, 'nothing changed');
  await page.screenshot({ path: artifact('compare-edit-needles.png') });
}

describe('click a word (WebGPU mode)', () => {
  let b;
  before(async () => { b = await start('gpu'); });
  after(async () => {
    assert.deepEqual(b.errors, [], 'no console errors');
    await b.stop();
  });
  it('replaces a word with the keyboard', async () => { await replaceAWord(b, 'gpu'); });
  it('labels the tokens on the maps', async () => { await labelsFollowThePrompt(b); });
});

/** What a label strip shows: painted pixels, and those in the hover highlight's orange. */
const strip = (page, sel) => page.$eval(sel, (c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let painted = 0, orange = 0, h = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] > 0) painted++;
    if (d[i] === 240 && d[i + 1] === 165 && d[i + 2] === 0) orange++;
    h = (h * 31 + d[i + 3]) >>> 0;
  }
  return { painted, orange, h };
});

/** Opens a 14-token prompt: both axes of the large maps carry labels (text pixels), the
 *  hovered query's label lights up, a replaced word repaints the labels; a 300-token
 *  prompt has none (the tooltip names the tokens there). */
async function labelsFollowThePrompt(b) {
  const page = await b.open('#/model?view=compare&prompt=' + encodeURIComponent('<bos> sun Bern is 15 . rose Lima is 22 . hills ? Lima →'));
  await compareReady(page);
  const keys = '#cmp-diff_v2-main .labels.keys canvas', queries = '#cmp-diff_v2-main .labels.queries canvas';
  await page.waitForFunction((sel) => document.querySelector(sel)?.width > 0, keys);
  const [k0, q0] = [await strip(page, keys), await strip(page, queries)];
  assert.ok(k0.painted > 500 && q0.painted > 500, `both strips show text: ${JSON.stringify([k0, q0])}`);
  assert.equal(q0.orange, 0, 'nothing is highlighted before the pointer comes');
  await page.locator('#cmp-diff_v2-main canvas.map').scrollIntoViewIfNeeded();
  const box = await page.locator('#cmp-diff_v2-main canvas.map').boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.75);
  await page.waitForFunction((sel) => { const c = document.querySelector(sel); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; for (let i = 0; i < d.length; i += 4) if (d[i] === 240 && d[i + 1] === 165 && d[i + 2] === 0) return true; return false; }, queries);
  await page.mouse.move(0, 0);
  await page.click('#prompt button[data-pos="2"]');
  await page.fill('#token-word', 'Accra');
  await page.click('#token-apply');
  await page.waitForFunction(({ sel, h }) => { const c = document.querySelector(sel); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let x = 0; for (let i = 0; i < d.length; i += 4) x = (x * 31 + d[i + 3]) >>> 0; return x !== h; }, { sel: keys, h: k0.h });
  const long = await b.open('#/model?view=compare&ctx=256');
  await compareReady(long);
  assert.equal(await long.locator('#cmp-diff_v2-main .labels').count(), 0, 'no labels beyond 128 tokens');
}

/** Clicks the asked needle's value, types another, presses Enter; then tries a bad key. */
async function replaceAWord(b, mode) {
  const page = await b.open('#/model?view=compare&prompt=' + encodeURIComponent('<bos> sun Bern is 15 . rose Lima is 22 . hills ? Lima →'));
  await compareReady(page);
  for (const k of KINDS) assert.match(await text(page, `#col-${k} .predictions`), /the answer is 22/);
  // The asked needle "Lima is 22 ." is positions 7–10: its value is position 9.
  const value = page.locator('#prompt button[data-pos="9"]');
  assert.equal(await value.textContent(), '22');
  if (mode === 'cpu') await value.click(); else { await value.focus(); await page.keyboard.press('Enter'); }
  await page.waitForSelector('#token-editor');
  assert.match(await text(page, '#token-editor label'), /Replace “22” \(position 9\) with/);
  assert.ok(await page.locator('#vocab-words option[value="31"]').count() === 1, 'the list offers the vocabulary');
  await page.fill('#token-word', '31');
  const before = await text(page, '#prompt');
  await page.press('#token-word', 'Enter');
  await textChanges(page, '#prompt', before);
  assert.equal(await promptWords(page), '<bos> sun Bern is 15 . rose Lima is 31 . hills ? Lima →');
  await page.waitForFunction((kinds) => kinds.every((k) => /the answer is 31/.test(document.querySelector(`#col-${k} .predictions`)?.textContent || '')), KINDS);
  assert.match(decodeURIComponent(page.url()), /Lima is 31/, 'the edited prompt is in the link');
  assert.equal(await page.locator('#token-editor').count(), 0, 'the editor closed');
  // Renaming the asked key leaves the query without a needle: refused, and nothing runs.
  await page.click('#prompt button[data-pos="7"]');
  await page.fill('#token-word', 'Oslo');
  await page.click('#token-apply');
  await page.waitForSelector('#token-error');
  assert.match(await text(page, '#token-error'), /asks for Lima but no needle/);
  assert.equal(await promptWords(page), '<bos> sun Bern is 15 . rose Lima is 31 . hills ? Lima →');
  await page.press('#token-word', 'Escape');
  await page.waitForSelector('#token-editor', { state: 'detached' });
}
