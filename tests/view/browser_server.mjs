/* SPDX-License-Identifier: BSD-3-Clause */
// What the server tells the page, in Debian's chromium: the link with access
// (a colleague's fresh browser opens it, the token never in a request line),
// the Timeline link only for a database with trace events, an empty
// trace.db saying so, and a reader's warnings above the tree. Screenshots
// into OUTDIR.
// usage: node browser_server.mjs HPCDB SAMPLES OUTDIR
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const [hpcdb, samples, out] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
let failed = 0;
const check = (cond, what) => { if (!cond) { failed++; console.log(`FAILED: ${what}`); } };

function serve(path) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, XDG_CACHE_HOME: `${out}/cache` };
    const p = spawn(hpcdb, ['view', '--port', '0', '--no-browser', path], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stderr = '';
    p.stderr.on('data', (d) => { stderr += d; });
    createInterface({ input: p.stdout }).once('line', (line) => {
      const m = line.match(/^hpcdb view: (http:\/\/\S+)$/);
      if (!m) { p.kill(); reject(new Error(`hpcdb view printed ${line}`)); } else resolve({ proc: p, url: m[1], stderr: () => stderr });
    });
  });
}

// The trace index is built as the server starts: wait for it, so that /api/info knows.
async function traceOpened(url) {
  const u = new URL(url);
  for (let i = 0; i < 200; i++) {
    const r = await fetch(`${u.origin}/api/trace/info${u.search}`);
    if (r.status !== 503) return;
    await new Promise((res) => setTimeout(res, 50));
  }
}

const shown = (page) => page.waitForFunction(() => {
  const s = document.querySelector('#status').textContent;
  return s && !s.startsWith('Loading') && document.querySelector('#tree tr[data-node]');
});

async function sharing(browser) {
  const srv = await serve(`${samples}/hpctoolkit-v4/cpi-mpi`);
  try {
    const mine = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    await mine.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(srv.url).origin });
    const page = await mine.newPage();
    await page.goto(srv.url);
    await shown(page);
    await page.click('#views button[data-view="bottom-up"]');
    await shown(page);
    await page.click('#copy-link');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Link with access copied'));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const token = new URL(srv.url).searchParams.get('token');
    check(link.startsWith(`${new URL(srv.url).origin}/#token=${token}&`) && link.includes('view=bottom-up'),
      `the link carries the token in its fragment and the view's state: ${link}`);
    await page.screenshot({ path: `${out}/copy-link.png` });

    // a colleague: another browser, no cookie
    const theirs = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    const asked = [];
    theirs.on('request', (r) => asked.push(r.url()));
    const other = await theirs.newPage();
    const errors = [];
    other.on('pageerror', (e) => errors.push(e.message));
    await other.goto(link);
    await shown(other);
    const status = await other.$eval('#status', (e) => e.textContent);
    check(!status.startsWith('Error') && status.includes('bottom-up'), `the colleague's page shows the shared view: ${status}`);
    check(!other.url().includes(token), `the token leaves the address bar: ${other.url()}`);
    check(!asked.some((u) => u.includes(token)), `no request line carries the token: ${asked.filter((u) => u.includes(token))}`);
    check(errors.length === 0, `no script errors: ${errors}`);
    const again = await other.reload().then(() => shown(other)).then(() => other.$eval('#status', (e) => e.textContent));
    check(!again.startsWith('Error'), `a reload gets in with the cookie: ${again}`);
    await other.screenshot({ path: `${out}/colleague.png` });

    // a stranger: the page's files, but no data
    const stranger = await (await browser.newContext()).newPage();
    await stranger.goto(new URL(srv.url).origin + '/#view=bottom-up');
    await stranger.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Error'));
    check((await stranger.$eval('#status', (e) => e.textContent)).includes('token'), 'without the token: no data, and why');
  } finally {
    srv.proc.kill('SIGTERM');
  }
}

async function timelineLink(browser) {
  for (const [db, offered] of [['hpctoolkit-v4/ping-pong-mpi', true], ['hpctoolkit-v4/cpi-mpi', false],
    ['hpctoolkit-2022/empty-trace', false]]) {
    const srv = await serve(`${samples}/${db}`);
    try {
      await traceOpened(srv.url);
      const page = await (await browser.newContext({ viewport: { width: 1400, height: 800 } })).newPage();
      await page.goto(srv.url);
      await shown(page);
      check(await page.$eval('#timeline', (a) => !a.hidden) === offered, `${db}: the Timeline link ${offered ? 'offered' : 'not offered'}`);
      if (db.includes('empty')) { // its timeline's page, asked for directly
        await page.goto(new URL('/assets/trace/index.html', srv.url).href);
        await page.waitForFunction(() => document.querySelector('[data-test="status"]')?.textContent.includes('trace events'));
        check((await page.$eval('[data-test="status"]', (e) => e.textContent)) === 'this database has no trace events',
          'an empty trace.db: the timeline says it has no trace events');
        await page.screenshot({ path: `${out}/empty-trace.png` });
      }
    } finally {
      srv.proc.kill('SIGTERM');
    }
  }
}

// A database read with warnings (legacy cpi-mpi without its metric-db files): the page says them.
async function warnings(browser) {
  const db = `${out}/legacy-without-metric-db`;
  rmSync(db, { recursive: true, force: true });
  cpSync(`${samples}/hpctoolkit-legacy/cpi-mpi`, db, { recursive: true });
  for (const f of readdirSync(db)) if (f.endsWith('.metric-db')) rmSync(`${db}/${f}`);
  const srv = await serve(db);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 600 } })).newPage();
    await page.goto(srv.url);
    await shown(page);
    const text = await page.$eval('#warnings', (e) => (e.hidden ? '' : e.textContent));
    check(text.includes('warning: ') && text.includes('no *.metric-db files'), `the reader's warning is on the page: "${text}"`);
    await page.screenshot({ path: `${out}/warnings.png` });
  } finally {
    srv.proc.kill('SIGTERM');
  }
  const clean = await serve(`${samples}/hpctoolkit-v4/cpi-mpi`);
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(clean.url);
    await shown(page);
    check(await page.$eval('#warnings', (e) => e.hidden), 'no warnings: no warnings box');
  } finally {
    clean.proc.kill('SIGTERM');
  }
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  await sharing(browser);
  await timelineLink(browser);
  await warnings(browser);
} catch (e) {
  failed++;
  console.log(`FAILED: ${e.stack}`);
} finally {
  await browser.close();
}
console.log(failed ? `${failed} failed` : 'ok');
process.exit(failed ? 1 : 0);
