// Seeded random links across every page, in both modes: what a stranger's or a broken
// link does. Each link is opened by changing the hash (as following a shared link within
// the app does) and every tenth by a fresh load. For each: no banner, no console error,
// the page's content shown, and for every value the generator made invalid, a notice
// naming its key. How fast is a benchmark's question, not this test's: the targets (2 s;
// 4 s for a lab problem of more than 2048 keys, still on the main thread) are reported as
// diagnostics for the links over them, and the test fails only on a hang (nothing shown
// within HANG_MS). A bound of twice the target failed CI on a busy 2-core machine, where
// a fresh WebGPU-mode load of a model on SwiftShader once took 4.4 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { start, linkTables } from './harness.mjs';

const LINKS_PER_MODE = 160;
// Far past any load time seen: 4.4 s on the 2-core CI machine, 10.4 s for a fresh
// WebGPU-mode load of a model there while a training run held both cores.
const HANG_MS = 30_000;

// A small seeded generator (mulberry32): the same links on every run.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GARBAGE = ['', 'NaN', 'inf', '-inf', 'abc', '1e400', '%zz', '0x10', '１２', '<b>', '-'];
// What each page's link accepts, from the pages' own state tables in Rust.
const TABLES = linkTables();

const short = (v) => String(Math.round(v * 1e4) / 1e4);
/** A row's valid values and its refused ones (each a function of the generator). */
function values(row) {
  switch (row.kind) {
    case 'number': {
      const { min, max, integer, log2 } = row;
      const valid = (r) => {
        // Sequence lengths log-uniformly, as the slider moves: 1 in 8 links over 2048 keys.
        const v = log2 ? 2 ** (Math.log2(min) + r() * (Math.log2(max) - Math.log2(min))) : min + r() * (max - min);
        return integer ? String(Math.min(max, Math.max(min, Math.round(v)))) : short(Math.min(max, Math.max(min, v)));
      };
      const span = Math.max(1, max - min);
      return { valid, refused: [short(max + span), short(min - span), ...(integer && min < max ? [`${min}.5`] : [])], garbage: true };
    }
    case 'choice':
      return { valid: (r) => row.options[Math.floor(r() * row.options.length)], refused: ['zz-none', ...row.options.map((o) => o.toUpperCase()).filter((o) => !row.options.includes(o))], garbage: true };
    default:
      return { valid: (r) => row.accepts[Math.floor(r() * row.accepts.length)], refused: row.refuses, garbage: row.refuses.length > 0 };
  }
}
// What shows that each page has drawn its content.
const READY = {
  lab: () => !!document.querySelector('#map-diff canvas.map') && document.querySelector('#snr-standard')?.dataset.value !== undefined,
  model: () => /^(Computed|Could not)/.test(document.querySelector('#model-status')?.textContent || '') && !!document.querySelector('canvas.map'),
  arch: () => !!document.querySelector('#arch-table td'),
  text: () => ['ready', 'failed', 'run-failed'].includes(document.querySelector('section.text')?.dataset.status),
  learn: () => !!document.querySelector('#figure-facts')?.textContent.trim() || /^Could not/.test(document.querySelector('#model-status')?.textContent || ''),
};
// Per page with a readiness test: each row's values. Left to the pages' own
// tests: a text row without examples (a prompt, a list), and `on`, which can force the
// software GPU (SwiftShader takes seconds to set up a model's pipelines, by design).
const LEFT_OUT = ['on'];
const PAGES = Object.fromEntries(
  Object.entries(TABLES)
    .filter(([page]) => page in READY)
    .map(([page, rows]) => [page, rows.filter((row) => !LEFT_OUT.includes(row.key) && (row.kind !== 'text' || row.accepts.length > 0)).map((row) => ({ key: row.key, ...values(row) }))]),
);

/** One random link: its hash, and the keys it made invalid. */
function randomLink(r) {
  const pages = Object.keys(PAGES);
  const page = pages[Math.floor(r() * pages.length)];
  // Rows at random, one per key (the lesson's `step` has two: a number and a name).
  const chosen = PAGES[page].filter(() => r() < 0.35).filter((row, i, all) => all.findIndex((o) => o.key === row.key) === i);
  const invalid = [];
  const pairs = chosen.map((row) => {
    const roll = r();
    if (roll < 0.6 || row.refused.length === 0) return [row.key, row.valid(r)];
    invalid.push(row.key);
    const pool = roll < 0.8 || !row.garbage ? row.refused : GARBAGE;
    return [row.key, pool[Math.floor(r() * pool.length)]];
  });
  if (r() < 0.1) {
    invalid.push('zz_unknown');
    pairs.push(['zz_unknown', '1']);
  }
  const query = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  // A lab problem of more than 2048 keys is still computed on the main thread (about
  // 1.3–2 s at n = 4096 on the 2-core test machine; the worker pool of issue 17 moves it
  // off): such links get 4 s, and the README says so.
  const heavy = page === 'lab' && pairs.some(([k, v]) => k === 'n' && Number(v) > 2048);
  return { page, hash: `#/${page}${query ? `?${query}` : ''}`, invalid, budget: heavy ? 4000 : 2000 };
}

for (const mode of ['gpu', 'cpu']) {
  test(`${LINKS_PER_MODE} random links in ${mode} mode`, { timeout: 900_000 }, async (t) => {
    const b = await start(mode);
    const r = rng(mode === 'gpu' ? 20261201 : 1201);
    const times = [];
    try {
      let page = await b.open('#/lab');
      for (let i = 0; i < LINKS_PER_MODE; i++) {
        const link = randomLink(r);
        const t0 = Date.now();
        if (i % 10 === 9) {
          await page.close();
          page = await b.open(link.hash);
        } else {
          await page.evaluate((h) => { location.hash = h; }, link.hash);
        }
        await page.waitForFunction(READY[link.page], null, { timeout: HANG_MS });
        // The notices follow the state: wait for one naming each invalid key.
        const named = await page.waitForFunction((keys) => {
          const text = [...document.querySelectorAll('main .notice')].map((n) => n.textContent).join(' ');
          return keys.every((k) => text.includes(k));
        }, link.invalid, { timeout: Math.max(1000, HANG_MS - (Date.now() - t0)) }).then(() => true, () => false);
        const ms = Date.now() - t0;
        times.push(ms);
        if (ms > link.budget) t.diagnostic(`over the ${link.budget} ms target: ${link.hash}: ${ms} ms`);
        const notices = (await page.locator('main .notice').allTextContents()).join(' ');
        assert.ok(named, `${link.hash}: not every invalid key (${link.invalid}) has a notice: ${notices || 'none'}`);
        assert.equal(await page.locator('#fatal-error').count(), 0, `${link.hash}: the error banner showed`);
        assert.deepEqual(b.errors, [], `${link.hash}: console errors`);
      }
      times.sort((a, b) => a - b);
      t.diagnostic(`content shown: median ${times[times.length >> 1]} ms, slowest ${times[times.length - 1]} ms over ${times.length} links`);
    } finally {
      await b.stop();
    }
  });
}
