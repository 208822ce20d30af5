// Launches Debian's Chromium through playwright-core against the release build served
// under /difflens/, in one of two modes: WebGPU (SwiftShader) or the CPU fallback.
import { chromium } from 'playwright-core';
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

/** Starts the server and a browser; `mode` is 'gpu' or 'cpu'. */
export async function start(mode) {
  // DIFFLENS_DIST serves another build (e.g. an older commit's, to see a test fail there).
  const dist = process.env.DIFFLENS_DIST || path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('dist/ is missing: build with scripts/test.sh');
  const { server, url } = await serve(dist);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'difflens-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [...BASE_FLAGS, ...(mode === 'gpu' ? GPU_FLAGS : [])],
    viewport: { width: 1400, height: 1000 },
  });
  const errors = [];
  const open = async (hash = '#/lab') => {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(url + hash);
    await page.waitForSelector('header.top', { timeout: 30_000 });
    // Detection finishes when the badge leaves its "looking" state.
    await page.waitForFunction(() => document.querySelector('#backend-badge')?.dataset.kind !== 'detecting', null, { timeout: 30_000 });
    return page;
  };
  const stop = async () => {
    await context.close();
    server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { url, open, errors, stop };
}

export function artifact(name) {
  return path.join(ARTIFACTS, name);
}
