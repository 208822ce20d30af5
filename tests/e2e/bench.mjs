// Runs the in-browser CPU benchmarks (#/bench) in headless Chromium and prints the JSON.
// Usage: node tests/e2e/bench.mjs [gpu|cpu]   (after a release build in dist/)
import fs from 'node:fs';
import { start, artifact } from './harness.mjs';

const mode = process.argv[2] || 'cpu';
const b = await start(mode);
const runs = [];
let webgpu = null;
for (let k = 0; k < 3; k++) {
  const page = await b.open('#/bench');
  await page.waitForFunction(() => document.querySelector('#bench-result')?.textContent.startsWith('{'), null, { timeout: 600_000 });
  const all = JSON.parse(await page.textContent('#bench-result'));
  runs.push(all.cpu);
  webgpu = all.webgpu;
  await page.close();
  if (mode === 'gpu') break; // the WebGPU part medians over its own repeats; one page is enough
}
await b.stop();
const pick = (f) => { const v = runs.map(f).sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
const summary = {
  mode,
  v1_forward_ms: pick((r) => r.v1_forward_ms),
  two_plain_attentions_ms: pick((r) => r.two_plain_attentions_ms),
  lab_cpu: runs[0].lab_cpu.map((_, i) => ({ n: runs[0].lab_cpu[i].n, full_ms: pick((r) => r.lab_cpu[i].full_ms), lambda_update_ms: pick((r) => r.lab_cpu[i].lambda_update_ms) })),
};
summary.ratio = summary.v1_forward_ms / summary.two_plain_attentions_ms;
summary.webgpu = webgpu;
fs.writeFileSync(artifact(`bench-browser-${mode}.json`), JSON.stringify(summary, null, 2));
console.log(JSON.stringify(summary, null, 2));
