// Two languages, as a reader meets them: a Chinese browser opens the Chinese page; the
// header's choice switches the page, keeps the step and the slider where they were and
// goes into the link; Back, the navigation and a reload keep it. The Chinese lesson
// reads as Chinese (CJK characters are at least 60% of the letters on screen). Both modes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact, text, lessonSteps } from './harness.mjs';

/** The share of CJK characters among the letters of the visible text (`sel`), leaving
 * out the prompt's words: the trained models' vocabulary is English words, which no
 * translation of the page changes. */
const cjkShare = (page, sel = 'body') => page.evaluate((sel) => {
  const hidden = [...document.querySelectorAll('.prompt-text, .panel.prompt, .vocab')];
  for (const el of hidden) el.style.display = 'none';
  const text = document.querySelector(sel).innerText;
  for (const el of hidden) el.style.display = '';
  const cjk = (text.match(/[\u4e00-\u9fff]/g) || []).length;
  const latin = (text.match(/[A-Za-z]/g) || []).length;
  return cjk / Math.max(1, cjk + latin);
}, sel);
/** The lesson's figure has its sentence (the figure was computed). */
const factsShown = (page) => page.waitForFunction(() => document.querySelector('#figure-facts')?.textContent.trim().length > 0, null, { timeout: 60_000 });

for (const mode of ['gpu', 'cpu']) {
  describe(`languages (${mode} mode)`, () => {
    let b;
    before(async () => { b = await start(mode); });
    after(async () => {
      assert.deepEqual(b.errors, [], 'no console errors');
      await b.stop();
    });

    it('the header switches the lesson to Chinese and back, keeping the step and the slider', async () => {
      const page = await b.open('#/learn?step=1');
      await factsShown(page);
      assert.equal(await text(page, '#step-title'), 'Softmax never gives exactly zero');
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      // Move the noise slider, go to the next step and back: the state to keep.
      await page.focus('#noise');
      for (let k = 0; k < 8; k++) await page.keyboard.press('ArrowRight');
      const sigma = await text(page, '[data-testid=noise-value]');
      await page.selectOption('#lang-select', 'zh');
      await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'Softmax 永远给不出恰好为零的权重');
      await factsShown(page);
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
      assert.match(page.url(), /lang=zh/);
      assert.equal(await text(page, '[data-testid=noise-value]'), sigma, 'the slider stayed where the reader left it');
      assert.match(await text(page, '#figure-facts'), /在查询 0 这一行中，最小的权重是 .+：很小，但不是零。/);
      assert.match(await text(page, 'label[for=noise]'), /噪声幅度 σ/);
      assert.match(await text(page, 'nav.pages'), /课程.*噪声底实验室.*模型探索器/);
      const share = await cjkShare(page);
      assert.ok(share >= 0.6, `CJK share of the letters on screen ${share.toFixed(2)} ≥ 0.60`);
      if (mode === 'cpu') await page.screenshot({ path: artifact('lesson-zh.png'), fullPage: true });
      // A glossary term opens its Chinese definition.
      await page.click('button.term[data-term="softmax"]');
      assert.match(await text(page, '.definition'), /全部为正、加起来等于 1/);
      // The slider still drives the Chinese sentence.
      const said = await text(page, '#figure-facts');
      await page.focus('#noise');
      for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
      await page.waitForFunction((s) => document.querySelector('#figure-facts').textContent !== s, said);
      assert.match(await text(page, '#figure-facts'), /噪声键合起来占这一行权重的/);
      // Every step reads as Chinese, the trained models' steps included.
      await page.click('#step-title');
      for (let step = 2; step <= lessonSteps(); step++) {
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction((k) => document.querySelector('#lesson-step')?.dataset.step === String(k), step);
        await factsShown(page);
        const s = await cjkShare(page);
        assert.ok(s >= 0.6, `step ${step}: CJK share ${s.toFixed(2)} ≥ 0.60`);
        const prose = await page.evaluate(() => [...document.querySelectorAll('#step-title, .lesson-text, #figure-facts')].map((el) => el.textContent).join(' '));
        assert.doesNotMatch(prose, /\b(the|and|of|with)\b/, `step ${step}: no English sentence in the step's text`);
      }
      assert.match(await text(page, '#figure-facts'), /在这句台词上，最后一个字符那一行/);
      await page.keyboard.press('PageUp');
      await page.waitForFunction(() => document.querySelector('#lesson-step')?.dataset.step === '9');
      await factsShown(page);
      assert.match(await text(page, '#figure-facts'), /在这个提示词上，对所有头取平均/);
      // The navigation keeps the language: the lab's link carries it.
      assert.match(await page.getAttribute('nav.pages a[data-page=lab]', 'href'), /lang=zh/);
      // Back to English from the header.
      await page.selectOption('#lang-select', 'en');
      await page.waitForFunction(() => /What the paper measured/.test(document.querySelector('#step-title')?.textContent));
      assert.equal(await page.getAttribute('#lesson-step', 'data-step'), '9', 'the step stayed');
      assert.match(page.url(), /lang=en/);
      assert.ok(await cjkShare(page) < 0.05, 'the English page has no Chinese left');
    });

    it('the lab, the explorer and the calculator read as Chinese too', async () => {
      const pages = [
        ['#/lab?lang=zh&n=128', () => document.querySelector('#snr-standard')?.dataset.value && document.querySelector('#noise-progress')?.dataset.points > 0, /噪声底实验室/],
        ['#/model?lang=zh', () => document.querySelector('#model-status')?.textContent.startsWith('已算完') && document.querySelectorAll('.predictions li').length === 3, /模型探索器/],
        ['#/model?lang=zh&view=single', () => document.querySelector('#model-status')?.textContent.startsWith('已算完') && document.querySelectorAll('#predictions li').length > 0, /模型探索器/],
        ['#/arch?lang=zh', () => document.querySelectorAll('#arch-table tbody tr').length === 3, /架构计算器/],
      ];
      for (const [hash, ready, title] of pages) {
        const page = await b.open(hash);
        await page.waitForFunction(ready, null, { timeout: 60_000 });
        assert.match(await text(page, 'main h2'), title, hash);
        const share = await cjkShare(page);
        assert.ok(share >= 0.6, `${hash}: CJK share ${share.toFixed(2)} ≥ 0.60`);
        if (mode === 'cpu') await page.screenshot({ path: artifact(`zh-${hash.split('?')[0].slice(2)}-${hash.includes('single') ? 'single' : 'main'}.png`), fullPage: true });
        await page.close();
      }
    });

    it('a link with lang=zh opens in Chinese, and a reload keeps it', async () => {
      const page = await b.open('#/learn?step=4&lang=zh');
      await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === '相减：A1 − λ·A2');
      await factsShown(page);
      assert.match(await text(page, '#figure-facts'), /λ = .+ 时，A1 − λ·A2 的第一行加起来是/);
      await page.reload();
      await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === '相减：A1 − λ·A2');
      assert.equal(await page.inputValue('#lang-select'), 'zh');
    });
  });
}

