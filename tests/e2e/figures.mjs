// Checks of what a drawn figure shows, read back from the page: shared by the phone test
// (twice the pixel density) and the desktop figures test (three times and once).
import assert from 'node:assert/strict';

/** A tick label as a number: "−0.5" → -0.5, "10⁻³" → 0.001, "2×10⁻⁴" → 0.0002, "10k" → 10000. */
export function tickValue(label) {
  const sup = { '⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9 };
  const s = label.replace('−', '-');
  const power = s.match(/^(?:(-?[\d.]+)×)?10([⁻]?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/);
  if (power) {
    const k = Number([...power[3]].map((c) => sup[c]).join('')) * (power[2] ? -1 : 1);
    return (power[1] ? Number(power[1]) : 1) * 10 ** k;
  }
  if (/^-?[\d.]+k$/.test(s)) return Number(s.slice(0, -1)) * 1000;
  assert.match(s, /^-?\d+(\.\d+)?$/, `tick label “${label}” is a plain number`);
  return Number(s);
}

/** Every drawn chart on the page: its canvas holds its CSS box × devicePixelRatio pixels,
 * its text is at least 12 CSS px, its ticks are round, distinct, ascending numbers. */
export async function chartsAreCrisp(page, where) {
  const charts = await page.evaluate(() => [...document.querySelectorAll('.chart-wrap canvas[data-drawn="true"]')].filter((c) => c.getClientRects().length).map((c) => {
    const r = c.getBoundingClientRect();
    const overlay = c.parentElement.querySelector('canvas.chart-overlay');
    return {
      id: c.id, w: c.width, h: c.height, cssW: r.width, cssH: r.height, dpr: devicePixelRatio, text: Number(c.dataset.textPx),
      x: c.dataset.xTicks.split('|'), y: c.dataset.yTicks.split('|'), overlay: overlay ? [overlay.width, overlay.height] : null,
    };
  }));
  assert.ok(charts.length > 0, `${where}: a drawn chart to check`);
  for (const c of charts) {
    const at = `${where} #${c.id}`;
    assert.ok(Math.abs(c.w - c.cssW * c.dpr) <= 1.5 && Math.abs(c.h - c.cssH * c.dpr) <= 1.5, `${at}: ${c.w}×${c.h} px for a ${c.cssW}×${c.cssH} CSS px box at density ${c.dpr}`);
    assert.ok(c.text >= 12, `${at}: text ${c.text} CSS px`);
    if (c.overlay) assert.deepEqual(c.overlay, [c.w, c.h], `${at}: the overlay has the chart's pixels`);
    for (const [axis, labels] of [['x', c.x], ['y', c.y]]) {
      assert.ok(labels.length >= 2, `${at}: ${axis} axis has ticks (${labels})`);
      assert.equal(new Set(labels).size, labels.length, `${at}: ${axis} tick labels repeat (${labels})`);
      const v = labels.map(tickValue);
      assert.ok(v.every((x, i) => i === 0 || x > v[i - 1]), `${at}: ${axis} ticks ascend (${labels})`);
      // Round: each is a small multiple of a power of ten (1, 2, 2.5, 5 … × 10^k).
      for (const [k, x] of v.entries()) {
        const m = Math.abs(x) / 10 ** Math.floor(Math.log10(Math.abs(x) || 1));
        assert.ok(x === 0 || Math.abs(m * 20 - Math.round(m * 20)) < 1e-6, `${at}: ${axis} tick “${labels[k]}” is round`);
      }
    }
  }
  return charts;
}

/** Every visible heatmap's colour bar marks at least three values, ascending, and names its scale. */
export async function colourBarsAreTicked(page, where) {
  const bars = await page.evaluate(() => [...document.querySelectorAll('.colorbar')].filter((b) => b.getClientRects().length).map((b) => ({
    id: b.closest('figure')?.id, labels: [...b.querySelectorAll('.colorbar-ticks span')].map((s) => s.textContent), at: [...b.querySelectorAll('.colorbar-ticks span')].map((s) => Number(s.dataset.at)), name: b.querySelector('.colorbar-name')?.textContent,
    overlap: (() => { const r = [...b.querySelectorAll('.colorbar-ticks span')].map((s) => s.getBoundingClientRect()); return r.some((x, i) => i > 0 && x.left < r[i - 1].right); })(),
  })));
  assert.ok(bars.length > 0, `${where}: a colour bar to check`);
  for (const b of bars) {
    const at = `${where} #${b.id}`;
    assert.ok(b.labels.length >= 3, `${at}: colour bar marks ${b.labels}`);
    const v = b.labels.map(tickValue);
    assert.ok(v.every((x, i) => i === 0 || x > v[i - 1]), `${at}: colour-bar values ascend (${b.labels})`);
    assert.ok(b.at.every((x, i) => i === 0 || x > b.at[i - 1]), `${at}: and so do their places`);
    assert.equal(b.overlap, false, `${at}: colour-bar labels overlap (${b.labels})`);
    assert.match(b.name, /^colour scale: (linear|square root|log)/, `${at}: the bar names its scale`);
  }
  return bars;
}
