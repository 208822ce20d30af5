// The app shell: it mounts under a sub-path, the badge names the compute path in both
// modes, navigation keeps state in the hash, and nothing reaches the console as an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, artifact } from './harness.mjs';

for (const mode of ['gpu', 'cpu']) {
  test(`shell in ${mode} mode`, async (t) => {
    const b = await start(mode);
    try {
      const page = await b.open('#/lab');
      assert.equal(await page.textContent('header.top h1'), 'DiffLens');
      const badge = page.locator('#backend-badge');
      const kind = await badge.getAttribute('data-kind');
      const label = await badge.textContent();
      if (mode === 'gpu') {
        assert.equal(kind, 'webgpu', `expected WebGPU, badge says: ${label}`);
        assert.match(label, /^WebGPU: \S/, 'the badge names the adapter');
      } else {
        assert.equal(kind, 'cpu', `expected the CPU fallback, badge says: ${label}`);
        assert.match(label, /^Running on your CPU/, 'the badge names the CPU path');
        await page.click('#backend-badge summary');
        assert.match(await page.textContent('#backend-reason'), /\S/, 'the badge says why, one click away');
      }
      await page.screenshot({ path: artifact(`shell-${mode}.png`), fullPage: true });

      // Navigation: every page is a hash route, so a reload never asks the server for it.
      for (const [slug, title] of [['arch', 'Architecture calculator'], ['model', 'Model explorer'], ['lab', 'Noise-floor lab']]) {
        await page.click(`nav.pages a[data-page="${slug}"]`);
        await page.waitForSelector(`main h2:text("${title}")`);
        assert.equal(new URL(page.url()).hash.split('?')[0], `#/${slug}`);
      }
      await page.reload();
      await page.waitForSelector('main h2:text("Noise-floor lab")');
      const unknown = await b.open('#/no-such-page');
      assert.match(await unknown.textContent('.notice'), /no page called “no-such-page”/);
      assert.deepEqual(b.errors, [], 'no errors in the console');
    } finally {
      await b.stop();
    }
  });
}

test('a slow network shows a loading line, never a blank page', async () => {
  const b = await start('cpu');
  try {
    const page = await b.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.route('**/*.wasm', async (route) => { await new Promise((r) => setTimeout(r, 1500)); await route.continue(); });
    await page.goto(b.url);
    assert.match(await page.textContent('#app-loading'), /Loading DiffLens/, 'said while the module downloads');
    await page.waitForSelector('#fig-row[data-drawn="true"]', { timeout: 30_000 });
    assert.equal(await page.locator('#app-loading').count(), 0, 'gone once the app runs');
    assert.deepEqual(errors, []);
  } finally {
    await b.stop();
  }
});

