/* SPDX-License-Identifier: BSD-3-Clause */
// hpcdb view A B in Debian's chromium, as a person uses it: from the page of
// A to the comparison, every node of the aligned tree opened, and what each
// row shows (A, B, delta and ratio, inclusive and exclusive, per-profile mean
// and max) equal to `hpcdb compare --csv` on the same runs formatted as the
// page formats numbers; ranking by delta and by ratio; the only-in rows; the
// summary; both runs' distributions; the flat and bottom-up views; the
// state in the URL. Then a real pair (cpi-mpi's v4 database against its
// legacy one, both with scopes without a line): the tree lists what the
// profile views list, no "[libc-2.28.so]:0" or "loop at [lib]:0" row, each
// row still equal to compare --csv's.
// Screenshots into OUTDIR. Every wait is on what the page shows.
// Usage: node browser_compare.mjs HPCDB OUTDIR GEN_RUNS [SAMPLES]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { serve as serveWith, launch, check, finish } from './harness.mjs';

const [hpcdb, out, genRuns, samples] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const serve = (...paths) => serveWith(hpcdb, ...paths);

// hpcdb compare --csv's rows by name (top-down: the path): numbers as written
function compareCsv(...args) {
  const csv = execFileSync(hpcdb, ['compare', '--csv', '--top', '0', '--min-share', '0', ...args], { encoding: 'utf8' });
  const rows = new Map();
  for (const line of csv.trim().split('\n').slice(1)) {
    const m = line.match(/^"((?:[^"]|"")*)",(.*)$/);
    const f = m[2].split(',');
    const n = f.slice(1).map((x) => (x === 'inf' ? Infinity : Number(x)));
    rows.set(m[1].replace(/""/g, '"'), { only: f[0], inc: [n[0], n[1], n[2], n[3]], exc: [n[7], n[8], n[9], n[10]], mean: [n[11], n[12]], max: [n[13], n[14]] });
  }
  return rows;
}

// The rows a person sees: depth, name (without its tag), tag, the cells' text.
const shownRows = (page) => page.$$eval('#ctree tbody tr[data-node]', (trs) => trs.map((tr) => {
  const name = tr.cells[0], tag = name.querySelector('.tag');
  return { node: tr.dataset.node, depth: Math.round(parseFloat(name.style.paddingLeft) / 1.2),
    name: name.lastChild.textContent, tag: tag ? tag.textContent : '', cells: [...tr.cells].slice(1).map((c) => c.textContent),
    classes: [...tr.cells].slice(1).map((c) => c.className), selected: tr.classList.contains('selected') };
}));

// The page is idle: the status line says what it shows (not "Loading…").
const idle = (page) => page.waitForFunction(() => /^A .* rows · \d+ ms$/.test(document.querySelector('#status').textContent));

// Opens every closed node (up to clicks), one click at a time, waiting for its children to be drawn.
async function openAll(page, clicks = 100) {
  for (let k = 0; k < clicks; k++) {
    const before = await page.$$eval('#ctree tbody tr[data-node]', (t) => t.length);
    const twisty = await page.$('#ctree tbody tr[data-node] .twisty:text-is("▸")');
    if (!twisty) return;
    await twisty.click();
    await page.waitForFunction((n) => document.querySelectorAll('#ctree tbody tr[data-node]').length > n, before);
    await idle(page);
  }
}

// With the row's path: depth-first rows, each path its ancestors' names joined as hpcdb compare writes them.
function withPaths(rows) {
  const stack = [];
  return rows.map((r) => {
    stack.length = r.depth;
    stack.push(r.name);
    return { ...r, path: r.depth === 0 ? r.name : stack.slice(1).join(' > ') };
  });
}

const json = (x) => (x === Infinity ? null : x); // a ratio as the server sends it: infinity is null

