// Handouts: a page printed (to PDF, as a teacher would) keeps its figures, numbers and
// captions and drops its controls. Both modes; the PDFs land in artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { start, artifact } from './harness.mjs';

const VIEWS = [
  { name: 'lab', hash: '#/lab?n=256', ready: () => document.querySelector('#snr-diff')?.dataset.value, keep: ['#map-a1 canvas.map', '#map-diff canvas.map', '#snr-diff', '#mass-table', '#chart-lambda'] },
  { name: 'lesson', hash: '#/learn?step=4', ready: () => document.querySelector('#figure-facts')?.textContent.trim(), keep: ['#step-title', '#fig-diff canvas.map', '#figure-facts', '[data-testid="lambda-value"]', '#glossary'] },
  { name: 'compare', hash: '#/model?view=compare', ready: () => document.querySelectorAll('.predictions li').length === 3, keep: ['#cmp-diff_v2-main canvas.map', '.predictions', '#net-table', '#prompt .tok.answer', '#context'] },
];

for (const mode of ['gpu', 'cpu']) {
  test(`handouts in ${mode} mode`, async () => {
    const b = await start(mode);
    try {
      for (const v of VIEWS) {
        const page = await b.open(v.hash);
        await page.waitForFunction(v.ready, null, { timeout: 30_000 });
        await page.emulateMedia({ media: 'print' });
        for (const sel of v.keep) assert.ok(await page.isVisible(sel), `${v.name}: ${sel} is on the handout`);
        const controls = await page.evaluate(() => [...document.querySelectorAll('input[type=range], button:not(.term):not(.tok), nav.pages, details')].filter((el) => el.getClientRects().length > 0).map((el) => el.id || el.outerHTML.slice(0, 60)));
        assert.deepEqual(controls, [], `${v.name}: no control is printed`);
        // A list prints as the value it holds, without the look of a control.
        const lists = await page.evaluate(() => [...document.querySelectorAll('select')].filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).appearance !== 'none').map((el) => el.id));
        assert.deepEqual(lists, [], `${v.name}: lists print as their values`);
        const file = artifact(`handout-${v.name}-${mode}.pdf`);
        await page.pdf({ path: file, format: 'A4', printBackground: true, margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' } });
        const pdf = fs.readFileSync(file, 'latin1');
        const pages = (pdf.match(/\/Type\s*\/Page[^s]/g) || []).length;
        assert.ok(pdf.startsWith('%PDF') && pages >= 1 && pages <= 8, `${v.name}: a handout of 1–8 pages, got ${pages}`);
        await page.close();
      }
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });
}
