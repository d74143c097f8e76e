/* SPDX-License-Identifier: BSD-3-Clause */
// hpcdb export --format html in Debian's chromium, driven by playwright-core
// (tests/view's install): the page opened from disk with every request but
// file:, blob: and data: refused (and none asked), the three tables' first 50
// rows against `hpcdb report --csv`, sorting, expanding, search, hot path,
// the distribution pane, what is not in a page said as such, no script
// errors; screenshots light and dark into OUTDIR. Then the flame graph SVG.
// usage: node browser_check.mjs HPCDB DB OUTDIR
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(join(here, '../view/package.json'))('playwright-core');
const { value } = await import(pathToFileURL(join(here, '../../src/lib/page/assets/format.js')));
const [hpcdb, db, out] = process.argv.slice(2);
let failed = 0;
const check = (cond, what) => { if (!cond) { failed++; console.log(`FAILED: ${what}`); } };

const pagePath = `${out}/page.html`, flamePath = `${out}/flame.svg`;
execFileSync(hpcdb, ['export', '-q', '--force', '--format', 'html', db, '-o', pagePath]);
execFileSync(hpcdb, ['export', '-q', '--force', '--format', 'flamegraph', db, '-o', flamePath]);
const html = readFileSync(pagePath, 'utf8');
const snap = JSON.parse(html.match(/<script type="application\/json" id="hpcdb-snapshot">(.*?)<\/script>/s)[1]);
const info = snap.info.databases[0], metric = info.default_metric;
const c = info.metrics.findIndex((m) => m.name === metric), { seconds, total } = info.metrics[c];
const inc = (row) => row[3][2 * c], exc = (row) => row[3][2 * c + 1]; // a snapshot row's values of the page's metric

// The snapshot's nodes of a view: node -> {row, kids}
function tree(view) {
  const m = new Map();
  for (const row of snap.views[view]) m.set(row[0], { row, kids: [] });
  for (const n of m.values()) if (n.row[1] !== null) m.get(n.row[1]).kids.push(n);
  return m;
}

// report's CSV rows [depth, name, inclusive, exclusive], the first 50 but its fold lines ("[9 more]")
function report(view) {
  const csv = execFileSync(hpcdb, ['report', '--view', view, '--metric', metric, '--csv', db], { encoding: 'utf8' });
  return csv.trim().split('\n').slice(1, 51).map((line) => {
    const m = line.match(/^(\d+),[^,]*,"((?:[^"]|"")*)",([^,]*),[^,]*,([^,]*)/);
    return [Number(m[1]), m[2].replace(/""/g, '"'), Number(m[3]), Number(m[4])];
  }).filter((r) => !r[1].startsWith('['));
}

const idle = (page) => page.waitForFunction(() => {
  const s = document.querySelector('#status').textContent;
  return s && !s.startsWith('Loading') && document.querySelector('#tree tr[data-node]');
});
const settled = (page) => page.waitForFunction(() => !document.querySelector('#tree tr.pending'));
const windowRows = (page) => page.$$eval('#tree tbody tr[data-node]', (trs) => trs.map((tr) => ({
  i: Number(tr.dataset.i), node: Number(tr.dataset.node), depth: parseFloat(tr.cells[0].style.paddingLeft) / 1.2,
  name: tr.cells[0].textContent.slice(1), inc: tr.cells[1].textContent, exc: tr.cells[2].textContent,
  hit: tr.classList.contains('hit'), selected: tr.classList.contains('selected') })));

