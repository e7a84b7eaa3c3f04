// The installed app's icons (static/icon-192.png, static/icon-512.png), drawn from
// static/icon.svg by headless Chromium on the page's background, the mark inside the
// maskable safe zone (the middle 80%). Run once when the icon changes:
//   node scripts/browser/app-icons.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const staticDir = join(dirname(fileURLToPath(import.meta.url)), '../../crates/sowing-web/static');
const svg = readFileSync(join(staticDir, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const mark = Math.round(size * 0.8);
  await page.setContent(`<body style="margin:0;background:#f2eee6;display:grid;place-items:center;width:${size}px;height:${size}px">`
    + svg.replace('<svg ', `<svg width="${mark}" height="${mark}" `));
  writeFileSync(join(staticDir, `icon-${size}.png`), await page.screenshot({ omitBackground: false }));
  await page.close();
}
await browser.close();