describe('languages: what the reader loaded from disk stays (CPU mode)', () => {
  let b;
  before(async () => { b = await start('cpu'); });
  after(async () => {
    assert.deepEqual(b.errors, [], 'no console errors');
    await b.stop();
  });

  it('a switch of language keeps your own model and a layer file on screen', async () => {
    const models = new URL('../../www/models/', import.meta.url).pathname;
    const page = await b.open('#/model?view=single&model=baseline');
    await page.waitForFunction(() => document.querySelector('#model-status')?.dataset.status === 'ready', null, { timeout: 30_000 });
    await page.click('#own-model summary');
    await page.setInputFiles('#own-files', [`${models}diff_v1/config.json`, `${models}diff_v1/step-03200.safetensors`]);
    await page.waitForSelector('#model-a2');
    await page.click('#own-layer summary');
    await page.setInputFiles('#layer-file', `${models}diff_v1/step-03200.safetensors`);
    await page.waitForFunction(() => /^Opened layers\.0\.attn/.test(document.querySelector('#layer-message')?.textContent ?? ''));
    await page.selectOption('#layer-prefix', 'layers.2.attn');
    await page.waitForFunction(() => /^Opened layers\.2\.attn/.test(document.querySelector('#layer-message')?.textContent ?? ''));
    await page.selectOption('#lang-select', 'zh');
    await page.waitForFunction(() => document.querySelector('main h2')?.textContent === '模型探索器');
    // Still the reader's model (a DIFF model: A2 is there), named in Chinese, and the layer.
    await page.waitForFunction(() => /^你的模型（step-03200\.safetensors \+ config\.json）$/.test(document.querySelector('#model-kind')?.selectedOptions[0]?.textContent ?? ''));
    await page.waitForSelector('#model-a2');
    await page.waitForFunction(() => /^已打开 step-03200\.safetensors 中的 layers\.2\.attn：diff_v1，2 个头/.test(document.querySelector('#layer-message')?.textContent ?? ''));
    assert.equal(await page.inputValue('#layer-prefix'), 'layers.2.attn', 'the layer the reader picked stays');
  });
});

describe('languages: the browser\'s choice (CPU mode)', () => {
  let b;
  before(async () => { b = await start('cpu', { locale: 'zh-CN' }); });
  after(async () => {
    assert.deepEqual(b.errors, [], 'no console errors');
    await b.stop();
  });

  it('a Chinese browser gets the Chinese page; a link may ask for English; garbage is named', async () => {
    const page = await b.open('#/learn');
    await page.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'Softmax 永远给不出恰好为零的权重');
    assert.equal(await page.inputValue('#lang-select'), 'auto', 'the choice says it follows the browser');
    assert.doesNotMatch(page.url(), /lang=/, 'the browser\'s language is not written into the link');
    const english = await b.open('#/learn?lang=en');
    await english.waitForFunction(() => document.querySelector('#step-title')?.textContent === 'Softmax never gives exactly zero');
    const odd = await b.open('#/learn?lang=klingon');
    await odd.waitForFunction(() => /lang=klingon 不是 en 或 zh/.test(document.querySelector('#display-notices')?.textContent ?? ''));
    assert.equal(await text(odd, '#step-title'), 'Softmax 永远给不出恰好为零的权重', 'the browser\'s language is used');
  });
});
