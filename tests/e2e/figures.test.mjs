// Figures read like a good explorable's, on a desktop at three times the pixel density
// and once: crisp charts with 12 px text and round ticks, a legend beside (never over) the
// curves, colour bars marked and named, numbered axes on long maps; a chart redrawn for
// its new size when the window narrows; the colour-bar marks follow the scale a reader picks.
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
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });
}
