/* SPDX-License-Identifier: BSD-3-Clause */
// Clicks through hpcdb view in Debian's chromium and checks what a person
// sees: the tables against `hpcdb report` (first 50 rows), sorting,
// expanding, search, hot path, zoom, formula, source pane, distribution,
// reload restoring the state; screenshots light and dark into OUTDIR.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const [hpcdb, samples, out, makeWide] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
let failed = 0;
const check = (cond, what) => { if (!cond) { failed++; console.log(`FAILED: ${what}`); } };

function serve(path) {
  return new Promise((resolve, reject) => {
    const p = spawn(hpcdb, ['view', '--port', '0', '--no-browser', path], { stdio: ['ignore', 'pipe', 'inherit'] });
    const rl = createInterface({ input: p.stdout });
    rl.once('line', (line) => {
      const m = line.match(/^hpcdb view: (http:\/\/\S+)$/);
      if (!m) { p.kill(); reject(new Error(`hpcdb view printed ${line}`)); } else resolve({ proc: p, url: m[1] });
    });
  });
}

// report's CSV rows: [depth, name, inclusive, exclusive] of the first 50
function report(path, view, metric) {
  const csv = execFileSync(hpcdb, ['report', '--view', view, '--metric', metric, '--csv', path], { encoding: 'utf8' });
  return csv.trim().split('\n').slice(1, 51).map((line) => {
    const m = line.match(/^(\d+),[^,]*,"((?:[^"]|"")*)",([^,]*),[^,]*,([^,]*)/);
    return [Number(m[1]), m[2].replace(/""/g, '"'), Number(m[3]), Number(m[4])];
  });
}

// The rows in the DOM now (the window of the virtualised table), with their index in the open rows.
async function windowRows(page) {
  return page.$$eval('#tree tbody tr[data-node]', (trs) => trs.map((tr) => ({
    i: Number(tr.dataset.i), node: tr.dataset.node, depth: parseFloat(tr.cells[0].style.paddingLeft) / 1.2,
    name: tr.cells[0].textContent.slice(1), inc: tr.cells[1].textContent, exc: tr.cells[2].textContent,
    hit: tr.classList.contains('hit'), selected: tr.classList.contains('selected') })));
}

const settled = (page) => page.evaluate(async () => { // the window drawn and its rows fetched
  for (let t = 0; t < 500; t++) {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    if (!document.querySelector('#tree tr.pending')) return;
  }
});

// Every open row, as a person sees them scrolling the table from top to bottom.
async function rows(page) {
  const pane = await page.$('#tree-pane');
  const keep = await pane.evaluate((p) => p.scrollTop);
  const seen = new Map();
  for (let y = 0; ; ) {
    await pane.evaluate((p, y) => { p.scrollTop = y; }, y);
    await settled(page);
    for (const r of await windowRows(page)) seen.set(r.i, r);
    const [top, height, full] = await pane.evaluate((p) => [p.scrollTop, p.clientHeight, p.scrollHeight]);
    if (top + height >= full - 1) break;
    y = top + height / 2;
  }
  await pane.evaluate((p, y) => { p.scrollTop = y; }, keep);
  await settled(page);
  return [...seen.keys()].sort((a, b) => a - b).map((i) => seen.get(i));
}

const idle = (page) => page.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('Loading'));

async function parity(page, path, view, metric, seconds) {
  // the page opens every node report shows (report folds below 1%: those rows are skipped)
  const want = report(path, view, metric).filter((r) => !r[1].startsWith('['));
  const got = await rows(page);
  const fmt = await page.evaluate(async () => (await import('/assets/format.js')).value.toString());
  check(fmt.length > 0, 'format.js loads');
  const same = await page.evaluate(({ want, seconds }) => import('/assets/format.js').then((f) =>
    want.map((r) => [r[1], f.value(r[2], seconds), f.value(r[3], seconds)])), { want, seconds });
  const shown = new Map(); // name|inclusive|exclusive -> how many rows show it
  for (const g of got) { const k = `${g.name}|${g.inc}|${g.exc}`; shown.set(k, (shown.get(k) || 0) + 1); }
  let matched = 0;
  for (const [name, inc, exc] of same) {
    const k = `${name}|${inc}|${exc}`;
    if (shown.get(k)) { matched++; shown.set(k, shown.get(k) - 1); } else console.log(`  ${view}: report row ${name} ${inc} ${exc} not shown`);
  }
  check(matched === same.length, `${path} ${view}: ${matched} of ${same.length} report rows shown with the same values`);
}