async function expected(page, want, seconds, profiled) { // what the page must show for each CSV row, in its own format
  return page.evaluate(async ({ want, seconds, profiled }) => {
    const { value } = await import('/assets/format.js');
    const { ratioText, signed } = await import('/assets/compare/table.js');
    const imb = (max, mean) => `${Math.round(mean > 0 ? 100 * (max / mean - 1) : 0)}%`;
    const out = {};
    for (const [path, w] of want) {
      const cells = [];
      for (const d of [w.inc, w.exc]) cells.push(value(d[0], seconds), value(d[1], seconds), signed(d[2], seconds), ratioText(d));
      if (profiled) cells.push(value(w.mean[0], seconds), value(w.mean[1], seconds), value(w.max[0], seconds), value(w.max[1], seconds),
        imb(w.max[0], w.mean[0]), imb(w.max[1], w.mean[1]));
      out[path] = cells;
    }
    return out;
  }, { want: [...want].map(([k, v]) => [k, { ...v, inc: v.inc.map(json), exc: v.exc.map(json) }]), seconds, profiled });
}

// The compare page of A against B, reached from A's page (screenshot: of A's page, with its link): {page, errors}.
async function comparePage(browser, url, screenshot) {
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('#compare:not([hidden])');
  await page.waitForFunction(() => /rows · \d+ ms$/.test(document.querySelector('#status').textContent));
  if (screenshot) await page.screenshot({ path: screenshot });
  await page.click('#compare');
  await page.waitForURL(/\/assets\/compare\/index\.html/);
  await idle(page);
  return { page, errors };
}

// A scope without a line ("[libc-2.28.so]:0", "loop at [libmpi.so]:0", "<unknown file>:0") is no row.
const hiddenScope = (name) => /:0$/.test(name);

async function realPair(browser) {
  const a = `${samples}/hpctoolkit-v4/cpi-mpi`, b = `${samples}/hpctoolkit-legacy/cpi-mpi`;
  if (!samples || !existsSync(a) || !existsSync(b)) {
    console.log('the real pair skipped: no sample databases cpi-mpi (v4 and legacy)');
    return;
  }
  const want = compareCsv(a, b);
  const { proc, url } = await serve(a, b);
  try {
    const { page, errors } = await comparePage(browser, url);
    await openAll(page, 400);
    const rows = withPaths(await shownRows(page));
    const hidden = rows.filter((r) => hiddenScope(r.name)).map((r) => r.path);
    check(rows.length > 100 && hidden.length === 0, `${rows.length} rows, scopes without a line among them: ${hidden.slice(0, 3)}`);
    const cells = await expected(page, want, 1, true);
    const seen = new Map(); // siblings of one name ("<unknown procedure>") share a path: only the others are checked
    for (const r of rows) seen.set(r.path, (seen.get(r.path) || 0) + 1);
    const differ = rows.filter((r) => seen.get(r.path) === 1 && JSON.stringify(cells[r.path]) !== JSON.stringify(r.cells))
      .map((r) => `${r.path}: ${r.cells}`);
    check(differ.length === 0, `rows unlike compare --csv's: ${differ.slice(0, 3).join('; ')}`);
    // epoll_wait's own cost holds its scope without a line (the row that was below it)
    const epoll = rows.find((r) => r.name === 'epoll_wait [libc-2.28.so]');
    check(epoll && epoll.cells[4] === cells[epoll.path][4] && !/^0/.test(epoll.cells[4]), `epoll_wait's exclusive: ${epoll && epoll.cells}`);
    await page.click(`#ctree tr[data-node="${epoll.node}"] td.name`);
    await page.$eval(`#ctree tr[data-node="${epoll.node}"]`, (tr) => tr.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${out}/compare-real-top-down.png` });
    await page.click('#views button[data-view="flat"]');
    await page.waitForFunction(() => /· flat ·/.test(document.querySelector('#status').textContent));
    const flat = await shownRows(page);
    const flatHidden = flat.filter((r) => hiddenScope(r.name)).map((r) => r.name);
    check(flat.length > 50 && flatHidden.length === 0, `the flat view: ${flat.length} rows, scopes without a line: ${flatHidden.slice(0, 3)}`);
    await page.$eval('#ctree tbody tr[data-node]', (tr) => tr.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${out}/compare-real-flat.png` });
    check(errors.length === 0, `no script errors: ${errors.join('; ')}`);
  } finally {
    proc.kill('SIGTERM');
  }
}

