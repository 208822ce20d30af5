// Figures read like a good explorable's, on a desktop at three times the pixel density
// and once: crisp charts with 12 px text and round ticks, a legend beside (never over) the
// curves, colour bars marked and named, numbered axes on long maps; a chart redrawn for
// its new size when the window narrows; the colour-bar marks follow the scale a reader picks.
import fs from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact } from './harness.mjs';
import { chartsAreCrisp, colourBarsAreTicked } from './figures.mjs';

const drawn = (ids) => ids.every((id) => document.querySelector(`#${id}`)?.dataset.drawn === 'true');

for (const [mode, density] of [['cpu', 3], ['gpu', 1]]) {
  test(`figures at devicePixelRatio ${density} in ${mode} mode`, async () => {
    const b = await start(mode, { density });
    try {
      const lab = await b.open('#/lab?n=256');
      await lab.waitForFunction(() => document.querySelector('#snr-diff')?.dataset.value);
      // The slow charts restart when the maps are recomputed (WebGPU's come after the first
      // paint): wait for the noise sweep to finish, then for every chart.
      await lab.waitForFunction(() => /noise levels, σ from 0 to 6/.test(document.querySelector('#noise-progress')?.textContent), null, { timeout: 90_000 });
      await lab.waitForFunction(drawn, ['chart-lambda', 'chart-noise', 'chart-context'], { timeout: 60_000 });
      const charts = await chartsAreCrisp(lab, 'lab');
      assert.ok(charts.every((c) => c.dpr === density), `drawn at density ${density}`);
      const mass = charts.find((c) => c.id === 'chart-context');
      assert.ok(mass, `the context chart is drawn (${charts.map((c) => c.id)})`);
      assert.deepEqual(mass.x, ['10³', '10⁴', '10⁵'], 'context length in decades');
      // The legend is text under the chart: three series, the expected curve dashed.
      const legend = await lab.$$eval('.chart-wrap:has(#chart-context) .chart-legend li', (li) => li.map((l) => [l.textContent, l.querySelector('.swatch').classList.contains('dashed')]));
      assert.deepEqual(legend, [['standard (sampled)', false], ['standard (expected)', true], ['differential', false]]);

      // Colour bars: square root by default, marked unevenly; linear when picked.
      const sqrt = (await colourBarsAreTicked(lab, 'lab')).find((x) => x.id === 'map-a1');
      assert.equal(sqrt.name, 'colour scale: square root');
      await lab.selectOption('#contrast', 'linear');
      await lab.waitForFunction(() => document.querySelector('#map-a1 .colorbar-name').textContent === 'colour scale: linear');
      const linear = (await colourBarsAreTicked(lab, 'lab, linear')).find((x) => x.id === 'map-a1');
      assert.notDeepEqual(linear.labels, sqrt.labels, 'the marks follow the scale');
      const gaps = linear.at.slice(1, -1).map((x, i) => x - linear.at[i]);
      assert.ok(gaps.every((g) => Math.abs(g - gaps[0]) < 1e-3), `linear marks are evenly spaced (${linear.at})`);
      const diff = (await colourBarsAreTicked(lab, 'lab')).find((x) => x.id === 'map-diff');
      assert.ok(diff.labels.includes('0') && diff.labels[0].startsWith('−'), `the signed map's bar runs through 0 (${diff.labels})`);
      // A 256-key map is too long for token labels: its axes are numbered instead.
      const ruler = await lab.$$eval('#map-a1 .ruler.keys span', (s) => s.map((x) => x.textContent));
      assert.deepEqual(ruler, ['0', '50', '100', '150', '200', '250']);
      await lab.screenshot({ path: artifact(`figures-lab-${mode}.png`), fullPage: true });

      // Downloads: each is the figure or its numbers, named by the state it shows.
      const saveFrom = (page) => async (sel) => {
        const [file] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
        fs.copyFileSync(await file.path(), artifact(`${mode}-${file.suggestedFilename()}`));
        return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'latin1') };
      };
      const save = saveFrom(lab);
      const utf8 = (t) => Buffer.from(t, 'latin1').toString('utf8');
      const svg = await save('.chart-wrap:has(#chart-context) .export-svg');
      assert.equal(svg.name, 'difflens-lab-noise-mass-against-context-n256-lambda0.80-sigma1.50-seed1.svg');
      assert.match(utf8(svg.text), /^<svg[^>]*width="720"/);
      for (const t of ['Noise mass of one query', 'standard (expected)', 'differential', '10⁴', 'weight on noise']) assert.ok(utf8(svg.text).includes(t), `the SVG has “${t}” as text`);
      const csv = utf8((await save('.chart-wrap:has(#chart-context) .export-csv')).text).split('\n').filter((l) => l && !l.startsWith('#'));
      assert.equal(csv[0], 'series,x,y');
      const rows = csv.slice(1).map((l) => l.split(','));
      assert.deepEqual([...new Set(rows.map((r) => r[0]))], ['standard (sampled)', 'standard (expected)', 'differential']);
      assert.ok(rows.every((r) => Number(r[2]) >= 0 && Number(r[2]) <= 2), 'noise masses between 0 and 2');
      const png = await save('.chart-wrap:has(#chart-lambda) .export-png');
      assert.ok(png.name.endsWith('.png') && png.text.startsWith('\x89PNG'), 'the chart as a PNG');
      // The map's numbers: the full 256 × 256 A1, each row a softmax (sums to 1), the
      // hovered cell's value as the tooltip says it.
      const map = await save('#map-a1 .export-csv');
      assert.equal(map.name, 'difflens-lab-A1-n256-lambda0.80-sigma1.50-seed1.csv');
      const lines = utf8(map.text).trim().split('\n');
      assert.match(lines[0], /^# A1 = softmax\(Q1·K1ᵀ\/√d\): the full 256 × 256 map/);
      const grid = lines.slice(2).map((l) => l.split(',').slice(1).map(Number));
      assert.equal(grid.length, 256);
      for (const [i, row] of grid.entries()) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, `row ${i} of A1 sums to 1`);
      const cell = await lab.locator('#map-a1 canvas.map').boundingBox();
      await lab.locator('#map-a1 canvas.map').hover({ position: { x: cell.width * (40.5 / 256), y: cell.height * (100.5 / 256) } });
      const tip = await lab.textContent('#map-tooltip');
      assert.match(tip, /query i = 100, key j = 40/);
      const shown = Number(tip.match(/A1 = ([^A]+?)A2/)[1].replaceAll('−', '-'));
      assert.ok(Math.abs(grid[100][40] - shown) <= Math.abs(shown) * 0.01 + 1e-6, `the CSV's A1[100][40] = ${grid[100][40]}, the tooltip says ${shown}`);
      const figure = await save('#map-diff .export-png');
      assert.equal(figure.name, 'difflens-lab-A1-minus-lambda-A2-n256-lambda0.80-sigma1.50-seed1.png');
      assert.ok(figure.text.startsWith('\x89PNG'));
      // The same figure as SVG: the map and the bar embedded as pictures (the map's own
      // pixels), the title, axes, the bar's marks and the scale's name as text.
      const vector = await save('#map-diff .export-svg');
      assert.equal(vector.name, 'difflens-lab-A1-minus-lambda-A2-n256-lambda0.80-sigma1.50-seed1.svg');
      const doc = utf8(vector.text);
      assert.match(doc, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      const texts = [...doc.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
      const marks = (await colourBarsAreTicked(lab, 'lab')).find((x) => x.id === 'map-diff');
      for (const t of ['A1 − λ·A2', '0', '100', '250', 'query i ↓', marks.name, ...marks.labels]) assert.ok(texts.some((x) => x.includes(t)), `the SVG writes “${t}” as text (${texts})`);
      const pictures = [...doc.matchAll(/<image [^>]*href="data:image\/png;base64,([^"]+)"/g)].map((m) => Buffer.from(m[1], 'base64'));
      assert.equal(pictures.length, 2, 'the map and the colour bar');
      const mapWidth = await lab.evaluate(() => document.querySelector('#map-diff canvas.map').width);
      assert.equal(pictures[0].readUInt32BE(16), mapWidth, "the embedded map is the page's map, pixel for pixel");

      // A map shown pooled (1024 keys at 384 pixels) still downloads every entry as CSV.
      const big = await b.open('#/lab?n=1024');
      await big.waitForFunction(() => document.querySelector('.maps')?.dataset.n === '1024' && document.querySelector('#snr-diff')?.dataset.value, null, { timeout: 30_000 });
      assert.match(await big.textContent('#pooling-note'), /shown at 384 × 384 pixels/);
      const whole = utf8((await saveFrom(big)('#map-a1 .export-csv')).text).trim().split('\n');
      assert.match(whole[0], /^# A1 = softmax\(Q1·K1ᵀ\/√d\): the full 1024 × 1024 map/);
      assert.equal(whole.length, 1024 + 2, 'a header, the column numbers and every query');
      for (const i of [0, 511, 1023]) assert.ok(Math.abs(whole[i + 2].split(',').slice(1).map(Number).reduce((a, x) => a + x, 0) - 1) < 1e-4, `row ${i} of the full A1 sums to 1`);
      await big.close();

      // Narrow the window (the charts go to one column): each is redrawn for its new width, still crisp.
      const before = charts.find((c) => c.id === 'chart-lambda');
      await lab.setViewportSize({ width: 500, height: 900 });
      await lab.waitForFunction((w) => document.querySelector('#chart-lambda').width !== w, before.w);
      const after = (await chartsAreCrisp(lab, 'lab at 500 px')).find((c) => c.id === 'chart-lambda');
      assert.ok(Math.abs(after.cssW - before.cssW) >= 1, `a new width (${after.cssW}, was ${before.cssW} CSS px)`);

      // The lesson's log axis and the explorer's depth sweep.
      const lesson = await b.open('#/learn');
      await lesson.waitForFunction(() => document.querySelector('.lesson-figure canvas[data-drawn="true"]'));
      const [weights] = await chartsAreCrisp(lesson, 'lesson step 1');
      assert.ok(weights.y.every((l) => /^10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+$/.test(l)), `decades on the weight axis (${weights.y})`);

      // The explorer's maps download named by model, layer, head and prompt, in full (T ≤ 128).
      const explorer = await b.open('#/model?view=compare&ctx=64&seed=5');
      await explorer.waitForFunction(() => document.querySelectorAll('.predictions li').length === 3 && /^Layer \d+, head \d+/.test(document.querySelector('#which-diff_v1')?.textContent));
      const [, layer, head] = (await explorer.textContent('#which-diff_v1')).match(/^Layer (\d+), head (\d+)/);
      const v1 = await saveFrom(explorer)('#cmp-diff_v1-main .export-csv');
      assert.equal(v1.name, `difflens-explorer-diff_v1-A1-minus-lambda-A2-layer${layer}-head${head}-ctx64-seed5.csv`);
      const t = await explorer.evaluate(() => document.querySelector('#cmp-diff_v1-main canvas.map').width);
      const body = utf8(v1.text).trim().split('\n');
      assert.match(body[0], new RegExp(`^# A1 − λ·A2: the full ${t} × ${t} map`));
      assert.equal(body.length, t + 2, 'a header, the column numbers and one line per query');
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });
}
