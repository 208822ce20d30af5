// Trunk's post_build hook: writes the service worker (www/sw.js) into the build with the
// list of files to save for offline use and a version that is a digest of all of them,
// so that any change to the app, its wasm or a shipped model makes a new worker.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('offline-manifest: TRUNK_STAGING_DIR is not set (run it as a Trunk hook)');

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : [full];
  });
}

const files = walk(staging).map((f) => path.relative(staging, f).split(path.sep).join('/')).filter((f) => f !== 'sw.js').sort();
const digest = crypto.createHash('sha256');
for (const f of files) digest.update(f).update('\0').update(fs.readFileSync(path.join(staging, f))).update('\0');
digest.update(fs.readFileSync(path.join(root, 'www/sw.js')));
const version = digest.digest('hex').slice(0, 16);
// The text models' earlier checkpoints (the scrubber's) are saved when first opened, not
// at install: five checkpoints of three models would be ~20 MB on a phone. The final
// checkpoint of each (the highest step) is saved at install like every other file.
const finalStep = new Map();
for (const f of files) {
  const m = f.match(/^(text-models\/[^/]+)\/step-(\d+)\.safetensors$/);
  if (m && Number(m[2]) >= (finalStep.get(m[1]) ?? -1)) finalStep.set(m[1], Number(m[2]));
}
const saved = files.filter((f) => {
  const m = f.match(/^(text-models\/[^/]+)\/step-(\d+)\.safetensors$/);
  return !m || Number(m[2]) === finalStep.get(m[1]);
});
// The site's root ('./') is what a visitor opens; index.html is the same page.
const list = ['./', ...saved];
const worker = fs.readFileSync(path.join(root, 'www/sw.js'), 'utf8')
  .replace("'__VERSION__'", () => JSON.stringify(version))
  .replace('__FILES__', () => JSON.stringify(list, null, 1));
fs.writeFileSync(path.join(staging, 'sw.js'), worker);
console.log(`offline-manifest: sw.js saves ${list.length} files as version ${version}`);