async function openAll(page, view) {
  // the nodes report prints open (top-down: those holding at least 1% of the total, as report folds the
  // rest; the other views: every row with rows under it), asked of the server as the page asks; then one reload: the URL holds them
  const nodes = await page.evaluate(async (view) => {
    const open = [];
    const metric = document.querySelector('#metric').value;
    const ask = async (node) => (await fetch(`/api/children?view=${view}&node=${node}&limit=10000&metric=${encodeURIComponent(metric)}`)).json();
    const first = await ask(0);
    const total = first.metrics[0].total;
    const walk = async (r) => {
      for (const row of r.rows) {
        if (!row.children) continue;
        if (view === 'top-down' && (row.values[0][0] === 0 || row.values[0][0] < 0.01 * total)) continue;
        open.push(row.node);
        await walk(await ask(row.node));
      }
    };
    await walk(first);
    return open;
  }, view);
  await page.evaluate((nodes) => {
    const h = new URLSearchParams(location.hash.slice(1));
    h.set('open', nodes.join(','));
    location.hash = h.toString();
  }, nodes);
  await page.reload();
  await idle(page);
}

// The three tables of other samples (older formats, Cube) against report, every node open.
async function otherSamples(browser) {
  const paths = ['hpctoolkit-2022/ping-pong-mpi', 'hpctoolkit-legacy/cpi-mpi', 'hpctoolkit-v4/lmp-openmp']
    .map((p) => `${samples}/${p}`).filter(existsSync);
  if (existsSync(`${samples}/cube`))
    for (const f of readdirSync(`${samples}/cube`).sort()) if (f.endsWith('.cubex')) paths.push(`${samples}/cube/${f}`);
  for (const path of paths) {
    const { proc, url } = await serve(path);
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(url);
      await idle(page);
      const metric = await page.$eval('#metric', (s) => s.value);
      for (const view of ['top-down', 'bottom-up', 'flat']) {
        if (view !== 'top-down') {
          await page.click(`#views button[data-view="${view}"]`);
          await idle(page);
          if (!page.url().includes('sort=exclusive')) await page.click('th[data-sort="exclusive"]');
          await idle(page);
        }
        await openAll(page, view);
        const seconds = await page.evaluate(async (m) => (await (await fetch('/api/info')).json()).databases[0].metrics.find((x) => x && x.name === m).seconds, metric);
        await parity(page, path, view, metric, seconds);
      }
      await page.close();
    } finally { proc.kill('SIGTERM'); }
  }
  console.log(`report parity in the browser on ${paths.length} more samples`);
}

// The top rows (depth 1) the server gives for a metric and sort, names in order.
const serverOrder = (page, args) => page.evaluate(async (args) =>
  (await (await fetch(`/api/children?${new URLSearchParams({ node: 0, limit: 10000, ...args })}`)).json()).rows.map((r) => r.name), args);
const topNames = async (page) => (await rows(page)).filter((r) => r.depth === 1).map((r) => r.name);

