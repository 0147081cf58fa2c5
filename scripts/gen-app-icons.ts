/**
 * Renders the app's SVG logo (apps/web/public/favicon.svg) to the PNG icons the web app manifest lists
 * (Chromium installs an app only with 192x192 and 512x512 PNG icons). Run after changing the logo:
 *   npx tsx scripts/gen-app-icons.ts
 * The PNGs are committed, so the build needs no browser.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const publicDir = join(new URL('..', import.meta.url).pathname, 'apps/web/public');
const svg = readFileSync(join(publicDir, 'favicon.svg'), 'utf8');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
    );
    await page.screenshot({
      path: join(publicDir, 'icons', `icon-${size}.png`),
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    await page.close();
  }
} finally {
  await browser.close();
}