async function main() {
  const pair = `${out}/pair`;
  rmSync(pair, { recursive: true, force: true });
  execFileSync(genRuns, ['pair', pair]);
  const a = `${pair}/a.d`, b = `${pair}/b.d`;
  const want = compareCsv(a, b);
  const { proc, url } = await serve(a, b);
  const browser = await launch();
  try {
    const { page, errors } = await comparePage(browser, url, `${out}/single-view-with-compare-link.png`);

    // the summary at the top
    const summary = await page.$eval('#summary', (e) => e.textContent);
    check(/15 aligned nodes: 11 in both, 2 only in A, 2 only in B/.test(summary), `the summary's counts: ${summary}`);
    const regress = await page.$$eval('#summary div:nth-child(2) li', (l) => l.map((x) => x.textContent));
    const improve = await page.$$eval('#summary div:nth-child(3) li', (l) => l.map((x) => x.textContent));
    // the leaf first, then its callers (a long path is cut at the root's end, not before the leaf)
    check(regress.length === 3 && regress[0].startsWith('+4 x2.00  solve ← app.c:10 ← '), `regressions: ${regress}`);
    check(improve.length === 1 && improve[0].startsWith('-0.5 gone [only in A]  setup ← '), `improvements: ${improve}`);

    // every node opened: each row equals compare --csv's row of its path
    await openAll(page);
    const seconds = 0; // gen_runs' metric "time" has no unit: plain numbers
    const rows = withPaths(await shownRows(page));
    const cells = await expected(page, want, seconds, true);
    check(rows.length === want.size, `${rows.length} rows shown, compare --csv has ${want.size}`);
    for (const r of rows) {
      const w = cells[r.path];
      check(w && JSON.stringify(w) === JSON.stringify(r.cells), `${r.path}: shows ${r.cells}, compare --csv gives ${w}`);
      const only = want.get(r.path) ? want.get(r.path).only : '?';
      check(r.tag === (only ? `only in ${only}` : ''), `${r.path}: tag "${r.tag}", compare says only_in "${only}"`);
      if (r.path.endsWith('> solve')) check(r.classes[2].includes('worse') && r.classes[6].includes('worse'), 'a slower node is marked worse');
    }
    check(rows.filter((r) => r.tag === 'only in A').length === 2 && rows.filter((r) => r.tag === 'only in B').length === 2, 'two rows only in each run');
    await page.screenshot({ path: `${out}/compare-top-down.png` });

    // ranked by delta of exclusive: under each parent, siblings by |delta| from compare's numbers
    await page.click('#ctree thead th[data-sort="delta"][data-flavour="exclusive"]');
    await page.waitForFunction(() => document.querySelector('#ctree thead th.sorted[data-sort="delta"][data-flavour="exclusive"]') &&
      /sorted by delta of exclusive/.test(document.querySelector('#status').textContent));
    await idle(page);
    await openAll(page);
    const byExc = withPaths(await shownRows(page));
    const siblingsSorted = (rs, key) => {
      const last = new Map(); // parent path -> the previous sibling's key
      for (const r of rs.slice(1)) {
        const parent = r.path.split(' > ').slice(0, -1).join(' > '), k = key(want.get(r.path));
        if (last.has(parent) && last.get(parent) < k) return `${r.path} (${k}) after a sibling of ${last.get(parent)}`;
        last.set(parent, k);
      }
      return '';
    };
    const bad = siblingsSorted(byExc, (w) => Math.abs(w.exc[2]));
    check(byExc.length === want.size && !bad, `sorted by |delta| of exclusive: ${bad}`);
    await page.selectOption('#sort', 'ratio');
    await page.waitForFunction(() => /sorted by ratio of exclusive/.test(document.querySelector('#status').textContent));
    await openAll(page);
    const logRatio = (w) => (w.exc[0] === 0 || w.exc[1] === 0 ? (w.exc[0] === w.exc[1] ? 0 : Infinity) : Math.abs(Math.log(w.exc[3])));
    const byRatio = withPaths(await shownRows(page));
    const badRatio = siblingsSorted(byRatio, logRatio);
    check(byRatio.length === want.size && !badRatio, `sorted by ratio: ${badRatio}`);

    // a node selected: the distributions of both runs side by side
    const solve = byRatio.find((r) => r.path.endsWith('> solve'));
    await page.click(`#ctree tr[data-node="${solve.node}"] td.name`);
    await page.waitForSelector('#spread-a svg.histogram');
    await page.waitForSelector('#spread-b svg.histogram');
    const stats = await page.$$eval('#spread .stats', (p) => p.map((x) => x.textContent));
    check(stats.length === 2 && stats[0].startsWith('2 profiles') && stats[0].includes('mean 2,') && stats[1].includes('mean 4,'),
          `solve over the profiles of A and B: ${stats}`);
    const setup = byRatio.find((r) => r.path.endsWith('> setup'));
    await page.click(`#ctree tr[data-node="${setup.node}"] td.name`);
    await page.waitForFunction(() => document.querySelector('#spread-b').textContent.includes('Not in B.'));
    await page.waitForSelector('#spread-a svg.histogram');
    await page.screenshot({ path: `${out}/compare-selected.png` });

    // the flat and bottom-up views: as many rows as compare lists, by exclusive change
    await page.click('#views button[data-view="flat"]');
    await page.waitForFunction(() => /· flat ·/.test(document.querySelector('#status').textContent));
    const flat = await shownRows(page);
    check(flat.length === want.size && flat.slice(1).every((r) => cells[r.name] && JSON.stringify(cells[r.name]) === JSON.stringify(r.cells)),
          `the flat view: ${flat.length} rows as compare's`);
    const flatSolve = flat.find((r) => r.name.endsWith('> solve'));
    await page.click(`#ctree tr[data-node="${flatSolve.node}"] td.name`);
    await page.waitForSelector('#spread-a svg.histogram');
    await page.waitForSelector('#spread-b svg.histogram');
    await page.screenshot({ path: `${out}/compare-flat.png` });
    const funcs = compareCsv('--view', 'bottom-up', a, b);
    await page.click('#views button[data-view="bottom-up"]');
    await page.waitForFunction(() => /· bottom-up ·/.test(document.querySelector('#status').textContent));
    const bu = await shownRows(page);
    const buCells = await expected(page, funcs, seconds, false);
    check(bu.length === funcs.size + 1 && bu.slice(1).every((r) => JSON.stringify(buCells[r.name]) === JSON.stringify(r.cells)),
          `the bottom-up view: ${bu.map((r) => r.name)} as compare's ${[...funcs.keys()]}`);

    // a summary line: shown and selected in the top-down tree
    await page.click('#summary div:nth-child(2) li:first-child');
    await page.waitForFunction(() => { const s = document.querySelector('#ctree tr.selected'); return s && s.cells[0].textContent.endsWith('solve'); });
    await idle(page);
    check((await page.$eval('#status', (e) => e.textContent)).includes('top-down'), 'the summary opens the top-down tree');

    // the state is in the URL: reloading it shows the same rows, sort and selection
    const shown = await shownRows(page), link = page.url();
    check(/sel=\d+/.test(link) && /sort=ratio/.test(link), `the state in the URL: ${link}`);
    await page.reload();
    await idle(page);
    await page.waitForSelector('#spread-b svg.histogram');
    const again = await shownRows(page);
    check(JSON.stringify(again) === JSON.stringify(shown), `reloading ${link} shows the same ${shown.length} rows and selection`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${out}/compare-dark.png` });
    check(errors.length === 0, `no script errors: ${errors.join('; ')}`);
    await realPair(browser);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
  }
  finish();
}

main().catch((e) => { console.log(e.stack); process.exit(1); });
