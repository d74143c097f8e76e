/* SPDX-License-Identifier: BSD-3-Clause */
// The page's workflows of issue 36 in Debian's chromium, as a person meets
// them: the side panes following the selection in every view, the metric
// columns (many, resized, reordered, the name column in sight, value and %
// side by side), the metric list as the database describes it and the
// metric it opens on, derived metrics, and an HPCToolkit database compared
// with a Score-P file. Screenshots into OUTDIR.
// Usage: node browser_ui.mjs HPCDB SAMPLES OUTDIR MAKE_METRICS_DB
import { mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { serve as serveWith, launch, check, finish } from './harness.mjs';

const [hpcdb, samples, out, makeMetrics] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const serve = (...args) => serveWith(hpcdb, ...args);
const cpi = `${samples}/hpctoolkit-v4/cpi-mpi`, scorep = `${samples}/cube/scorep-cpi.cubex`;
const idle = (page) => page.waitForFunction(() => /rows · \d+ ms$/.test(document.querySelector('#status').textContent));

async function withPage(browser, args, run) {
  const { proc, url } = await serve(...args);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await run(page, url);
    check(errors.length === 0, `${args.join(' ')}: no script errors: ${errors.join('; ')}`);
  } finally {
    await page.close();
    proc.kill('SIGTERM');
  }
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent);
const clickRow = async (page, name) => {
  const node = await page.$$eval('#tree tbody tr[data-node]', (trs, name) => {
    const tr = trs.find((t) => t.cells[0].textContent.slice(1) === name);
    return tr ? tr.dataset.node : null;
  }, name);
  await page.click(`#tree tr[data-node="${node}"] td.name`);
  return node;
};

// After switching view, the panes wait for a selection in the new view; the source pane follows it in every view.
async function panesFollow(browser) {
  await withPage(browser, [cpi], async (page, url) => {
    await page.goto(url);
    await idle(page);
    await page.click('#tree tbody tr[data-node] .twisty:text-is("▸")');
    await idle(page);
    const main = await clickRow(page, '<main thread>');
    await page.waitForSelector(`#spread-body[data-ready="${main}"] svg[aria-label="sorted values"]`);
    for (const view of ['bottom-up', 'flat']) {
      await page.click(`#views button[data-view="${view}"]`);
      await idle(page);
      const panes = [await text(page, '#spread-body'), await text(page, '#source-body')];
      check(panes.every((t) => t === 'Select a node.'), `${view}: after switching view, the panes wait for a selection: ${panes.map((t) => t.slice(0, 60))}`);
    }
    await page.click('#views button[data-view="bottom-up"]');
    await idle(page);
    const fn = await clickRow(page, 'main');
    await page.waitForSelector(`#source-body[data-ready="${fn}"]`);
    const current = await page.$eval('#source-body .current .lineno', (e) => e.textContent).catch(() => '');
    const file = await text(page, '#source-body');
    check(current === '19' && file.includes('int main(int argc,char *argv[])'), `bottom-up: the source pane shows main's definition, line ${current}`);
    await page.waitForSelector(`#spread-body[data-ready="${fn}"] table.groups`);
    check(!(await text(page, '#spread-body')).includes('top-down view'), 'bottom-up: the spread pane shows main over the profiles');
    await page.screenshot({ path: `${out}/panes-bottom-up.png` });
  });
}