// Several metric columns: a second one shown, sorted by, in %, hidden again.
async function columnsCheck(page) {
  await page.fill('#formula', '0 - "CPUTIME (sec)"');
  await page.press('#formula', 'Enter');
  await page.waitForFunction(() => document.querySelector('#metric').value === '0 - "CPUTIME (sec)"');
  await idle(page);
  await page.click('#columns summary');
  await page.check('#columns-list input[value="CPUTIME (sec)"]');
  await idle(page);
  const heads = await page.$$eval('#tree thead th', (ths) => ths.map((th) => th.textContent));
  check(heads.length === 5 && heads[3].startsWith('CPUTIME (sec)'), `two metrics, inclusive and exclusive each: ${heads.join(' | ')}`);
  const root = await page.$eval('#tree tbody tr[data-node]', (tr) => [...tr.cells].map((c) => c.textContent));
  check(root[1] === '-0.326' && root[3] === '325.975 ms', `the root shows both metrics: ${root.join(' | ')}`);
  await page.screenshot({ path: `${out}/columns-light.png` });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
  const csv = readFileSync(await download.path(), 'utf8').split('\n');
  check(csv[0] === 'depth,context,name,"0 - ""CPUTIME (sec)""" inclusive,"0 - ""CPUTIME (sec)""" percent,"0 - ""CPUTIME (sec)""" exclusive,' +
        '"CPUTIME (sec)" inclusive,"CPUTIME (sec)" percent,"CPUTIME (sec)" exclusive' &&
        /^0,0,"<program root>",-0.32597\d*,100.00,0,0.32597\d*,100.00,0$/.test(csv[1]), `CSV with both metrics: ${csv[0]} / ${csv[1]}`);
  // the chooser still open: the second metric's headers are in sight (the point at their middle is theirs) and take the click
  const inSight = await page.$$eval('#tree th[data-m="1"]', (ths) => ths.length === 2 && document.querySelector('#columns').open &&
    ths.every((th) => { const r = th.getBoundingClientRect(); return th.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }));
  check(inSight, 'with the Columns chooser open, the second metric\'s headers are not covered');
  await page.screenshot({ path: `${out}/columns-open-light.png` });
  await page.click('#tree th[data-m="1"][data-sort="exclusive"]', { timeout: 5000 });
  await page.waitForFunction(() => document.querySelector('#tree th.sorted[data-m="1"][data-sort="exclusive"]'));
  await idle(page);
  await page.click('#columns summary');
  await page.waitForFunction(() => !document.querySelector('#columns').open);
  check(page.url().includes('sortm=CPUTIME') && page.url().includes('sort=exclusive'), 'sorting by the second metric is in the URL');
  check(await page.$eval('#tree th.sorted', (th) => th.dataset.m === '1' && th.dataset.sort === 'exclusive'), 'its header is marked sorted');
  const want = await serverOrder(page, { metric: 'CPUTIME (sec)', sort: 'exclusive' });
  const got = await topNames(page);
  check(JSON.stringify(got) === JSON.stringify(want), `the rows follow the second metric's exclusive values: ${got.slice(0, 4)}`);
  await page.check('#pct');
  await idle(page);
  const pct = await page.$eval('#tree tbody tr[data-node]', (tr) => [...tr.cells].map((c) => (c.querySelector('.pct') || c).textContent));
  check(pct[1] === '100%' && pct[3] === '100%', `% of each metric's total, beside the value: ${pct.join(' | ')}`);
  await page.uncheck('#pct');
  await page.click('#columns summary');
  await page.uncheck('#columns-list input[value="CPUTIME (sec)"]');
  await page.click('#columns summary');
  await idle(page);
  check((await page.$$('#tree thead th')).length === 3 && !page.url().includes('cols='), 'hiding the metric again');
  await page.selectOption('#metric', 'CPUTIME (sec)');
  await idle(page);
  await page.click('#tree th[data-sort="inclusive"]');
  await idle(page);
  check(!page.url().includes('sort'), 'back to the first metric, inclusive');
}

