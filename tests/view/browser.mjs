// Clicks through hpcdb view in Debian's chromium and checks what a person
// sees: the tables against `hpcdb report` (first 50 rows), sorting,
// expanding, search, hot path, zoom, formula, source pane, distribution,
// reload restoring the state; screenshots light and dark into OUTDIR.
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const [hpcdb, samples, out] = process.argv.slice(2);
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

async function rows(page) {
  return page.$$eval('#tree tbody tr[data-node]', (trs) => trs.map((tr) => ({
    node: tr.dataset.node, depth: parseFloat(tr.cells[0].style.paddingLeft) / 1.2,
    name: tr.cells[0].textContent.slice(1), inc: tr.cells[1].textContent, exc: tr.cells[2].textContent,
    hit: tr.classList.contains('hit'), selected: tr.classList.contains('selected') })));
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
  // rest; the other views: their top rows), asked of the server as the page asks; then one reload: the URL holds them
  const nodes = await page.evaluate(async (view) => {
    const open = [];
    const metric = document.querySelector('#metric').value;
    const ask = async (node) => (await fetch(`/api/children?view=${view}&node=${node}&limit=10000&metric=${encodeURIComponent(metric)}`)).json();
    const first = await ask(0);
    const total = first.metrics[0].total;
    const walk = async (r) => {
      for (const row of r.rows) {
        if (!row.children) continue;
        if (view !== 'top-down') { open.push(row.node); continue; }
        if (row.values[0][0] === 0 || row.values[0][0] < 0.01 * total) continue;
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
  const { readdirSync, existsSync } = await import('node:fs');
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
    await page.waitForSelector('#spread-body svg.histogram');
    const stats = await page.$eval('#spread-body .stats', (e) => e.textContent);
    check(/^16 profiles: min .* imbalance/.test(stats), `distribution: ${stats}`);
    const cpi = hot.find((r) => r.name.startsWith('cpi.c:'));
    if (cpi) {
      await page.click(`#tree tr[data-node="${cpi.node}"] td.name`);
      await page.waitForSelector('#source-body .current');
      const current = await page.$eval('#source-body .current', (e) => e.textContent);
      check(current.includes(cpi.name.slice(6)), `source pane highlights line ${cpi.name}`);
      check(await page.$eval('#source-body', (e) => [...e.querySelectorAll('.margin')].some((m) => m.textContent)), 'per-line values in the margin');
    } else check(false, 'a cpi.c line on the hot path');
    await page.screenshot({ path: `${out}/selected-light.png` });

    // a point of the distribution: that profile's own tree, as report --profile prints it
    await page.click('#tree tr[data-node] td.name'); // the root: every profile has a value there
    const rootNode = await page.$eval('#tree tr[data-node]', (tr) => tr.dataset.node);
    await page.waitForSelector(`#spread-body[data-ready="${rootNode}"] svg.sorted circle`);
    const dots = await page.$$('#spread-body svg.sorted circle');
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
    await page.waitForFunction(() => /^\d+ matches for/.test(document.querySelector('#status').textContent));
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
    await page.fill('#lift', '^main$');
    await page.press('#lift', 'Enter');
    await idle(page);
    const lifted = await rows(page);
    const thread = shown.find((r) => r.name === '<main thread>'), line = lifted.find((r) => r.name.startsWith('cpi.c:'));
    check(!lifted.some((r) => r.name === 'main') && line && thread && line.depth === thread.depth + 1,
          `lift shows main's children in its place (${line ? line.depth : '-'} under ${thread ? thread.depth : '-'})`);
    check(page.url().includes('lift=%5Emain%24'), 'the filter is in the URL');
    await page.fill('#lift', '');
    await page.press('#lift', 'Enter');
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
    const cmd = await page.$eval('#status', (e) => e.textContent);
    check(cmd.startsWith('hpcdb report --view top-down --metric') && cmd.includes(db), `copy as command: ${cmd}`);
    const args = [...cmd.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]).slice(1);
    const printed = execFileSync(hpcdb, [...args, '--csv'], { encoding: 'utf8' }).split('\n')[1];
    const firstShown = (await rows(page))[0];
    check(printed && printed.includes('<program root>') && firstShown.name === '<program root>', `the command prints the same root row: ${printed}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const { readFileSync } = await import('node:fs');
    const saved = readFileSync(await download.path(), 'utf8').split('\n');
    check(saved[0] === 'depth,node,name,inclusive,exclusive' && saved[1].includes('<program root>') &&
          saved.length - 2 === (await rows(page)).length, `download CSV: ${saved.length - 2} rows`);

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
    await page.waitForSelector('#spread-body svg.histogram');
    await page.screenshot({ path: `${out}/selected-dark.png` });
    check(errors.length === 0, `no script errors: ${errors.join('; ')}`);
    await otherSamples(browser);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
  }
  console.log(failed ? `${failed} failed` : 'passed');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log(e.stack); process.exit(1); });
