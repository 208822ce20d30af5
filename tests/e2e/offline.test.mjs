// A classroom whose network fails: after one visit the site opens, computes and loads any
// shipped model with the server stopped; a new deploy replaces the saved copy (the page
// shows the new version at once, the old saved files are deleted) and is itself saved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, artifact } from './harness.mjs';
import { serve } from './serve.mjs';

const DIST = process.env.DIFFLENS_DIST || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../dist');
const version = (dir) => fs.readFileSync(path.join(dir, 'sw.js'), 'utf8').match(/const VERSION = "([0-9a-f]+)"/)[1];
const comparing = () => document.querySelectorAll('.predictions li').length === 3;
const predictions = (page) => page.evaluate(() => [...document.querySelectorAll('.predictions')].map((p) => p.textContent).join(' | '));

function down(server) {
  server.close();
  server.closeAllConnections();
}

for (const mode of ['gpu', 'cpu']) {
  test(`offline after the first visit in ${mode} mode`, async () => {
    const b = await start(mode, { offline: true });
    const port = Number(new URL(b.url).port);
    const next = fs.mkdtempSync(path.join(os.tmpdir(), 'difflens-next-'));
    let nextServer;
    try {
      const page = await b.open('#/model?view=compare');
      await page.waitForFunction(comparing, null, { timeout: 30_000 });
      await page.waitForFunction(() => document.querySelector('#offline-status')?.dataset.state === 'saved', null, { timeout: 60_000 });
      assert.match(await page.textContent('#offline-status'), /open without a network/);
      const online = await predictions(page);
      assert.deepEqual(await page.evaluate(() => caches.keys()), [`difflens-${version(DIST)}`]);

      // The network goes: the page reloads from the saved copy and computes as before.
      down(b.server);
      await page.reload();
      await page.waitForSelector('header.top', { timeout: 30_000 });
      await page.waitForFunction(comparing, null, { timeout: 30_000 });
      assert.equal(await predictions(page), online, 'the same predictions offline');
      // A page and a checkpoint never opened before are saved too.
      const single = await b.open('#/model?view=single&model=diff_v1&ckpt=2');
      await single.waitForFunction(() => document.querySelector('#model-status')?.dataset.status === 'ready' && document.querySelectorAll('#predictions li').length > 0, null, { timeout: 30_000 });
      const lab = await b.open('#/lab?n=64');
      await lab.waitForFunction(() => document.querySelector('#snr-diff')?.dataset.value, null, { timeout: 30_000 });
      await lab.screenshot({ path: artifact(`offline-lab-${mode}.png`) });
      await single.close();
      await lab.close();

      // A new deploy on the same address: a changed page and so a new worker.
      fs.cpSync(DIST, next, { recursive: true });
      const html = fs.readFileSync(path.join(next, 'index.html'), 'utf8');
      fs.writeFileSync(path.join(next, 'index.html'), html.replace('<title>', '<title>Next deploy: '));
      const newer = `${version(DIST).slice(0, 8)}00000000`;
      fs.writeFileSync(path.join(next, 'sw.js'), fs.readFileSync(path.join(next, 'sw.js'), 'utf8').replace(version(DIST), newer));
      ({ server: nextServer } = await serve(next, '/difflens/', port));
      await page.reload();
      await page.waitForFunction(comparing, null, { timeout: 30_000 });
      assert.match(await page.title(), /^Next deploy: /, 'no stale page after a deploy');
      await page.waitForFunction((v) => caches.keys().then((k) => k.length === 1 && k[0] === `difflens-${v}`), newer, { timeout: 60_000, polling: 250 });

      // The new deploy is what opens offline now.
      down(nextServer);
      await page.reload();
      await page.waitForFunction(comparing, null, { timeout: 30_000 });
      assert.match(await page.title(), /^Next deploy: /);
      assert.deepEqual(b.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to fetch|Failed to load resource/.test(e)), [], 'no errors in the console');
    } finally {
      if (nextServer?.listening) down(nextServer);
      await b.stop();
      fs.rmSync(next, { recursive: true, force: true });
    }
  });
}
