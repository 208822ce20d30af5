// What a student who cannot see the screen, or does not use a mouse, gets (issue 45):
// axe-core finds no WCAG 2.1 A/AA violation in the states a person reaches; the keyboard
// alone (Tab, arrows, Enter, Escape) moves λ and the summary under the figure changes,
// the cell cursor reads the value the CSV export holds, "Show as table" holds the
// export's numbers; the text page says its guesses through the live region; and every
// page reflows at 320 CSS px and at 200 % zoom without a horizontal scroll bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { start, artifact, lessonSteps, linkTables } from './harness.mjs';

const STEPS = lessonSteps();

const AXE = fs.readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core on the page as it is now: no violation. */
async function noViolations(page, what) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`) }));
  }, TAGS);
  assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 1)}`);
}

/** Presses Tab until the focused element matches `sel` (a person tabbing through the page). */
async function tabTo(page, sel, max = 250) {
  for (let k = 0; k < max; k++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s), sel)) return k + 1;
  }
  throw new Error(`Tab never reached ${sel}`);
}

/** A CSV download started by Enter on the focused button: its rows of numbers. */
async function csvByKeyboard(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  return fs.readFileSync(await file.path(), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
}

/** The value of largest magnitude (the larger of equals), as the picture and tables pool. */
const outranking = (xs) => xs.reduce((best, v) => (Math.abs(v) > Math.abs(best) || (Math.abs(v) === Math.abs(best) && v > best) ? v : best), 0);

for (const mode of ['gpu', 'cpu']) {
  test(`keyboard only, ${mode} mode: λ changes the summary, the cursor and the table read the CSV's numbers`, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/lab?lambda=0.8&n=64&noise=1.5&signal=5&k=4&common=0.95&seed=1');
      await page.waitForFunction(() => document.querySelector('#map-diff-summary')?.textContent.length > 0, null, { timeout: 30_000 });
      const before = await page.textContent('#map-diff-summary');
      assert.match(before, /\d+ of 64 queries put their largest weight on key \d+\./);
      assert.match(before, /attend most to the signal keys; \d+% of the weight's total magnitude lies there/);
      assert.equal(await page.getAttribute('#map-diff canvas.map', 'aria-describedby'), 'map-diff-summary');

      // λ by keyboard: Tab to the slider, arrows down to 0, where A1 − λ·A2 is A1.
      await tabTo(page, '#lambda');
      for (let k = 0; k < 20; k++) await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('Home');
      // A slow machine may settle between two presses: wait for the summary of λ = 0,
      // which has no negative weight left.
      await page.waitForFunction(() => !/negative/.test(document.querySelector('#map-diff-summary')?.textContent || 'negative'), null, { timeout: 20_000 });
      const after = await page.textContent('#map-diff-summary');
      assert.match(before, /negative/, `λ = 0.8 makes some weight negative: ${before}`);
      // Said once through the live region, after the hand stopped.
      await page.waitForFunction((s) => document.querySelector('#announcer')?.textContent === `A1 − λ·A2: ${s}`, after);

      // The cell cursor: Tab to the map, move, and the live text reads the cell.
      await tabTo(page, '#map-diff canvas.map');
      for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
      const read = await page.textContent('#map-diff .cursor-read');
      const [, i, j, shown] = read.match(/^query (\d+), key (\d+): (.+)$/) || [];
      assert.ok(i !== undefined, `the cursor reads its cell: “${read}”`);
      assert.deepEqual([i, j], ['3', '2']);
      // The same cell in the CSV export, reached by Tab and saved with Enter.
      await tabTo(page, '#map-diff .export-csv');
      const rows = await csvByKeyboard(page);
      const cell = Number(rows[1 + Number(i)].split(',')[1 + Number(j)]);
      // Read to three significant digits (“2.67e−3”), as the tooltip shows it.
      const spoken = Number(shown.replace(/−/g, '-'));
      assert.ok(Math.abs(spoken - cell) <= 0.005 * Math.abs(cell), `the cursor reads ${shown}, the CSV holds ${cell}`);

      // "Show as table": Enter opens it; each cell pools the CSV's 64 × 64 to 32 × 32.
      await tabTo(page, '#map-diff details.as-table > summary');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#map-diff table.figure-table td');
      assert.match(await page.textContent('#map-diff table caption'), /pooled to 32 × 32 from 64 × 64/);
      const t = await page.evaluate(() => {
        const table = document.querySelector('#map-diff table.figure-table');
        const span = (th) => [Number(th.dataset.from), Number(th.dataset.to)];
        const cols = [...table.querySelectorAll('thead th[data-from]')].map(span);
        const rows = [...table.querySelectorAll('tbody tr')].map((tr) => ({ span: span(tr.querySelector('th')), values: [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value)) }));
        return { cols, rows };
      });
      assert.equal(t.rows.length, 32);
      assert.equal(t.cols.length, 32);
      const grid = rows.slice(1).map((r) => r.split(',').slice(1).map(Number));
      for (const [a, c] of [[0, 0], [5, 17], [31, 31], [12, 2]]) {
        const [r0, r1] = t.rows[a].span;
        const [c0, c1] = t.cols[c];
        const block = grid.slice(r0, r1).flatMap((r) => r.slice(c0, c1));
        assert.ok(Math.abs(t.rows[a].values[c] - outranking(block)) <= 1e-6, `table cell (${a}, ${c}) = ${t.rows[a].values[c]}, CSV block ${outranking(block)}`);
      }

      // A chart's cursor: Tab to the chart, End and Home read each curve at the last and first λ.
      await tabTo(page, '#chart-lambda');
      const cursorText = () => page.textContent('.chart-wrap:has(#chart-lambda) .chart-cursor');
      await page.keyboard.press('End');
      const atEnd = await cursorText();
      await page.keyboard.press('Home');
      const atStart = await cursorText();
      await page.keyboard.press('ArrowRight');
      assert.notEqual(await cursorText(), atStart, 'an arrow moves the cursor');

      // A chart's table holds its CSV's points.
      await tabTo(page, '.chart-wrap:has(#chart-lambda) details.as-table > summary');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.chart-wrap:has(#chart-lambda) table.figure-table td');
      await tabTo(page, '.chart-wrap:has(#chart-lambda) .export-csv');
      const points = (await csvByKeyboard(page)).slice(1).map((l) => l.match(/^(.*),([^,]+),([^,]+)$/)).map((m) => ({ series: m[1].replace(/^"|"$/g, ''), x: Number(m[2]), y: Number(m[3]) }));
      const table = await page.evaluate(() => {
        const t = document.querySelector('.chart-wrap:has(#chart-lambda) table.figure-table');
        const names = [...t.querySelectorAll('thead th')].slice(1).map((th) => th.textContent);
        return [...t.querySelectorAll('tbody tr')].flatMap((tr) => { const x = Number(tr.querySelector('th').dataset.value); return [...tr.querySelectorAll('td')].map((td, k) => ({ series: names[k], x, y: td.dataset.value === undefined ? null : Number(td.dataset.value) })); }).filter((c) => c.y !== null);
      });
      assert.equal(table.length, points.length, 'the table holds every point of the CSV');
      for (const p of points.filter((_, k) => k % 7 === 0)) assert.ok(table.some((c) => c.series === p.series && c.x === p.x && Math.abs(c.y - p.y) <= 1e-9 * Math.max(1, Math.abs(p.y))), `${p.series} at ${p.x}`);
      assert.match(await page.textContent('#chart-lambda-summary'), /rises|falls|peaks|dips|level/);
      // The cursor's readings at the ends are the CSV's first and last points of each curve.
      const xs = points.map((p) => p.x);
      for (const [said, x] of [[atStart, Math.min(...xs)], [atEnd, Math.max(...xs)]]) {
        assert.match(said, /^λ = /, said);
        for (const p of points.filter((q) => q.x === x)) {
          const at = said.indexOf(`${p.series} `);
          const v = at < 0 ? undefined : said.slice(at + p.series.length + 1).split(/;|$/)[0].trim();
          assert.ok(v !== undefined && Math.abs(Number(v.replace(/−/g, '-')) - p.y) <= 0.005 * Math.abs(p.y) + 1e-3, `${p.series} at ${x}: read “${said}”, CSV ${p.y}`);
        }
      }
      await noViolations(page, `the lab with its tables open (${mode})`);
      assert.deepEqual(b.errors, []);
    } finally {
      await b.stop();
    }
  });

  test(`keyboard only, ${mode} mode: the text page says the models' next-character guesses`, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/text');
      await page.waitForFunction(() => document.querySelectorAll('.top5 li').length >= 15, null, { timeout: 60_000 });
      await tabTo(page, '#text-input');
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' and th');
      await page.waitForFunction(() => /^Next character: /.test(document.querySelector('#announcer')?.textContent || ''), null, { timeout: 30_000 });
      const said = await page.textContent('#announcer');
      for (const slug of ['baseline', 'diff_v1', 'diff_v2']) {
        const top = await page.textContent(`#top-${slug} li:first-child`);
        const [, ch, p] = top.match(/^(.+?) (\d+%)$/) || [];
        assert.ok(said.includes(`“${ch}” (${p})`), `the announcement names ${slug}'s guess ${top}: ${said}`);
      }
      // Write on, by Enter on its button: said when it starts and, once stopped, what each wrote.
      await tabTo(page, '#write-on');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => /writing on/.test(document.querySelector('#announcer')?.textContent || ''));
      await page.waitForTimeout(1500);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => /Baseline Transformer wrote: [\s\S]+DIFF Transformer V1 wrote: [\s\S]+DIFF Transformer V2 wrote: /.test(document.querySelector('#announcer')?.textContent || ''), null, { timeout: 20_000 });
      await noViolations(page, `the text page after typing and writing (${mode})`);
      assert.deepEqual(b.errors, []);
    } finally {
      await b.stop();
    }
  });
}