// A GPU run's many metrics (make_metrics_db): all shown, the name column in sight when scrolled sideways and
// whole on hover, columns resized and moved, value and % side by side, the side pane resized.
async function columns(browser) {
  const db = `${out}/metrics.d`;
  execFileSync(makeMetrics, [db]);
  await withPage(browser, [db], async (page, url) => {
    await page.goto(url);
    await idle(page);
    await page.click('#tree tbody tr[data-node] .twisty:text-is("▸")');
    await idle(page);
    await page.click('#columns summary');
    for (const box of await page.$$('#columns-list input:not(:checked)')) { await box.check(); await idle(page); }
    await page.click('#columns summary');
    await idle(page);
    const heads = await page.$$eval('#tree thead th', (ths) => ths.length);
    check(heads === 1 + 2 * 12, `the 12 metrics shown: ${heads} headers`);
    // scrolled sideways: the name column stays at the pane's left edge, and a name cut short is whole on hover
    await page.$eval('#tree-pane', (p) => { p.scrollLeft = p.scrollWidth; });
    const sticky = await page.evaluate(() => {
      const p = document.querySelector('#tree-pane').getBoundingClientRect(), tr = document.querySelector('#tree tbody tr[data-node]:nth-of-type(4)');
      const at = document.elementFromPoint(p.left + 30, tr.getBoundingClientRect().top + 5);
      return { name: at && at.closest('td.name') ? at.closest('td.name').title : null, scrolled: document.querySelector('#tree-pane').scrollLeft };
    });
    check(sticky.scrolled > 0 && sticky.name && sticky.name.startsWith('a_source_file_with_a_name_longer'), `scrolled ${sticky.scrolled} px sideways, the name column is in sight: ${sticky.name}`);
    await page.screenshot({ path: `${out}/columns-scrolled.png` });
    await page.$eval('#tree-pane', (p) => { p.scrollLeft = 0; });
    // cut short: the text is wider than the cell shows (measured on the text itself, since a table
    // cell's scrollWidth need not count an ellipsised overflow)
    const cut = await page.$eval('#tree tbody tr[data-node]:nth-of-type(4) td.name', (td) => {
      const r = document.createRange();
      r.selectNodeContents(td);
      return [r.getBoundingClientRect().width > td.clientWidth || td.scrollWidth > td.clientWidth, td.title];
    });
    check(cut[1] === 'a_source_file_with_a_name_longer_than_the_name_column_is_wide.f90:10', `a long name is whole on hover (cut short in the cell: ${cut[0]}; the name column's width is not fixed, so the cut is not asserted): ${cut[1]}`);
    // a column resized by its header's edge
    const th = '#tree th[data-m="1"][data-sort="inclusive"]', width = () => page.$eval(th, (e) => e.getBoundingClientRect().width);
    const before = await width(), grip = await (await page.$(`${th} .grip`)).boundingBox();
    await page.mouse.move(grip.x + 3, grip.y + 5);
    await page.mouse.down();
    await page.mouse.move(grip.x + 83, grip.y + 5, { steps: 4 });
    await page.mouse.up();
    const after = await width();
    check(Math.abs(after - before - 80) < 3, `dragging a header's edge resizes the column: ${before} -> ${after} px`);
    // a metric moved: its headers dragged onto the first metric's
    const names = () => page.$$eval('#tree th[data-sort="inclusive"] .mname', (s) => s.map((x) => x.textContent));
    const order = await names();
    await page.dragAndDrop('#tree th[data-m="1"][data-sort="exclusive"]', '#tree th[data-m="0"][data-sort="inclusive"]');
    await idle(page);
    const moved = await names();
    check(moved[0] === order[1] && moved[1] === order[0] && moved.length === order.length, `a metric moved first: ${moved.slice(0, 3)}`);
    const cols = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('cols');
    check(cols && cols.split('\n')[0] === order[1], `the order is in the URL: ${cols}`);
    // value and % side by side, with the digits a tiny share needs
    await page.check('#pct');
    await idle(page);
    const cells = await page.$$eval('#tree tbody tr[data-node]', (trs) => trs.map((tr) => [tr.cells[1].firstChild.textContent, tr.cells[1].querySelector('.pct').textContent]));
    check(cells[0][1] === '100%' && cells.some(([v, p]) => v.endsWith(' s') && p === '60%'), `value and % of a row: ${cells[2]}`);
    check(cells.every(([v, p]) => p !== '0.0%' && (p !== '0%' || v === '0')) && cells.some(([, p]) => p === '0.00001%'),
          `tiny shares keep their digits: ${cells.map((c) => c[1])}`);
    await page.screenshot({ path: `${out}/columns-pct.png` });
    // the side pane resized by the divider
    const side = () => page.$eval('aside', (a) => a.getBoundingClientRect().width);
    const w0 = await side(), bar = await (await page.$('#split')).boundingBox();
    await page.mouse.move(bar.x + 2, bar.y + 100);
    await page.mouse.down();
    await page.mouse.move(bar.x - 198, bar.y + 100, { steps: 4 });
    await page.mouse.up();
    const w1 = await side();
    check(Math.abs(w1 - w0 - 200) < 3 && /side=\d+/.test(page.url()), `the divider widens the side pane: ${w0} -> ${w1} px`);
    await page.screenshot({ path: `${out}/columns-side.png` });
  });
}

