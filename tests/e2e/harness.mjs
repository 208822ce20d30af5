// Launches Debian's Chromium through playwright-core against the release build served
// under /difflens/, in one of two modes: WebGPU (SwiftShader) or the CPU fallback.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from './serve.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const ARTIFACTS = path.join(ROOT, 'artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });

const BASE_FLAGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// All four are needed for WebGPU on SwiftShader, including drawing to canvases.
const GPU_FLAGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=swiftshader'];

/** Starts the server and a browser; `mode` is 'gpu' or 'cpu'; `phone`: a 390 × 844 touch
 * screen at twice the pixel density; `density`: a desktop screen's devicePixelRatio;
 * `colorScheme`: the system's theme the pages see ('light' or 'dark'); `offline`: let the
 * site's service worker run (the other tests block it: a page it serves from its saved
 * copy would bypass their `page.route` fakes of a slow or failing network). */
export async function start(mode, { phone = false, density = 1, colorScheme = 'light', offline = false, locale = 'en-US' } = {}) {
  // DIFFLENS_DIST serves another build (e.g. an older commit's, to see a test fail there).
  const dist = process.env.DIFFLENS_DIST || path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('dist/ is missing: build with scripts/test.sh');
  const { server, url } = await serve(dist);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'difflens-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [...BASE_FLAGS, ...(mode === 'gpu' ? GPU_FLAGS : [])],
    viewport: phone ? { width: 390, height: 844 } : { width: 1400, height: 1000 },
    ...(phone ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : { deviceScaleFactor: density }),
    colorScheme,
    // The browser's language (navigator.languages), which the page follows unless the
    // link names one: English unless a test asks for another.
    locale,
    serviceWorkers: offline ? 'allow' : 'block',
  });
  const errors = [];
  const open = async (hash = '#/lab') => {
    const page = await context.newPage();
    // A failed load's message does not name what failed; its location does.
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}${/^Failed to load resource/.test(m.text()) ? ` (${m.location().url})` : ''}`); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(url + hash);
    // Attached, not visible: presenter and embed mode hide the header.
    await page.waitForSelector('header.top', { state: 'attached', timeout: 30_000 });
    // Detection finishes when the badge leaves its "looking" state.
    await page.waitForFunction(() => document.querySelector('#backend-badge')?.dataset.kind !== 'detecting', null, { timeout: 30_000 });
    return page;
  };
  const stop = async () => {
    await context.close();
    if (server.listening) server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { url, open, errors, stop, context, server };
}

/** The three models, in the order every page shows them. */
export const KINDS = ['baseline', 'diff_v1', 'diff_v2'];
/** The text of `sel`. */
export const text = (page, sel) => page.textContent(sel);
/** Waits until `sel`'s text differs from `before`. */
export const textChanges = (page, sel, before, timeout = 15_000) => page.waitForFunction(({ sel, before }) => document.querySelector(sel)?.textContent !== before, { sel, before }, { timeout });

/** The explorer (either view) has computed: its status line says so in no language
 * (`data-status`) and predictions are on screen; a timeout says what the page showed. */
export async function modelReady(page, timeout = 30_000) {
  try {
    await page.waitForFunction(() => document.querySelector('#model-status')?.dataset.status === 'ready' && document.querySelectorAll('#predictions li, .predictions li').length > 0, null, { timeout });
  } catch (e) {
    const seen = await page.evaluate(() => ({ url: location.href, h2: document.querySelector('main h2')?.textContent, status: document.querySelector('#model-status')?.textContent, predictions: document.querySelectorAll('#predictions li, .predictions li').length, banner: document.querySelector('#fatal-error')?.textContent }));
    throw new Error(`the explorer never showed its predictions: ${JSON.stringify(seen)}`);
  }
}

/** The lab has a problem on screen and none coming (`data-status`, in no language). */
export const labReady = (page, timeout = 60_000) => page.waitForFunction(() => document.querySelector('section.lab')?.dataset.status === 'ready' && document.querySelector('#compute-note')?.textContent, null, { timeout });

/** Makes the workers' download of the page's wasm fail (a file that is not there), as a
 * broken network would; the page must then compute on its own thread and say so. Call
 * it before the page is opened. */
export const breakWorkerDownload = (page) => page.addInitScript(() => { window.DIFFLENS_BREAK_WORKER_DOWNLOAD = true; });

export function artifact(name) {
  return path.join(ARTIFACTS, name);
}

/** A cheap fingerprint of a canvas's pixels (what a person would see change). */
export const pixels = (page, sel) => page.evaluate(fingerprint, sel);

/** Waits until the canvas `sel` shows something other than `before`. */
export async function pixelsChange(page, sel, before, timeout = 15_000) {
  const end = Date.now() + timeout;
  while (await pixels(page, sel) === before) {
    if (Date.now() > end) throw new Error(`${sel} still shows the same pixels after ${timeout} ms`);
    await page.waitForTimeout(50);
  }
}

function fingerprint(sel) {
  const c = document.querySelector(sel);
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 0;
  for (let i = 0; i < d.length; i += 7) h = (h * 31 + d[i]) >>> 0;
  return `${c.width}x${c.height}:${h}`;
}

let tables;
/** What each page's link accepts, from the pages' own state tables in Rust
 * (`examples/link_tables.rs`; built with the native tests, in the same profile): the
 * browser tests never write a route's keys or ranges a second time by hand. */
export function linkTables() {
  tables ??= JSON.parse(execFileSync('cargo', ['run', '--quiet', '--locked', '--profile', 'release-tests', '--example', 'link_tables'], { encoding: 'utf8', maxBuffer: 1 << 24 }));
  return tables;
}

/** The lesson's number of steps: its `step` key's largest value. */
export const lessonSteps = () => linkTables().learn.find((row) => row.key === 'step' && row.kind === 'number').max;
