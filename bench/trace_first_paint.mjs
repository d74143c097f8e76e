/* SPDX-License-Identifier: BSD-3-Clause */
// First paint of the whole-run timeline under `hpcdb view`, in Debian's chromium (1400 x 900 window).
// The browser is started first (an analyst's is already open; its start is printed apart), then for
// each case the clock starts when `hpcdb view` is spawned and stops when the page says its first tile
// is drawn. Cases, in this order each round, with XDG_CACHE_HOME=CACHE_HOME for the server:
//   none        no cache at all (first use): the index built; the pass keeps the default 2000 x 1000 tile
//   present     the index and the page's tile from the previous case in the cache
//   remembered  the index and kept tiles removed, the size the page asked remembered (viewer-first-tile):
//               the index built, and the pass keeps the page's own tile
//   present     again
// Needs playwright-core: npm ci in tests/trace (or PLAYWRIGHT_DIR=tests/view).
// Usage: node bench/trace_first_paint.mjs HPCDB DB CACHE_HOME [ROUNDS]
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const pw = path.resolve(process.env.PLAYWRIGHT_DIR || path.join(here, '../tests/trace')); // or tests/view (scripts/deps.sh --browser)
const { chromium } = createRequire(path.join(pw, 'package.json'))('playwright-core');
const [hpcdb, db, cacheHome, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg || 1);

const b0 = performance.now();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const warm = await context.newPage(); // a tab already open
console.log(`chromium started in ${((performance.now() - b0) / 1000).toFixed(2)} s (not counted below)`);

async function firstPaint(what) {
  const page = await context.newPage();
  const t0 = performance.now();
  const server = spawn(hpcdb, ['view', '--no-browser', '--port', '0', db], {
    stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
  const exited = new Promise((res) => server.once('exit', res));
  const first = await new Promise((res) => createInterface({ input: server.stdout }).once('line', res));
  const [, origin, token] = first.match(/(http:\/\/[^/ ]+)\/?(\?token=\w+)?/);
  await page.goto(`${origin}/assets/trace/index.html${token || ''}`);
  await page.waitForFunction(() => document.querySelector('#trace-view').dataset.state === 'ready', null, { timeout: 600000 });
  const paint = performance.now() - t0;
  const status = await page.locator('[data-test=status]').textContent();
  const tile = (status.match(/tile \d+×\d+ in \d+ ms/) || ['?'])[0];
  console.log(`first paint, ${what}: ${(paint / 1000).toFixed(2)} s from hpcdb view's start (the page's ${tile})`);
  await page.close();
  server.kill('SIGTERM');
  await exited;
}

const cacheDir = path.join(cacheHome, 'hpcdb');
for (let r = 0; r < rounds; r++) {
  rmSync(cacheHome, { recursive: true, force: true });
  await firstPaint('no cache at all (first use)');
  await firstPaint('cache present');
  for (const f of readdirSync(cacheDir)) if (f.startsWith('trace-')) rmSync(path.join(cacheDir, f));
  await firstPaint('no index, the page\'s size remembered');
  await firstPaint('cache present');
}
await warm.close();
await browser.close();