// The metric list in metrics/default.yaml's order with its descriptions and groups; the metric opened on and
// why; a derived metric with a name and a format, in the URL and in an exported page.
async function metricList(browser) {
  const db = `${out}/metrics.d`;
  await withPage(browser, [db], async (page, url) => {
    await page.goto(url);
    await idle(page);
    const list = await page.$$eval('#metric option', (os) => os.map((o) => [o.parentElement.label || '', o.value, o.title]));
    const order = list.map((o) => o[1]);
    check(JSON.stringify(order.slice(0, 4)) === JSON.stringify(['REALTIME (sec)', 'CPUTIME (sec)', 'GPUOP (sec)', 'GKER (sec)']) && order.length === 12,
          `the list in default.yaml's order, then the rest: ${order}`);
    check(list[2][0] === 'GPU operations' && list[3][0] === 'GPU operations' && list[5][0] === 'GXCOPY' && list[0][0] === '',
          `grouped: ${list.map((o) => `${o[0]}/${o[1]}`)}`);
    check(list[2][2] === 'GPU time: all operations (seconds)', `each with its description on hover: ${list[2][2]}`);
    const status = await text(page, '#status');
    check(await page.$eval('#metric', (s) => s.value) === 'REALTIME (sec)' &&
          status.includes('REALTIME (sec) (the time metric with the largest total, CPU time before GPU operations)'), `opened on: ${status}`);
    await page.screenshot({ path: `${out}/metrics-list.png` });
    // a derived metric with a name and a format
    await page.fill('#format', '%.1f %');
    await page.fill('#formula', 'ratio = "CPUTIME (sec)" / "REALTIME (sec)" * 100');
    await page.press('#formula', 'Enter');
    await page.waitForFunction(() => document.querySelector('#metric').value === 'ratio');
    await idle(page);
    const root = () => page.$eval('#tree tbody tr[data-node]', (tr) => [tr.cells[1].textContent, tr.cells[2].textContent]);
    check(JSON.stringify(await root()) === '["87.5 %","0.0 %"]', `the derived metric in its format: ${await root()}`);
    check(/derived=/.test(page.url()), 'the definition is in the URL');
    const hash = new URL(page.url()).hash;
    await page.reload();
    await idle(page);
    check(JSON.stringify(await root()) === '["87.5 %","0.0 %"]' && await page.$eval('#metric', (s) => s.value) === 'ratio', 'reloading keeps it');
    await page.screenshot({ path: `${out}/metrics-derived.png` });
    // the exported page, opened with that link's state, computes it
    const html = `${out}/metrics.html`;
    execFileSync(hpcdb, ['export', '--format', 'html', '--force', '-o', html, db], { stdio: 'ignore' });
    await page.goto(`file://${html}${hash}`);
    await page.waitForFunction(() => /rows/.test(document.querySelector('#status').textContent));
    check(JSON.stringify(await root()) === '["87.5 %","0.0 %"]', `the exported page shows the derived metric: ${await root()} (${await text(page, '#status')})`);
    await page.screenshot({ path: `${out}/metrics-derived-export.png` });
  });
}

// HPCToolkit against Score-P: the page pairs CPUTIME (sec) with time, the pair is in the URL, --metric A=B gives it.
async function acrossTools(browser) {
  await withPage(browser, [cpi, scorep], async (page, url) => {
    await page.goto(url.replace('/?', '/assets/compare/index.html?'));
    await idle(page);
    const totals = await page.$eval('#summary .totals', (e) => e.textContent);
    check(totals.includes('metric CPUTIME (sec) / time') && totals.includes('paired with "time", suggested: both times, names alike'),
          `the comparison pairs CPUTIME (sec) with time: ${totals}`);
    check(await page.$eval('#metric-b', (s) => s.value) === 'time', "B's list shows time");
    check(/metric_b=time/.test(page.url()), `the pair is in the URL: ${page.url()}`);
    const regress = await page.$$eval('#summary div:nth-child(2) li', (l) => l.map((x) => x.textContent));
    check(regress.length > 0 && /^\+\S+ s new \S* *PMPI_Bcast \[libmpi\S*\] ← cpi\.c:40 ← main ← <main thread>$/.test(regress[0]),
          `a regression shows its leaf first: ${regress[0]}`);
    const rows = await page.$$eval('#ctree tbody tr[data-node]', (t) => t.length);
    check(rows > 1, `the aligned tree shows ${rows} rows`);
    await page.screenshot({ path: `${out}/compare-cpi-scorep.png` });
    await page.selectOption('#metric-b', 'max_time');
    await page.waitForFunction(() => document.querySelector('#summary .totals').textContent.includes('/ max_time'));
    await idle(page);
    check(/metric_b=max_time/.test(page.url()), 'another metric of B: in the URL');
    await page.reload();
    await idle(page);
    check(await page.$eval('#metric-b', (s) => s.value) === 'max_time', 'reloading keeps the pair');
  });
  await withPage(browser, ['--metric', 'CPUTIME (sec)=time', cpi, scorep], async (page, url) => {
    await page.goto(url.replace('/?', '/assets/compare/index.html?'));
    await idle(page);
    const totals = await page.$eval('#summary .totals', (e) => e.textContent);
    check(totals.includes('metric CPUTIME (sec) / time') && !totals.includes('suggested'), `view --metric A=B: ${totals}`);
  });
}

async function main() {
  const browser = await launch();
  try {
    for (const part of [panesFollow, columns, metricList, acrossTools]) { // each part says what fails, whatever the others do
      try { await part(browser); } catch (e) { check(false, `${part.name}: ${e.message.split('\n')[0]}`); }
    }
  } finally {
    await browser.close();
  }
  finish();
}

main().catch((e) => { console.log(e.stack); process.exit(1); });