for (const mode of ['gpu', 'cpu']) {
  test(`keyboard only, ${mode} mode: a new prompt in the explorer says each model's prediction`, async () => {
    const b = await start(mode);
    try {
      const page = await b.open('#/model?view=compare&seed=5');
      await page.waitForFunction(() => document.querySelectorAll('ul.predictions li').length >= 3, null, { timeout: 60_000 });
      await page.waitForTimeout(1000);
      assert.equal(await page.textContent('#announcer'), '', 'the predictions the page opened with are shown, not said');
      await tabTo(page, '#new-prompt');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => /^Baseline Transformer: query 1 predicts/.test(document.querySelector('#announcer')?.textContent || ''), null, { timeout: 30_000 });
      const said = await page.textContent('#announcer');
      // Each model's first prediction as its column shows it.
      const shown = await page.$$eval('ul.predictions', (uls) => uls.map((ul) => ul.querySelector('li').textContent));
      assert.equal(shown.length, 3);
      // Each DIFF column's summary compares its answering row with the baseline's.
      for (const slug of ['diff_v1', 'diff_v2']) {
        await page.waitForFunction((id) => /The baseline's outlined row puts (<0\.1|>99\.9|[\d.]+)% of its weight on the asked needle/.test(document.getElementById(id)?.textContent || ''), `cmp-${slug}-main-summary`);
      }
      assert.doesNotMatch(await page.textContent('#cmp-baseline-main-summary'), /The baseline's/);
      for (const line of shown) {
        const [, predicted, percent, verdict] = line.match(/predicts (\S+) \((\d+)%\).*— (right|wrong)$/) || [];
        assert.ok(predicted, `a prediction: ${line}`);
        assert.ok(said.includes(`query 1 predicts ${predicted} (${percent}%), ${verdict}`), `said: ${said}; shown: ${line}`);
      }
      assert.deepEqual(b.errors, []);
    } finally {
      await b.stop();
    }
  });
}

test('keyboard only: the lesson from its first step to its last, each figure described', async () => {
  const b = await start('cpu');
  try {
    const page = await b.open('#/learn');
    await page.waitForSelector('#lesson-step[data-step="1"]');
    // A glossary term: Enter opens its definition in place, Escape closes it.
    await tabTo(page, 'button.term');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.definition');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.definition', { state: 'detached' });
    for (let k = 1; k <= STEPS; k++) {
      await page.waitForSelector(`#lesson-step[data-step="${k}"]`);
      // Every figure of the step has a name, and a description that says something.
      await page.waitForFunction(() => {
        const figures = [...document.querySelectorAll('#lesson-figure [role="img"]')];
        const described = (el) => { const d = el.getAttribute('aria-describedby'); return d && document.getElementById(d)?.textContent.trim().length > 20; };
        const facts = document.querySelector('#figure-facts')?.textContent.trim().length > 20;
        return figures.every((f) => f.getAttribute('aria-label')) && (facts || (figures.length > 0 && figures.every(described)));
      }, null, { timeout: 30_000 });
      if (k > 1) assert.equal(await page.evaluate(() => document.activeElement?.id), 'step-title', `a new step starts at its title (step ${k})`);
      if (k < STEPS) {
        // Odd steps by Tab to Next and Enter; even ones by the arrow key from the title.
        if (k % 2) {
          await tabTo(page, '#step-next');
          await page.keyboard.press('Enter');
        } else {
          await page.keyboard.press('ArrowRight');
        }
      }
    }
    assert.equal(await page.getAttribute('#step-next', 'disabled'), '', 'no step after the last');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.stop();
  }
});