// Flatten in the flat view: the load modules replaced by their files, then by their functions, ...
// each step sorted together, until no row has children; and back.
async function flattenCheck(page) {
  await page.click('#views button[data-view="flat"]');
  await idle(page);
  const modules = await topNames(page);
  check(await page.isVisible('#flatten') && await page.isDisabled('#unflatten'), 'Flatten is offered in the flat view');
  // the rows after `steps` flattenings, asked of the server: each row with children replaced by them
  const expected = (steps) => page.evaluate(async (steps) => {
    const ask = async (node) => (await (await fetch(`/api/children?view=flat&node=${node}&limit=10000`)).json()).rows;
    let rows = await ask(0);
    for (let k = 0; k < steps; k++) {
      const next = [];
      for (const r of rows) for (const c of r.children ? await ask(r.node) : [r]) next.push(c);
      rows = next;
    }
    return rows.map((f) => [f.name, f.values[0][0]]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((f) => f[0]);
  }, steps);
  let steps = 0;
  for (;;) {
    await page.click('#flatten');
    await idle(page);
    if (!page.url().includes(`flat=${steps + 1}`)) break; // no row has children: nothing more to flatten
    steps++;
    const want = await expected(steps), got = await topNames(page);
    check(JSON.stringify(got) === JSON.stringify(want), `flatten ${steps}: the ${want.length} rows, largest first (${got.slice(0, 3)})`);
    if (steps === 2) await page.screenshot({ path: `${out}/flat-flattened-light.png` });
  }
  check(steps >= 3 && page.url().includes(`flat=${steps}`), `flatten goes file, function, ... and stops where no row has children (${steps} steps)`);
  for (; steps > 0; steps--) {
    await page.click('#unflatten');
    await idle(page);
  }
  check(!page.url().includes('flat=') && JSON.stringify(await topNames(page)) === JSON.stringify(modules), 'unflatten shows the modules again');
  await page.click('#views button[data-view="top-down"]');
  await idle(page);
}

// A node with 100k children: it opens with one page, the DOM holds a window of
// rows, scrolling shows the right ones (fetched as they come into sight), and
// the keyboard reaches the last row.
async function wide(browser) {
  const n = 100000, db = `${out}/wide.d`, ROW = 22;
  execFileSync(makeWide, [db, String(n)]);
  const { proc, url } = await serve(db);
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(url);
    await idle(page);
    const main = (await windowRows(page))[1];
    const t0 = Date.now();
    await page.click(`#tree tr[data-node="${main.node}"] .twisty`);
    await idle(page);
    await settled(page);
    console.log(`opening a node with ${n} children: ${Date.now() - t0} ms in the browser`);
    const expect = (i) => `wide.c:${n - i + 2}`; // rows 0 and 1: the root and the main thread; then the largest first
    const dom = async () => page.$$eval('#tree tbody tr', (trs) => trs.length);
    const full = await page.$eval('#tree-pane', (p) => p.scrollHeight);
    check(full >= (n + 2) * ROW && full < (n + 4) * ROW + 200, `the scroll height holds ${n + 2} rows (${full} px)`);
    check(await dom() < 100, `after opening, the DOM holds ${await dom()} rows`);
    // what a person sees at the top of the pane, after scrolling to the middle and near the end
    const topRow = () => page.evaluate((half) => {
      const p = document.querySelector('#tree-pane'), r = p.getBoundingClientRect();
      const tr = document.elementFromPoint(r.left + 100, r.top + document.querySelector('#tree thead').offsetHeight + half).closest('tr');
      return [Number(tr.dataset.i), tr.cells[0].textContent.slice(1)];
    }, ROW / 2);
    for (const at of [50000, 99900, 777]) {
      await page.$eval('#tree-pane', (p, y) => { p.scrollTop = y; }, at * ROW);
      await settled(page);
      const [i, name] = await topRow();
      check(i === at && name === expect(at), `scrolled to row ${at}: the top row shows ${i} ${name} (expected ${expect(at)})`);
      const shown = await windowRows(page);
      check(shown.length < 100 && shown.every((r) => r.name === expect(r.i)), `around row ${at}: ${shown.length} rows in the DOM, each the right one`);
    }
    await page.screenshot({ path: `${out}/wide-light.png` });
    // keyboard: End selects the last row, which comes into sight; Up the one before; Home the root
    await page.click('#tree tbody tr[data-node] td.name');
    await page.keyboard.press('End');
    await page.waitForSelector('#tree tr.selected');
    await settled(page);
    let sel = await page.$eval('#tree tr.selected', (tr) => [Number(tr.dataset.i), tr.cells[0].textContent.slice(1)]);
    check(sel[0] === n + 1 && sel[1] === 'wide.c:1', `End selects the last row (${sel})`);
    await page.keyboard.press('ArrowUp');
    await settled(page);
    sel = await page.$eval('#tree tr.selected', (tr) => [Number(tr.dataset.i), tr.cells[0].textContent.slice(1)]);
    check(sel[0] === n && sel[1] === 'wide.c:2' && (await dom()) < 100, `ArrowUp selects the row before (${sel})`);
    await page.screenshot({ path: `${out}/wide-end-light.png` });
    // a shorter list while scrolled to the end (another view): its rows are drawn, not an empty window
    await page.click('#views button[data-view="flat"]');
    await idle(page);
    await settled(page);
    const flat = await windowRows(page);
    check(flat.length > 0 && flat[0].i === 0, `the flat view after scrolling to the end shows its ${flat.length} rows`);
    await page.click('#views button[data-view="top-down"]'); // the open nodes are the view's: main is closed again
    await idle(page);
    await page.click(`#tree tr[data-node="${main.node}"] .twisty`);
    await idle(page);
    await page.click('#tree tbody tr[data-node] td.name');
    await page.keyboard.press('End');
    await page.waitForSelector(`#tree tr.selected[data-i="${n + 1}"]`);
    await page.keyboard.press('Home');
    await settled(page);
    check(await page.$eval('#tree tr.selected', (tr) => tr.dataset.i) === '0', 'Home selects the root');
    await page.close();
  } finally { proc.kill('SIGTERM'); }
}

