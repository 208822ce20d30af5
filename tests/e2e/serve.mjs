// A static server for dist/ under a sub-path, exactly as GitHub Pages serves a project
// site (https://user.github.io/difflens/). Used by the browser tests and serve.sh --dist.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.png': 'image/png', '.safetensors': 'application/octet-stream', '.svg': 'image/svg+xml' };

export function serve(root, base = '/difflens/', port = 0) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(base)) { res.writeHead(404); res.end('not under ' + base); return; }
    let rel = decodeURIComponent(url.pathname.slice(base.length)) || 'index.html';
    const file = path.join(root, path.normalize(rel).replace(/^(\.\.[/\\])+/, ''));
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}${base}` })));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root = 'dist', port = '8080'] = process.argv.slice(2);
  const { url } = await serve(root, '/difflens/', Number(port));
  console.log(`serving ${root} at ${url}`);
}
