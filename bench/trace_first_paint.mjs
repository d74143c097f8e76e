/* SPDX-License-Identifier: BSD-3-Clause */
// First paint of the whole-run timeline: from starting the trace server
// (tests/trace/trace_serve, the routes hpcdb view will register) to the page
// saying its first tile is drawn, in Debian's chromium. Needs
// playwright-core: npm ci in tests/trace (or PLAYWRIGHT_DIR=tests/view).
// Usage: node bench/trace_first_paint.mjs TRACE_SERVE ASSETS DB
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const pw = process.env.PLAYWRIGHT_DIR || path.join(here, '../tests/trace'); // or tests/view (scripts/deps.sh --browser)
const { chromium } = createRequire(path.join(pw, 'package.json'))('playwright-core');
const [serve, assets, db] = process.argv.slice(2);
const t0 = performance.now();
const server = spawn(serve, [assets, db], { stdio: ['pipe', 'pipe', 'inherit'] });
const url = await new Promise((res) => createInterface({ input: server.stdout }).once('line', res));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url);
await page.waitForFunction(() => document.querySelector('#trace-view').dataset.state === 'ready', null, { timeout: 600000 });
const paint = performance.now() - t0;
const status = await page.locator('[data-test=status]').textContent();
console.log(`first paint of the whole run: ${(paint / 1000).toFixed(2)} s from the server's start (${status})`);
await browser.close();
server.stdin.end();