async function main() {
  const db = `${samples}/hpctoolkit-v4/cpi-mpi`;
  const { proc, url } = await serve(db);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await idle(page);
    const first = await rows(page);
    check(first[0].name === '<program root>' && first.length === 3, `top-down opens with the root and its children (${first.length} rows)`);
    const metric = await page.$eval('#metric', (s) => s.value);
    check(metric === 'CPUTIME (sec)', `the default metric is shown (${metric})`);

    // expand on click
    await page.click(`#tree tr[data-node="${first[1].node}"] .twisty`);
    await idle(page);
    check((await rows(page)).length > first.length, 'clicking the twisty expands the node');

    // parity with report, top-down (five levels open), bottom-up and flat
    await openAll(page, 'top-down');
    await parity(page, db, 'top-down', metric, 1);
    await page.screenshot({ path: `${out}/top-down-light.png` });
    for (const view of ['bottom-up', 'flat']) {
      await page.click(`#views button[data-view="${view}"]`);
      await idle(page);
      if (!page.url().includes('sort=exclusive')) await page.click('th[data-sort="exclusive"]');
      await idle(page);
      await openAll(page, view);
      await parity(page, db, view, metric, 1);
      await page.screenshot({ path: `${out}/${view}-light.png` });
    }

    // sorting: exclusive descending, then ascending
    await page.click('#views button[data-view="top-down"]');
    await idle(page);
    await page.click('th[data-sort="inclusive"]');
    await idle(page);
    await page.click('th[data-sort="exclusive"]');
    await idle(page);
    check(page.url().includes('sort=exclusive') && !page.url().includes('order=asc'), 'sorting by exclusive is in the URL');
    const byExc = (await rows(page)).slice(1);
    check(byExc.length > 1, 'rows sorted by exclusive');
    await page.click('th[data-sort="exclusive"]');
    await idle(page);
    check(page.url().includes('order=asc'), 'a second click sorts ascending');
    await page.click('th[data-sort="inclusive"]');
    await idle(page);
    check(!page.url().includes('sort=') && !page.url().includes('order='), 'back to inclusive, largest first');

    // hot path: selects the end of the path and opens it
    await page.click('#hot');
    await idle(page);
    const hot = await rows(page);
    const sel = hot.find((r) => r.selected);
    check(sel && hot.length > 5, `hot path opens the tree and selects its end (${sel ? sel.name : 'none'})`);

    // distribution and source pane of the selection
    await page.waitForSelector('#spread-body table.groups');
    const stats = await page.$eval('#spread-body .stats', (e) => e.textContent);
    check(/^16 profiles, inclusive CPUTIME \(sec\); \d+ with no value here/.test(stats), `distribution: ${stats}`);
    const cpi = hot.find((r) => r.name.startsWith('cpi.c:'));
    if (cpi) {
      await page.click(`#tree tr[data-node="${cpi.node}"] td.name`);
      await page.waitForSelector(`#source-body[data-ready="${cpi.node}"] .current`); // this selection's, not the hot path's
      const current = await page.$eval('#source-body .current', (e) => e.textContent);
      check(current.includes(cpi.name.slice(6)), `source pane highlights line ${cpi.name}`);
      const shown = await page.$eval('#source-body', (el) => {
        const a = el.getBoundingClientRect(), b = el.querySelector('.current').getBoundingClientRect();
        return b.top >= a.top && b.bottom <= a.bottom;
      });
      check(shown, 'the highlighted line is scrolled into the source pane');
      check(await page.$eval('#source-body', (e) => [...e.querySelectorAll('.margin')].some((m) => m.textContent)), 'per-line values in the margin');
    } else check(false, 'a cpi.c line on the hot path');
    await page.screenshot({ path: `${out}/selected-light.png` });

    // a point of the distribution: that profile's own tree, as report --profile prints it
    await page.click('#tree tr[data-node] td.name'); // the root: every profile has a value there
    const rootNode = await page.$eval('#tree tr[data-node]', (tr) => tr.dataset.node);
    await page.waitForSelector(`#spread-body[data-ready="${rootNode}"] svg[aria-label="sorted values"] circle`);
    const dots = await page.$$('#spread-body svg[aria-label="sorted values"] circle');
    await dots[dots.length - 1].click();
    await idle(page);
    const pname = await page.$eval('#profile-name', (e) => e.textContent);
    check(/RANK \d+/.test(pname) && page.url().includes('profile='), `clicking a point shows profile ${pname}`);
    const own = await rows(page);
    const csv = execFileSync(hpcdb, ['report', '--csv', '--metric', metric, '--profile', pname, db], { encoding: 'utf8' });
    const rootInc = Number(csv.split('\n')[1].split(',')[3]);
    const shownRoot = await page.evaluate(({ v }) => import('/assets/format.js').then((f) => f.value(v, 1)), { v: rootInc });
    check(own[0].inc === shownRoot, `the profile's root shows ${own[0].inc}, report --profile ${shownRoot}`);
    await page.screenshot({ path: `${out}/profile-light.png` });
    await page.click('#all-profiles');
    await idle(page);
    check(!page.url().includes('profile='), 'back to all profiles');

    // zoom into the selection and back
    if (cpi) await page.click(`#tree tr[data-node="${cpi.node}"] td.name`);
    await page.click('#zoom');
    await idle(page);
    const zoomed = await rows(page);
    check(zoomed[0].name === (cpi ? cpi.name : zoomed[0].name) && page.url().includes('zoom='), 'zoom shows the subtree');
    await page.click('#unzoom');
    await idle(page);
    check((await rows(page))[0].name === '<program root>', 'unzoom returns to the root');

    // search: hits highlighted and opened
    await page.fill('#search', '^PMPI_');
    await page.press('#search', 'Enter');
    await page.waitForFunction(() => /^1 of \d+ matches for/.test(document.querySelector('#status').textContent));
    check((await windowRows(page)).some((r) => r.hit), 'the first match is scrolled into the window');
    const afterSearch = await rows(page);
    const hits = afterSearch.filter((r) => r.hit);
    if (!hits.length) console.log(afterSearch.map((r) => r.name).join(' / '));
    check(hits.length > 0 && hits.every((h) => h.name.startsWith('PMPI_')), `search highlights ${hits.length} rows`);

    // name filters: hide a node with its subtree, or hide it and lift its children
    await page.fill('#search', '');
    await page.press('#search', 'Enter');
    await idle(page);
    const shown = await rows(page);
    await page.fill('#hide', '^main$');
    await page.press('#hide', 'Enter');
    await idle(page);
    const hidden = await rows(page);
    check(!hidden.some((r) => r.name === 'main' || r.name.startsWith('cpi.c:')), 'hide removes main and its subtree');
    await page.fill('#hide', '');
    await page.press('#hide', 'Enter');
    await page.fill('#hide', '^main$');
    await page.press('#hide', 'Enter');
    await page.selectOption('#hide-mode', 'self');
    await idle(page);
    const lifted = await rows(page);
    const thread = shown.find((r) => r.name === '<main thread>'), line = lifted.find((r) => r.name.startsWith('cpi.c:'));
    check(!lifted.some((r) => r.name === 'main') && line && thread && line.depth === thread.depth + 1,
          `lift shows main's children in its place (${line ? line.depth : '-'} under ${thread ? thread.depth : '-'})`);
    check(page.url().includes('hide=%5Emain%24') && page.url().includes('hmode=self'), 'the filter is in the URL');
    await page.fill('#hide', '');
    await page.press('#hide', 'Enter');
    await page.selectOption('#hide-mode', 'all');
    await idle(page);

    // a derived metric
    await page.fill('#formula', '"CPUTIME (sec)" * 1000');
    await page.press('#formula', 'Enter');
    await idle(page);
    await page.waitForFunction(() => document.querySelector('#metric').value.includes('* 1000'));
    const derived = await rows(page);
    check(derived[0].inc === '326', `a formula column: the root shows ${derived[0].inc}`);
    await page.fill('#formula', '$0 +');
    await page.press('#formula', 'Enter');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Formula:'));
    check((await page.$eval('#status', (e) => e.textContent)).includes('offset 4'), 'a bad formula: the error is shown');

    // copy as command: the report line that prints the same table; download CSV: the rows shown
    await page.click('#copy');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('hpcdb '));
    const cmd = await page.$eval('#status', (e) => e.textContent);
    check(cmd.startsWith('hpcdb report --view top-down --metric') && cmd.includes(db), `copy as command: ${cmd}`);
    const args = [...cmd.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]).slice(1);
    const printed = execFileSync(hpcdb, [...args, '--csv'], { encoding: 'utf8' }).split('\n')[1];
    const firstShown = (await rows(page))[0];
    check(printed && printed.includes('<program root>') && firstShown.name === '<program root>', `the command prints the same root row: ${printed}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const saved = readFileSync(await download.path(), 'utf8').split('\n');
    const open = (await rows(page)).length;
    check(saved[0] === 'depth,context,name,"""CPUTIME (sec)"" * 1000" inclusive,"""CPUTIME (sec)"" * 1000" percent,"""CPUTIME (sec)"" * 1000" exclusive' &&
          saved[1].includes('<program root>') && saved.length - 2 >= open, `download CSV: ${saved.length - 2} rows, ${open} open: ${saved[0]}`);

    await columnsCheck(page);
    await flattenCheck(page);

    // reloading the URL restores the state
    const before = await rows(page);
    const state = page.url();
    await page.reload();
    await idle(page);
    const after = await rows(page);
    check(JSON.stringify(before.map((r) => [r.name, r.inc])) === JSON.stringify(after.map((r) => [r.name, r.inc])),
          `reloading ${state} restores ${before.length} rows`);

    // dark theme, keyboard
    await page.click('#theme');
    await idle(page);
    check(await page.evaluate(() => document.documentElement.dataset.theme === 'dark'), 'dark theme');
    await page.click('#views button[data-view="top-down"]');
    await idle(page);
    await page.click('#tree tr[data-node] td.name');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await idle(page);
    check((await rows(page)).findIndex((r) => r.selected) === 1, 'arrow keys move the selection');
    await page.screenshot({ path: `${out}/top-down-dark.png` });
    await page.click('#hot');
    await idle(page);
    await page.waitForSelector('#spread-body table.groups');
    await page.screenshot({ path: `${out}/selected-dark.png` });
    check(errors.length === 0, `no script errors: ${errors.join('; ')}`);
    await wide(browser);
    await otherSamples(browser);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
  }
  console.log(failed ? `${failed} failed` : 'passed');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log(e.stack); process.exit(1); });
