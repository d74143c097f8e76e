/* SPDX-License-Identifier: BSD-3-Clause */
// First paint of hpcdb view's top-down tree in Debian's chromium: from
// navigation to the first rows on screen. Usage: node view_paint.mjs URL
import { createRequire } from 'node:module';
const require = createRequire(new URL('../tests/view/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const url = process.argv[2];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage();
const t0 = Date.now();
await page.goto(url);
await page.waitForSelector('#tree tbody tr[data-node]');
const t1 = Date.now();
console.log(`first paint of the top-down tree (browser already running): ${((t1 - t0) / 1000).toFixed(3)} s`);
await browser.close();
