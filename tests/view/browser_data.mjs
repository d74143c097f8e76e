/* SPDX-License-Identifier: BSD-3-Clause */
// The numbers a person takes out of hpcdb view, in Debian's chromium: the CSV
// is every row of the view (report --csv's columns and values), no value
// reads -0.000, the flat view is load module > file > function > loop > line
// and each row holds its children's cost,
// Find reaches every match, Hide moves the hidden cost to the row above, the
// profiles by group (report --view profiles' figures, zeros left out, a group's tree; in every view);
// screenshots into OUTDIR. Usage: node browser_data.mjs HPCDB SAMPLES OUTDIR
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [hpcdb, samples, out] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const v4 = `${samples}/hpctoolkit-v4`;
let failed = 0;
const check = (cond, what) => { if (!cond) { failed++; console.log(`FAILED: ${what}`); } };

function serve(path) {
  return new Promise((resolve, reject) => {
    const p = spawn(hpcdb, ['view', '--port', '0', '--no-browser', path], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: p.stdout }).once('line', (line) => {
      const m = line.match(/^hpcdb view: (http:\/\/\S+)$/);
      if (!m) { p.kill(); reject(new Error(`hpcdb view printed ${line}`)); } else resolve({ proc: p, url: m[1] });
    });
  });
}

const idle = (page) => page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('Loading'));
const status = (page) => page.$eval('#status', (e) => e.textContent);

// The rows in the DOM: name, inclusive and exclusive as shown, depth, and whether a match or selected.
const shownRows = (page) => page.$$eval('#tree tbody tr[data-node]', (trs) => trs.map((tr) => ({
  node: tr.dataset.node, name: tr.cells[0].textContent.slice(1), inc: tr.cells[1].textContent, exc: tr.cells[2].textContent,
  depth: Math.round(parseFloat(tr.cells[0].style.paddingLeft) / 1.2), twisty: tr.querySelector('.twisty').textContent.trim(),
  hit: tr.classList.contains('hit'), selected: tr.classList.contains('selected') })));

// A page on a server of path, at the URL's state (hash).
async function open(browser, path, hash = '') {
  const { proc, url } = await serve(path);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page.on('pageerror', (e) => check(false, `${path}: script error ${e.message}`));
  await page.goto(`${url}${hash}`);
  await idle(page);
  return { page, proc };
}

async function csvDownload(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
  await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('CSV'));
  return readFileSync(await download.path(), 'utf8');
}

// How many rows the view has (every node below the root, the root too), asked of the server.
const viewRows = (page, view, metric) => page.evaluate(async ({ view, metric }) => {
  const ask = async (node) => (await fetch(`/api/children?view=${view}&node=${node}&limit=10000&metric=${encodeURIComponent(metric)}`)).json();
  let n = 0;
  const walk = async (node) => { n++; for (const r of (await ask(node)).rows) await (r.children ? walk(r.node) : n++); };
  await walk(0);
  return n;
}, { view, metric });