/** The states a person reaches, each checked by axe. */
const STATES = [
  ...Array.from({ length: STEPS }, (_, k) => ({ hash: `#/learn?step=${k + 1}`, ready: '#lesson-figure canvas, #lesson-figure table, #lesson-figure article' })),
  { hash: '#/lab', ready: '#map-diff-summary:not(:empty)' },
  { hash: '#/model?view=single&model=diff_v1&v1_lambda=0.3', ready: '#model-diff-summary:not(:empty)' },
  { hash: '#/model?view=compare&v2_scale=0.5', ready: '.map-summary:not(:empty)' },
  { hash: '#/text', ready: '.map-summary:not(:empty)' },
  { hash: '#/train', ready: '#train-status' },
  { hash: '#/arch?heads=abc', ready: '#arch-table' },
];

for (const [theme, lang, phone] of [['light', 'en', false], ['dark', 'zh', true]]) {
  test(`axe: no WCAG 2.1 A/AA violation in ${STATES.length} states, ${theme}, ${lang}, ${phone ? '390 px phone' : 'desktop'}`, async () => {
    const b = await start('cpu', { phone, colorScheme: theme });
    try {
      const page = await b.open(`#/learn?lang=${lang}`);
      for (const s of STATES) {
        await page.evaluate((h) => { location.hash = h; }, `${s.hash}${s.hash.includes('?') ? '&' : '?'}lang=${lang}`);
        await page.waitForSelector(s.ready, { timeout: 60_000 });
        await page.waitForTimeout(800);
        await noViolations(page, `${s.hash} (${theme}, ${lang}, ${phone ? 'phone' : 'desktop'})`);
      }
      assert.deepEqual(b.errors, []);
    } finally {
      await b.stop();
    }
  });
}

