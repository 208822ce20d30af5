// The contrast of every text a reader can see, computed from the rendered colours (WCAG
// 2's ratio between the text's colour and the colour actually behind it, every
// translucent layer composited), and what a chart canvas is painted with.

/** Every visible text on the page whose contrast is under `min`, as
 * `{ text, fg, bg, ratio }`; disabled controls and content faded while it recomputes are
 * left out, as WCAG leaves out inactive components. */
export function lowContrast(page, min = 4.5) {
  return page.evaluate((min) => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = '1'] = m[1].split(/[\s,/]+/).filter(Boolean);
      return [Number(r), Number(g), Number(b), Number(a)];
    };
    const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat(1);
    const lum = ([r, g, b]) => {
      const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    // The colour behind `el`: its own background over its ancestors', down to the page's.
    const behind = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg && bg[3] > 0) layers.push(bg);
        if (bg && bg[3] >= 1) break;
      }
      let colour = [255, 255, 255, 1];
      for (const l of layers.reverse()) colour = over(l, colour);
      return colour;
    };
    const faded = (el) => {
      for (let e = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) return true;
      return false;
    };
    const fields = 'select, textarea, input[type=text], input[type=number], input[type=search]';
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      if (['SCRIPT', 'STYLE', 'OPTION', 'NOSCRIPT', 'CANVAS'].includes(el.tagName) || !el.getClientRects().length) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      if (!own && !el.matches(fields)) continue;
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || el.closest(':disabled, [aria-disabled="true"]') || faded(el)) continue;
      const bg = behind(el);
      const fg = over(parse(style.color), bg);
      const r = ratio(fg, bg);
      if (r < min) out.push({ text: (el.matches(fields) ? `[${el.tagName.toLowerCase()}#${el.id}]` : el.textContent.trim()).slice(0, 50), fg: style.color, bg: `rgb(${bg.slice(0, 3).map(Math.round)})`, ratio: Math.round(r * 100) / 100 });
    }
    return out;
  }, min);
}

/** A drawn chart's paper (its corner pixel) and the share of its pixels that are light
 * (luminance over one half: text and lines on a dark chart, the paper on a light one). */
export function chartInk(page, sel) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let light = 0;
    for (let i = 0; i < d.length; i += 4) if (0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2] > 127) light++;
    return { paper: [d[0], d[1], d[2]], light: light / (d.length / 4) };
  }, sel);
}