// Every open row, as a person sees them scrolling the table from top to bottom.
async function rows(page) {
  const pane = await page.$('#tree-pane');
  const seen = new Map();
  for (let y = 0; ;) {
    await pane.evaluate((p, y) => { p.scrollTop = y; }, y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await settled(page);
    for (const r of await windowRows(page)) seen.set(r.i, r);
    const [top, height, full] = await pane.evaluate((p) => [p.scrollTop, p.clientHeight, p.scrollHeight]);
    if (top + height >= full - 1) break;
    y = top + height / 2;
  }
  await pane.evaluate((p) => { p.scrollTop = 0; });
  return [...seen.keys()].sort((a, b) => a - b).map((i) => seen.get(i));
}

// The page in a state (the URL's hash holds it), loaded afresh.
async function show(page, state) {
  await page.goto('about:blank');
  await page.goto(`${pathToFileURL(pagePath)}#${new URLSearchParams(state)}`);
  await idle(page);
}

// The nodes report prints open: top-down those holding at least 1% of the total (report folds the rest), else every row with rows under it.
function opened(view) {
  const t = tree(view), open = [];
  const walk = (n) => {
    for (const k of n.kids) {
      if (!k.kids.length) continue;
      if (view === 'top-down' && (inc(k.row) === 0 || inc(k.row) < 0.01 * total)) continue;
      open.push(k.row[0]);
      walk(k);
    }
  };
  walk(t.get(0));
  return open;
}

async function parity(page, view) {
  const sort = view === 'top-down' ? {} : { sort: 'exclusive' }; // as report sorts them
  await show(page, { view, ...sort, open: opened(view).join(',') });
  const got = await rows(page), want = report(view);
  const shown = new Map();
  for (const g of got) { const k = `${g.name}|${g.inc}|${g.exc}`; shown.set(k, (shown.get(k) || 0) + 1); }
  let matched = 0;
  for (const [, name, inc, exc] of want) {
    const k = `${name}|${value(inc, seconds)}|${value(exc, seconds)}`;
    if (shown.get(k)) { matched++; shown.set(k, shown.get(k) - 1); } else console.log(`  ${view}: report row ${k} not shown`);
  }
  check(want.length > 0 && matched === want.length, `${view}: ${matched} of ${want.length} report rows shown with the same values`);
}

const topNames = async (page) => (await rows(page)).filter((r) => r.depth === 1).map((r) => r.name);
// A node's children as the query layer sorts them: by the value, ties by node; no zero rows.
function sortedKids(node, exclusive = false, ascending = false) {
  const key = exclusive ? exc : inc, s = ascending ? -1 : 1;
  return tree('top-down').get(node).kids.map((k) => k.row).filter((r) => inc(r) !== 0 || exc(r) !== 0)
    .sort((a, b) => (key(a) !== key(b) ? (key(a) > key(b) ? -s : s) : a[0] - b[0]));
}
const sortedTop = (exclusive, ascending) => sortedKids(0, exclusive, ascending).map((r) => r[2]);

// The loader and the page's first status race (issue 36): the Timeline link clicked the moment
// the loader has set it up, before anything is drawn; and a loader whose DOMContentLoaded handler
// runs late, after app.js has written its first status. Either way the timeline is drawn, in view,
// without a script error.
async function racedTimeline(context) {
  for (const race of ['early click', 'late loader']) {
    const p = await context.newPage(), errs = [];
    p.on('pageerror', (e) => errs.push(e.message));
    await p.addInitScript((early) => {
      if (early) { // window's listeners run after the document's: the loader's handler has just run
        window.addEventListener('DOMContentLoaded', () => document.querySelector('#timeline').click());
      } else {
        const add = document.addEventListener.bind(document);
        document.addEventListener = (type, fn, ...rest) =>
          add(type, type === 'DOMContentLoaded' ? () => setTimeout(fn, 1500) : fn, ...rest);
      }
    }, race === 'early click');
    await p.goto(pathToFileURL(pagePath).href);
    if (race === 'late loader') {
      await p.waitForFunction(() => !document.querySelector('#status').textContent.startsWith('Loading'));
      const drawn = await p.waitForSelector('#static-trace', { state: 'attached', timeout: 5000 }).then(() => true, () => false);
      check(drawn, 'late loader: the timeline and flame graph are drawn without a click');
      await p.click('#timeline');
    }
    const shown = await p.waitForFunction(() => {
      const t = document.querySelector('#static-trace');
      return t && t.getBoundingClientRect().top < innerHeight;
    }, null, { timeout: 5000 }).then(() => true, () => false);
    check(shown && errs.length === 0, `${race}: the timeline is drawn and in view (${errs.join('; ')})`);
    if (race === 'early click') await p.screenshot({ path: `${out}/timeline-early-click.png` });
    await p.close();
  }
}

async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // the page may read itself and its Blob and data URLs, nothing else (a file next to it neither)
  const own = (url) => /^(blob|data|about):/.test(url) || [pathToFileURL(pagePath).href, pathToFileURL(flamePath).href].includes(url.split('#')[0]);
  const asked = [];
  await context.route('**/*', (route) => {
    if (own(route.request().url())) return route.continue();
    asked.push(route.request().url());
    return route.abort();
  });
  context.on('request', (r) => { if (!own(r.url())) asked.push(r.url()); });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    await show(page, {});
    const status = await page.$eval('#status', (e) => e.textContent);
    check(status.includes('exported page:') && status.includes(metric), `the status line says what the page holds: ${status}`);
    check((await page.$eval('#metric', (s) => s.value)) === metric, `the page's metric is ${metric}`);
    const heading = await page.$eval('#title', (e) => e.textContent);
    check(heading !== 'hpcdb view' && (await page.title()) === `${heading} · hpcdb`, `the tab is named after the database: ${await page.title()}`);
    // the flame graph below the tree: drawn after the first table, all its frames laid out
    await page.waitForSelector('#hpcdb-flame[data-rendered]', { state: 'attached' });
    check(await page.$eval('#hpcdb-flame', (s) => s.getAttribute('data-rendered') === s.getAttribute('data-frames')),
          'the flame graph below the tree lays out all its frames');
    await page.screenshot({ path: `${out}/top-down-light.png` });
    await page.screenshot({ path: `${out}/page-full-light.png`, fullPage: true });
    if (html.includes('id="static-trace"')) { // the header's Timeline link: this page's timeline, the state in the URL kept
      const url = page.url();
      await page.click('#timeline');
      await page.waitForFunction(() => document.querySelector('#static-trace').getBoundingClientRect().top < innerHeight);
      check(page.url() === url, `the Timeline link scrolls to the timeline (${page.url()})`);
      await racedTimeline(context);
    } else check(await page.$eval('#timeline', (a) => a.hidden), 'no traces: no Timeline link');

    for (const view of ['top-down', 'bottom-up', 'flat']) {
      await parity(page, view);
      if (view !== 'top-down') await page.screenshot({ path: `${out}/${view}-light.png` });
    }

    // sorting: a header click sorts by it, largest first; again: smallest first
    await show(page, {});
    await page.click('th[data-sort="exclusive"]');
    await page.waitForFunction(() => document.querySelector('th.sorted[data-sort="exclusive"]'));
    await idle(page);
    check(JSON.stringify(await topNames(page)) === JSON.stringify(sortedTop(true, false)), 'sorted by exclusive, largest first');
    await page.click('th[data-sort="exclusive"]');
    await page.waitForFunction(() => document.querySelector('th.sorted.asc[data-sort="exclusive"]'));
    await idle(page);
    check(JSON.stringify(await topNames(page)) === JSON.stringify(sortedTop(true, true)), 'a second click: smallest first');
    await page.click('th[data-sort="inclusive"]');
    await page.waitForFunction(() => document.querySelector('th.sorted.desc[data-sort="inclusive"]'));
    await idle(page);

    // expanding: a twisty opens its node's children below it
    const before = await rows(page);
    const parent = before.find((r) => r.depth === 1 && sortedKids(r.node).length), first = sortedKids(parent.node)[0][0];
    await page.click(`#tree tr[data-node="${parent.node}"] .twisty`);
    await page.waitForSelector(`#tree tr[data-node="${first}"]`);
    await idle(page);
    const after = await rows(page), at = after.findIndex((r) => r.node === parent.node);
    check(after.length > before.length && after[at + 1].node === first && after[at + 1].depth === parent.depth + 1,
          `expanding ${parent.name} shows its children below it`);

    // hot path: opens the path and selects its end (report --hot-path's rule, on the snapshot)
    const td = tree('top-down');
    let end = td.get(0);
    for (;;) {
      const best = end.kids.reduce((b, k) => (!b || inc(k.row) > inc(b.row) || (inc(k.row) === inc(b.row) && k.row[0] < b.row[0]) ? k : b), null);
      if (!best || inc(best.row) === 0 || inc(best.row) < 0.5 * inc(end.row)) break;
      end = best;
    }
    await page.click('#hot');
    await page.waitForSelector(`#tree tr.selected[data-node="${end.row[0]}"]`);
    await idle(page);
    if (info.profiles > 0) { // the distribution of the selection over the profiles
      await page.waitForSelector(`#spread-body[data-ready="${end.row[0]}"] svg.histogram`);
      const stats = await page.$eval('#spread-body .stats', (e) => e.textContent);
      check(stats.startsWith(`${info.profiles} profiles: min`), `distribution: ${stats}`);
    }
    if (end.row[4] !== undefined) { // a source location: the pane says the files are not in the page
      await page.waitForFunction(() => document.querySelector('#source-body').textContent.includes('Source files are not in an exported page'));
    }
    await page.screenshot({ path: `${out}/hot-path-light.png` });

    // search: the matches opened and highlighted; their count the snapshot's
    const target = end.row[2], re = `^${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
    const count = [...td.values()].filter((n) => new RegExp(re).test(n.row[2])).length;
    await show(page, {});
    await page.fill('#search', re);
    await page.press('#search', 'Enter');
    await page.waitForFunction((n) => document.querySelector('#status').textContent === `1 of ${n} matches for /${document.querySelector('#search').value}/`, count);
    const hits = (await rows(page)).filter((r) => r.hit);
    check(hits.length === count && hits.every((h) => h.name === target), `search for ${re}: ${hits.length} rows highlighted, ${count} expected`);

    // a formula is computed from the page's values; one over a metric it does not hold says so
    await page.fill('#formula', 'two = 1 + 1');
    await page.press('#formula', 'Enter');
    await page.waitForFunction(() => document.querySelector('#metric').value === 'two' && /rows · \d+ ms$/.test(document.querySelector('#status').textContent));
    const two = await page.$eval('#tree tbody tr[data-node]', (tr) => tr.cells[1].textContent);
    check(two === '2', `a formula in an exported page: the root shows ${two}`);
    await page.fill('#formula', '"no such metric" * 2');
    await page.press('#formula', 'Enter');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Formula:'));
    check((await page.$eval('#status', (e) => e.textContent)).includes('is not in this exported page'), 'a formula over a metric the page lacks: said so');

    // a state the page does not hold (a shared link): the status line says why
    const errorFor = async (state) => {
      await page.goto('about:blank');
      await page.goto(`${pathToFileURL(pagePath)}#${new URLSearchParams(state)}`);
      await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Error: '));
      return page.$eval('#status', (e) => e.textContent);
    };
    const noNode = await errorFor({ zoom: '4000000000' }), noMetric = await errorFor({ metric: 'no such metric' });
    check(noNode.includes('node 4000000000 does not exist'), `a node past the end: ${noNode}`);
    check(noMetric.includes('"no such metric" is not in this exported page'), `a metric not in the page: ${noMetric}`);

    // dark
    await show(page, { theme: 'dark' });
    await page.click('#hot');
    await page.waitForSelector(`#tree tr.selected[data-node="${end.row[0]}"]`);
    await idle(page);
    await page.screenshot({ path: `${out}/hot-path-dark.png` });
    await page.screenshot({ path: `${out}/page-full-dark.png`, fullPage: true });

    // the flame graph export on its own
    await page.goto(pathToFileURL(flamePath).href);
    await page.waitForFunction(() => document.querySelector('svg').getAttribute('data-rendered') !== null);
    check(await page.$eval('svg', (s) => s.getAttribute('data-rendered') === s.getAttribute('data-frames')), 'flame graph SVG: every frame');
    await page.screenshot({ path: `${out}/flame.png` });
  } finally {
    await browser.close();
  }
  check(asked.length === 0, `no request left the file: ${asked.join(' ')}`);
  check(errors.length === 0, `no script errors: ${errors.join('; ')}`);
  console.log(`screenshots in ${out}`);
  console.log(failed ? `${failed} failed` : 'passed');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log(e.stack); process.exit(1); });
