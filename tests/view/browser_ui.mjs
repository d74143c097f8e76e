/* SPDX-License-Identifier: BSD-3-Clause */
// The page's workflows of issue 36 in Debian's chromium, as a person meets
// them: the side panes following the selection in every view, the metric
// columns (many, resized, reordered, the name column in sight, value and %
// side by side), the metric list as the database describes it and the
// metric it opens on, derived metrics, and an HPCToolkit database compared
// with a Score-P file. Screenshots into OUTDIR.
// Usage: node browser_ui.mjs HPCDB SAMPLES OUTDIR MAKE_METRICS_DB
import { serve as serveWith, launch, check, finish } from './harness.mjs';

const [hpcdb, samples, out, makeMetrics] = process.argv.slice(2);
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
    await page.waitForSelector(`#spread-body[data-ready="${main}"] svg.sorted`);
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
    check((await text(page, '#spread-body')).includes('top-down view'), 'bottom-up: the spread pane says where it is computed');
    await page.screenshot({ path: `${out}/panes-bottom-up.png` });
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
    await panesFollow(browser);
    await acrossTools(browser);
  } finally {
    await browser.close();
  }
  finish();
}

main().catch((e) => { console.log(e.stack); process.exit(1); });
