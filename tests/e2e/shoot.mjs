// Screenshots for a person to look at: `node tests/e2e/shoot.mjs <mode> <hash> <name> [width height]`.
// PHONE=1: a 390 × 844 touch screen at twice the density; SEL=css: only that element.
import { start, artifact } from './harness.mjs';
const [mode, hash, name, w, h] = process.argv.slice(2);
const app = await start(mode, { phone: !!process.env.PHONE });
const page = await app.open(hash);
if (w) await page.setViewportSize({ width: Number(w), height: Number(h) });
await page.waitForTimeout(Number(process.env.WAIT || 2500));
if (process.env.CLICK) { for (const sel of process.env.CLICK.split(',')) { await page.click(sel); await page.waitForTimeout(Number(process.env.WAIT || 2500)); } }
if (process.env.SEL) await page.locator(process.env.SEL).first().screenshot({ path: artifact(name) });
else await page.screenshot({ path: artifact(name), fullPage: true });
console.log(app.errors.join('\n'));
await app.stop();