// 2: the CSV holds every row of the view, as report --csv prints them
async function csv(browser) {
  const db = `${v4}/lmp-openmp`, metric = 'REALTIME (sec)';
  const { page, proc } = await open(browser, db);
  try {
    const report = execFileSync(hpcdb, ['report', '--csv', '--threshold', '1e-7', '--metric', metric, db], { encoding: 'utf8' });
    const got = await csvDownload(page);
    check(got === report, `top-down CSV = report --csv (${got.split('\n').length - 2} rows, report ${report.split('\n').length - 2})`);
    check((await shownRows(page)).length < 10, 'the page had loaded a few rows only');
    await page.click('#views button[data-view="bottom-up"]');
    await idle(page);
    const rows = (await csvDownload(page)).trim().split('\n');
    const want = await viewRows(page, 'bottom-up', metric);
    check(rows.length - 1 === want && rows[0].startsWith('depth,context,name,"REALTIME (sec)" inclusive,"REALTIME (sec)" percent'),
          `bottom-up CSV: ${rows.length - 1} rows, the view has ${want}`);
    check(/^1,,"/.test(rows[2]) && (await status(page)).startsWith(`CSV: ${want} rows`), `callers in the CSV, the status says so: ${await status(page)}`);
  } finally { proc.kill('SIGTERM'); }
}

// 9: no -0.000 anywhere (ping-pong's exclusive values by subtraction); 4: a module holds its functions
async function numbers(browser) {
  const { page, proc } = await open(browser, `${v4}/ping-pong-mpi`, '#view=bottom-up&pct=0');
  try {
    const negZero = (rows) => rows.filter((r) => /^-0[.0]*( |%|$)/.test(r.inc) || /^-0[.0]*( |%|$)/.test(r.exc));
    const bottom = await shownRows(page);
    check(bottom.length > 10 && negZero(bottom).length === 0, `bottom-up: no -0 (${negZero(bottom).map((r) => `${r.name} ${r.exc}`).join(', ')})`);
    const json = await page.evaluate(async () => (await fetch('/api/children?view=bottom-up&node=0&limit=10000')).text());
    check(!/[[,]-0[,\]]/.test(json), 'no -0 in the JSON');
    await page.click('#views button[data-view="flat"]');
    await idle(page);
    const flat = await shownRows(page);
    const mpi = flat.find((r) => r.name === 'libmpi.so.12.1.1');
    check(negZero(flat).length === 0, 'flat: no -0');
    check(mpi && mpi.inc === '262.070 ms' && mpi.exc === '41.047 ms', `flat: libmpi's inclusive is its outermost frames' (${mpi && mpi.inc})`);
    const levels = await page.evaluate(async () => {
      const ask = async (node) => (await fetch(`/api/children?view=flat&node=${node}&limit=10000`)).json();
      const bad = [], paths = [];
      const walk = async (row, path) => {
        if (!row.children) { paths.push(path); return; }
        for (const k of (await ask(row.node)).rows) {
          if (row.node && k.values[0][0] > row.values[0][0] * (1 + 1e-12)) bad.push(`${row.name} < ${k.name}`);
          await walk(k, [...path, k.name]);
          if (k.name === 'loop at psm_queue.c:249') paths.open = [row.node, k.node];
        }
      };
      await walk({ node: 0, children: 1 }, []);
      return { bad, paths, open: paths.open };
    });
    check(levels.bad.length === 0, `flat: every row's inclusive at least its children's (${levels.bad.join(', ')})`);
    const deep = levels.paths.find((p) => p[0] === 'libmpi.so.12.1.1' && p[3] === 'loop at psm_queue.c:249');
    check(deep && deep[1] === 'psm_queue.c' && deep[2] === 'psm_progress_wait [libmpi.so.12.1.1]' && /^psm_queue\.c:\d+$/.test(deep.at(-1)),
          `flat: load module > file > function > loop > line (${deep && deep.join(' > ')})`);
    const open = await page.evaluate(async (n) => (await (await fetch(`/api/path?view=flat&node=${n}`)).json()).path, levels.open[1]);
    await page.goto(page.url().replace(/#.*$/, `#view=flat&open=${open.join(',')}`));
    await page.reload();
    await idle(page);
    const shown = await shownRows(page);
    check(shown.some((r) => r.name === 'loop at psm_queue.c:249' && r.depth === 4), 'the page shows the loop at depth 4');
    await page.screenshot({ path: `${out}/flat-levels.png` });
  } finally { proc.kill('SIGTERM'); }
}

// 10: Find: every match opened and counted, next / previous
async function find(browser) {
  const { page, proc } = await open(browser, `${v4}/lmp-openmp`);
  try {
    const total = await page.evaluate(async () => (await (await fetch('/api/search?re=cpp:&limit=1')).json()).total);
    await page.fill('#search', 'cpp:');
    await page.press('#search', 'Enter');
    await page.waitForFunction(() => /matches for/.test(document.querySelector('#status').textContent));
    const first = await status(page);
    const m = first.match(/^1 of (\d+) matches for \/cpp:\/( \(and (\d+) with no value\))?$/);
    const n = m ? Number(m[1]) : 0, none = m && m[3] ? Number(m[3]) : 0;
    check(m && total > 50 && n + none === total, `Find counts all ${total} matches: ${first}`);
    const sel = async () => (await shownRows(page)).find((r) => r.selected);
    const a = await sel();
    check(a && a.hit && a.name.includes('cpp:'), `the first match is selected (${a && a.name})`);
    await page.click('#find-next');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('2 of'));
    const b = await sel();
    check(b && b.hit && b.node !== a.node, 'next selects the second match');
    await page.click('#find-prev');
    await page.click('#find-prev');
    await page.waitForFunction((n) => document.querySelector('#status').textContent.startsWith(`${n} of`), n);
    const last = await sel();
    check(last && last.hit && last.depth > 2, `previous from the first wraps to the last match, opened deep in the tree (${last && last.name})`);
    await page.screenshot({ path: `${out}/find.png` });
  } finally { proc.kill('SIGTERM'); }
}

// 5: Hide's three modes, hpcviewer's exclusive filter: the hidden cost moves to the row above
async function hide(browser) {
  const { page, proc } = await open(browser, `${v4}/cpi-mpi`);
  try {
    const path = await page.evaluate(async () => (await (await fetch('/api/search?re=^cpi\\.c:52$&paths=1')).json()).hits[0].path);
    await page.goto(page.url().replace(/#.*$/, '') + `#open=${path.join(',')}`);
    await page.reload();
    await idle(page);
    const row = async (name) => (await shownRows(page)).find((r) => r.name === name);
    const before = { main: await row('main'), line: await row('cpi.c:52') };
    check(before.main && before.line && before.main.exc === '0', 'main and cpi.c:52 shown, main with no cost of its own');
    const mode = async (m) => {
      await page.fill('#hide', '^cpi\\.c:52$');
      await page.press('#hide', 'Enter');
      await page.selectOption('#hide-mode', m);
      await idle(page);
    };
    await mode('all');
    let main = await row('main');
    check(!(await row('cpi.c:52')) && !(await row('PMPI_Reduce [libmpi.so.40.30.1]')) && main.inc === before.main.inc &&
          main.exc === before.line.inc, `self and descendants: main's exclusive takes cpi.c:52's inclusive (${main.exc})`);
    await page.screenshot({ path: `${out}/hide-all.png` });
    await mode('self');
    main = await row('main');
    const lifted = await row('PMPI_Reduce [libmpi.so.40.30.1]');
    check(!(await row('cpi.c:52')) && lifted && lifted.depth === main.depth + 1 && main.exc === '0',
          `self only: cpi.c:52's children in its place, its exclusive (0) to main (${main.exc})`);
    await mode('children');
    const line = await row('cpi.c:52');
    check(line && line.exc === line.inc && line.twisty === '' && !(await row('PMPI_Reduce [libmpi.so.40.30.1]')),
          `descendants only: cpi.c:52 stays with its descendants' cost as its own (${line && line.exc})`);
    check(page.url().includes('hmode=children'), 'the mode is in the URL');
    await page.screenshot({ path: `${out}/hide-children.png` });
  } finally { proc.kill('SIGTERM'); }
}

// 3: the profiles by group of identity, zeros left out and counted, imbalance as report's; a group's tree
async function groups(browser) {
  const db = `${v4}/lmp-openmp`, metric = 'REALTIME (sec)';
  const { page, proc } = await open(browser, db);
  try {
    const pane = '#spread-body';
    const ready = (node) => page.waitForFunction(([sel, n]) => document.querySelector(sel).dataset.ready === n, [pane, String(node)]);
    const groupRows = () => page.$$eval(`${pane} table.groups tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    // <main thread>: the workers have no value there, and are left out, not averaged in
    const mainThread = await page.evaluate(async () => (await (await fetch('/api/search?re=^<main thread>$')).json()).hits[0].node);
    await page.click(`#tree tr[data-node="${mainThread}"] td.name`);
    await ready(mainThread);
    const byKind = await groupRows();
    const main = byKind.find((r) => r[0] === 'main threads'), workers = byKind.find((r) => r[0] === 'worker threads');
    check(main && main[1] === '4' && main[2] === '0' && Number(main[7].replace('×', '')) < 1.1,
          `main threads: 4 profiles, none zero, imbalance near 1 (${main})`);
    check(workers && workers[1] === '20' && workers[2] === '20' && workers[7] === '–', `worker threads: 20 with no value, no imbalance (${workers})`);
    check((await page.$eval(pane, (e) => e.textContent)).includes('20 with no value here, left out'), 'the pane says how many are left out');
    // the root by rank: each rank's figures are report --view profiles --profile rank=R's
    await page.selectOption(`${pane} select`, 'rank');
    await page.waitForFunction((sel) => document.querySelectorAll(`${sel} table.groups tbody tr`).length === 4, pane);
    await page.click('#tree tr[data-node="0"] td.name');
    await ready(0);
    const api = await page.evaluate(async (m) => (await fetch(`/api/groups?node=0&by=rank&metric=${encodeURIComponent(m)}`)).json(), metric);
    for (const g of api.groups) {
      const csv = execFileSync(hpcdb, ['report', '--view', 'profiles', '--csv', '--metric', metric, '--profile', g.selection, db], { encoding: 'utf8' });
      const want = Object.fromEntries(csv.trim().split('\n').filter((l) => l.startsWith('0,,')).map((l) => [l.split(',')[2].replace(/"/g, ''), Number(l.split(',')[3])]));
      const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.abs(b);
      check(close(g.min, want.min) && close(g.median, want.median) && close(g.mean, want.mean) && close(g.max, want.max) &&
            close(g.imbalance, want['imbalance (max / mean)']), `${g.name}: ${JSON.stringify(g)} is report's ${JSON.stringify(want)}`);
    }
    // the plots: every profile in rank order, labelled axes
    const ranked = await page.$$eval(`${pane} svg[aria-label="values in rank order"] circle title`, (ts) => ts.map((t) => t.textContent.split(':')[0]));
    const ranks = ranked.map((id) => Number(id.match(/RANK (\d+)/)[1]));
    check(ranked.length === 24 && ranks.every((r, i) => i === 0 || ranks[i - 1] <= r), `24 points in rank order (${ranked.slice(0, 3).join(', ')} …)`);
    const labels = await page.$$eval(`${pane} svg[aria-label="values in rank order"] text.label`, (ts) => ts.map((t) => t.textContent));
    check(labels.includes(metric) && labels.some((l) => l.startsWith('profiles by identity: ')), `axes labelled: ${labels.join(' | ')}`);
    await page.screenshot({ path: `${out}/groups.png` });
    // a group's row: that group's tree, as report --profile rank=1 prints it
    await page.click(`${pane} table.groups tr[data-group="RANK 1"]`);
    await idle(page);
    const root = (await shownRows(page))[0];
    const csv = execFileSync(hpcdb, ['report', '--csv', '--metric', metric, '--profile', 'rank=1', db], { encoding: 'utf8' });
    const want = await page.evaluate(async (v) => (await import('/assets/format.js')).value(v, 1), Number(csv.split('\n')[1].split(',')[3]));
    check(root.inc === want && (await page.$eval('#profile-name', (e) => e.textContent)) === 'RANK 1', `RANK 1's tree: root ${root.inc}, report ${want}`);
    await page.click('#copy');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('hpcdb '));
    check((await status(page)).includes("--profile 'rank=1'"), `copy as command names the group: ${await status(page)}`);
    await page.screenshot({ path: `${out}/group-tree.png` });
  } finally { proc.kill('SIGTERM'); }
}

// 3 in every view: a bottom-up or flat row over the profiles, each profile's value summed over the row's contexts
async function groupsInEveryView(browser) {
  const db = `${v4}/lmp-openmp`, metric = 'REALTIME (sec)';
  const { page, proc } = await open(browser, db);
  try {
    const pane = '#spread-body';
    for (const view of ['bottom-up', 'flat']) {
      await page.click(`#views button[data-view="${view}"]`);
      await idle(page);
      const row = (await shownRows(page))[1]; // the heaviest row under the root
      await page.click(`#tree tr[data-node="${row.node}"] td.name`);
      await page.waitForFunction(([sel, n]) => document.querySelector(sel).dataset.ready === n, [pane, row.node]);
      const api = await page.evaluate(async ([v, n, m]) => {
        const ask = async (path) => (await fetch(path)).json();
        const kids = await ask(`/api/children?view=${v}&node=0&limit=10000&metric=${encodeURIComponent(m)}`);
        return { groups: await ask(`/api/groups?view=${v}&node=${n}&by=kind&metric=${encodeURIComponent(m)}`),
                 inc: kids.rows.find((r) => String(r.node) === n).values[0][0] };
      }, [view, row.node, metric]);
      const sum = api.groups.values.reduce((s, v) => s + v[0], 0);
      check(api.groups.profiles === 24 && Math.abs(sum - api.inc) <= 1e-9 * Math.abs(api.inc),
            `${view} ${row.name}: the 24 profiles' values sum to ${sum}, the row's value ${api.inc}`);
      const text = await page.$eval(pane, (e) => e.textContent);
      check(!text.includes('top-down view') && (await page.$$(`${pane} table.groups tbody tr`)).length > 0 &&
            (await page.$$(`${pane} svg[aria-label="values in rank order"] circle`)).length === 24,
            `${view}: the pane shows the groups and every profile for ${row.name} (${text.slice(0, 120)})`);
      await page.screenshot({ path: `${out}/groups-${view}.png` });
    }
  } finally { proc.kill('SIGTERM'); }
}

async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    for (const t of [csv, numbers, find, hide, groups, groupsInEveryView]) {
      try { await t(browser); } catch (e) { check(false, `${t.name}: ${e.message}`); }
    }
  } finally { await browser.close(); }
  console.log(failed ? `${failed} failed` : 'passed');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log(e.stack); process.exit(1); });
