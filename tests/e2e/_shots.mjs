import { start, artifact } from './harness.mjs';
for (const phone of [false, true]) {
  const b = await start('cpu', { phone });
  const page = await b.open('#/lab?lambda=0.8&n=512');
  await page.waitForFunction(() => document.querySelector('#map-diff-summary')?.textContent.length > 0, null, { timeout: 30000 });
  await page.click('#map-diff details.as-table > summary');
  await page.waitForTimeout(800);
  const el = await page.$('#map-diff');
  await el.screenshot({ path: artifact(`a11y-lab-diff-${phone ? 'phone' : 'desktop'}.png`) });
  console.log('LAB', await page.$$eval('.map-summary, .chart-summary', (e) => e.map((x) => x.id + ': ' + x.textContent).join('\n')));
  const t = await b.open('#/text');
  await t.waitForFunction(() => document.querySelector('.map-summary')?.textContent.length > 0, null, { timeout: 60000 });
  console.log('TEXT', await t.$$eval('.map-summary, .chart-summary', (e) => e.map((x) => x.id + ': ' + x.textContent).join('\n')));
  const m = await b.open('#/model?view=compare');
  await m.waitForFunction(() => document.querySelector('.map-summary')?.textContent.length > 0, null, { timeout: 60000 });
  await m.waitForTimeout(1500);
  console.log('MODEL', await m.$$eval('.map-summary, .chart-summary', (e) => e.map((x) => x.id + ': ' + x.textContent).join('\n')));
  await m.screenshot({ path: artifact(`a11y-model-${phone ? 'phone' : 'desktop'}.png`), fullPage: false });
  await b.stop();
  if (phone) break;
}