test('reflow: every page at 320 CSS px and at 200 % zoom, its tables open or not, has no horizontal scroll bar', async () => {
  const b = await start('cpu');
  try {
    for (const [width, height, scale] of [[320, 640, 1], [640, 400, 2]]) {
      const page = await b.context.newPage();
      await page.setViewportSize({ width, height });
      // Every page the route table has, and the explorer's other view.
      for (const route of [...Object.keys(linkTables()).map((p) => `#/${p}`), '#/model?view=single']) {
        await page.goto(`${b.url}${route}`);
        await page.waitForSelector('main h2', { timeout: 30_000 });
        await page.waitForTimeout(1500);
        // With every figure's table open too: a table scrolls in its own box.
        for (const open of [false, true]) {
          if (open) await page.evaluate(() => document.querySelectorAll('details.as-table').forEach((d) => { d.open = true; }));
          await page.waitForTimeout(open ? 500 : 0);
          const wide = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
          assert.ok(wide.page <= wide.view + 1, `${route} at ${width} px (${scale}×)${open ? ' with the tables open' : ''}: the page is ${wide.page} px wide`);
        }
      }
      await page.screenshot({ path: artifact(`reflow-${width}.png`), fullPage: false });
      await page.close();
    }
  } finally {
    await b.stop();
  }
});
