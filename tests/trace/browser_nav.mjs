/* SPDX-License-Identifier: BSD-3-Clause */
// Navigating the trace view as an hpcviewer user does, under `hpcdb view`: the depth view and the
// summary on the timeline's time axis (full width, zoom and pan from any of the three), the depth
// view following the clicked profile, the crosshair and the click's time from the run's start, the
// tree views linked both ways, row labels at any height, vertical zoom, redo, a chosen colour kept,
// the picture saved as PNG and SVG. Screenshots and saved pictures go to OUTDIR.
// Usage: node browser_nav.mjs HPCDB DB MANY_ROWS_DB TREE_DB OUTDIR
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFileSync, existsSync } from 'node:fs';

const { chromium } = createRequire(`${process.env.PLAYWRIGHT_DIR}/package.json`)('playwright-core');
const [hpcdb, db, many, treeDb, out] = process.argv.slice(2);
if (!existsSync(treeDb)) { console.log(`skipped: ${treeDb} is not there (HPCDB_SAMPLE_DATA)`); process.exit(77); }
let failures = 0;
const check = (ok, what) => { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; };

const servers = [];
async function serve(path) {
  const server = spawn(hpcdb, ['view', '--no-browser', '--port', '0', path], { stdio: ['pipe', 'pipe', 'inherit'] });
  servers.push(server);
  const first = await new Promise((res) => createInterface({ input: server.stdout }).once('line', res));
  const [, origin, token] = first.match(/(http:\/\/[^/ ]+)\/?(\?token=\w+)?/);
  return { trace: `${origin}/assets/trace/index.html${token}`, tree: `${origin}/${token}` };
}
const ready = (page) => page.waitForFunction(() => {
  const d = document.querySelector('#trace-view').dataset;
  return d.state === 'ready' && d.busy === '0';
}, null, { timeout: 60000 });
const data = (page, name) => page.locator('#trace-view').getAttribute('data-' + name);
const draws = async (page) => Number(await data(page, 'draws'));
const redrawn = (page, before) => page.waitForFunction((b) => {
  const d = document.querySelector('#trace-view').dataset;
  return Number(d.draws) > b && d.busy === '0';
}, before);
const box = (page, test) => page.locator(`[data-test=${test}]`).boundingBox();
const clickPath = async (page, fx, fy) => {
  const b = await box(page, 'overlay'), before = Number(await data(page, 'path-ready')) || 0;
  await page.mouse.click(b.x + b.width * fx, b.y + b.height * fy);
  await page.waitForFunction((n) => Number(document.querySelector('#trace-view').dataset.pathReady) > n && document.querySelector('#trace-view').dataset.busy === '0', before);
  return b;
};
const timeWindow = async (page) => [BigInt(await data(page, 't0')), BigInt(await data(page, 't1'))];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const errors = [];
try {
  const gen = await serve(db);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(gen.trace);
  await ready(page);

  // 1. the depth view and the summary: the timeline's width and place, one time axis
  const [tl, dv, sm] = [await box(page, 'timeline'), await box(page, 'depthview'), await box(page, 'summary')];
  check(Math.abs(dv.x - tl.x) <= 1 && Math.abs(dv.width - tl.width) <= 1 && Math.abs(sm.x - tl.x) <= 1 && Math.abs(sm.width - tl.width) <= 1,
    `depth view (x ${dv.x}, width ${dv.width}) and summary (x ${sm.x}, width ${sm.width}) span the timeline's (x ${tl.x}, width ${tl.width})`);
  const tileWidth = await page.evaluate(() => document.querySelector('[data-test=timeline]').width);
  check(Number(await data(page, 'summary-width')) === tileWidth, `the summary has a column per column of the timeline (${tileWidth})`);
  // GPU idleness beside the statistics, on demand: each stream's shares, as the route answers them for the window
  check(await page.locator('[data-test=gpu] li').count() === 0, 'GPU idleness is not read before its box is opened');
  await page.click('[data-test=gpu-box] summary');
  await page.waitForSelector('[data-test=gpu] li');
  const gpuShown = await page.locator('[data-test=gpu] li').allTextContents();
  const gpuAsked = await page.evaluate(async () => {
    const d = document.querySelector('#trace-view').dataset;
    return (await (await fetch(`/api/trace/gpu?t0=${d.t0}&t1=${d.t1}&order=identity`)).json()).streams;
  });
  const pct = (ns, of) => (100 * ns / of).toFixed(1) + '%';
  check(gpuShown.length === 3 && gpuAsked.every((s, i) => gpuShown[i] ===
      `${s.id}: idle ${pct(s.idle_ns, s.span_ns)}, ${pct(s.idle_wait_ns, s.span_ns)} while ${s.host_id} waits`) && gpuAsked.every((s) => s.idle_wait_ns > 0),
    `GPU idleness of the 3 streams: ${gpuShown[0]}`);
  await clickPath(page, 0.3, 0.1);
  const first = await data(page, 'depth-profile');
  check(first === await data(page, 'at-profile'), `the depth view shows the clicked profile (${first})`);
  await clickPath(page, 0.3, 0.9);
  check(await data(page, 'depth-profile') === await data(page, 'at-profile') && await data(page, 'depth-profile') !== first,
    `the depth view follows the next clicked profile (${await data(page, 'depth-profile')})`);
  // the wheel over the summary and a drag over the depth view move the one window
  const whole = await timeWindow(page);
  let n = await draws(page);
  await page.mouse.move(sm.x + sm.width / 2, sm.y + sm.height / 2);
  await page.mouse.wheel(0, -300);
  await redrawn(page, n);
  const zoomed = await timeWindow(page);
  check(zoomed[1] - zoomed[0] < whole[1] - whole[0], 'the wheel over the summary zooms the window of all three views');
  n = await draws(page);
  await page.mouse.move(dv.x + 700, dv.y + dv.height / 2);
  await page.mouse.down();
  await page.mouse.move(dv.x + 500, dv.y + dv.height / 2, { steps: 4 });
  await page.mouse.up();
  await redrawn(page, n);
  const panned = await timeWindow(page);
  check(panned[0] > zoomed[0] && panned[1] - panned[0] === zoomed[1] - zoomed[0], 'dragging the depth view pans the window');
  await page.screenshot({ path: `${out}/aligned-views.png` });

  // 2. the crosshair where the click fell, its time from the run's start
  const b = await clickPath(page, 0.42, 0.55);
  const [cx, cy] = (await data(page, 'cross')).split(',').map(Number);
  const rows = 13, row = Math.floor(0.55 * rows);
  check(Math.abs(cx - 0.42 * b.width) <= 2 && Math.abs(cy - (row + 0.5) / rows * b.height) <= 2,
    `the crosshair is at the click's time and row (${cx}, ${cy})`);
  const head = await page.locator('[data-test=path-head]').textContent();
  check(/at \d+(\.\d+)? (ns|µs|ms|s) from the run's start$/.test(head) && !/\d{12}/.test(head), `the path's heading gives the time from the run's start: ${head}`);
  await page.screenshot({ path: `${out}/crosshair.png` });

  // 3. undo and redo
  check(await page.locator('[data-test=redo]').isDisabled(), 'Redo is disabled while nothing was undone');
  n = await draws(page);
  await page.click('[data-test=undo]');
  await redrawn(page, n);
  check(String(await timeWindow(page)) === String(zoomed), 'Undo returns to the window before the pan');
  n = await draws(page);
  await page.click('[data-test=redo]');
  await redrawn(page, n);
  check(String(await timeWindow(page)) === String(panned), 'Redo goes forward to the panned window');
  n = await draws(page);
  await page.keyboard.press('Control+z');
  await redrawn(page, n);
  n = await draws(page);
  await page.keyboard.press('Control+y');
  await redrawn(page, n);
  check(String(await timeWindow(page)) === String(panned), 'Ctrl+Z then Ctrl+Y: the same window');

  // vertical zoom: half the rows, their labels only
  n = await draws(page);
  await page.click('[data-test=rows-in]');
  await redrawn(page, n);
  const labels = await page.locator('[data-test=labels] span').allTextContents();
  const height = await page.evaluate(() => document.querySelector('[data-test=timeline]').height);
  check(await data(page, 'rows') !== `0-${rows}` && height === labels.length && height < rows,
    `Rows in shows rows ${await data(page, 'rows')} (${height} tile rows, ${labels.length} labels)`);
  await page.screenshot({ path: `${out}/rows-in.png` });

  // a colour chosen for a context: drawn, and kept after a reload (localStorage)
  const busiest = page.locator('[data-test=stats] li:not([data-ctx="0"]):not([data-ctx="-2"])').first(); // not idle
  const swatch = busiest.locator('[data-test=colour]'), ctx = await busiest.getAttribute('data-ctx');
  n = await draws(page);
  await swatch.fill('#ff00ff');
  await redrawn(page, n);
  const magenta = () => page.evaluate(() => {
    const c = document.querySelector('[data-test=timeline]'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let k = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 0 && d[i + 2] === 255) k++;
    return k;
  });
  const lit = await magenta();
  check(lit > 0, `the chosen colour paints context ${ctx} (${lit} cells)`);
  await page.reload();
  await ready(page);
  check(await magenta() > 0 && await swatch.inputValue() === '#ff00ff', 'the chosen colour is kept after a reload');

  // the picture saved as PNG and SVG: the timeline with its labels and axis
  const saved = async (test) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-test=${test}]`)]);
    const path = `${out}/${dl.suggestedFilename()}`;
    await dl.saveAs(path);
    return readFileSync(path);
  };
  const png = await saved('save-png'), svgText = (await saved('save-svg')).toString(), tl2 = await box(page, 'timeline');
  const shown = await page.locator('[data-test=labels] span').allTextContents(), svgW = Number(svgText.match(/width="(\d+)"/)[1]);
  check(png.subarray(1, 4).toString() === 'PNG' && png.readUInt32BE(16) === svgW && svgW >= Math.round(tl2.width) + 6 * Math.max(...shown.map((l) => l.length)),
    `PNG saved (${png.length} bytes, ${png.readUInt32BE(16)} × ${png.readUInt32BE(20)} px: the timeline and room for its labels)`);
  check(/^<svg /.test(svgText) && (svgText.match(/<rect /g) || []).length > rows && shown.every((l) => svgText.includes(`>${l}</text>`)) &&
    svgText.includes('fill="rgb(255,0,255)"'), `SVG saved with every row's label and the chosen colour (${svgText.length} bytes)`);

  // grouped labels when rows are thinner than a line of text; a rectangle zooms to rows and time
  const lots = await serve(many);
  await page.goto(lots.trace);
  await ready(page);
  const groups = await page.locator('[data-test=labels] span.group').evaluateAll((s) => s.map((e) => [e.textContent, e.getBoundingClientRect().top]));
  const apart = groups.every(([, top], i) => i === 0 || top - groups[i - 1][1] >= 11);
  check(groups.length >= 30 && groups.every(([t]) => /^NODE \S+ RANK \d+$/.test(t)) && apart,
    `300 rows of 2 px: ${groups.length} rank labels, none overlapping (${groups.slice(0, 3).map(([t]) => t).join('; ')}…)`);
  await page.screenshot({ path: `${out}/grouped-labels.png` });
  const ob = await box(page, 'overlay');
  n = await draws(page);
  await page.keyboard.down('Shift');
  await page.mouse.move(ob.x + ob.width * 0.2, ob.y + ob.height * 0.25);
  await page.mouse.down();
  await page.mouse.move(ob.x + ob.width * 0.6, ob.y + ob.height * 0.30, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await redrawn(page, n);
  const [r0, r1] = (await data(page, 'rows')).split('-').map(Number), each = await page.locator('[data-test=labels] span.row').count();
  check(r0 >= 70 && r1 <= 95 && r1 - r0 >= 10 && each === r1 - r0, `a rectangle zooms to rows ${r0}–${r1}, each labelled (${each})`);
  await page.screenshot({ path: `${out}/rectangle-zoom.png` });

  // the tree views and the timeline, in two tabs of one browser
  const pp = await serve(treeDb);
  const tree = await context.newPage(), trace = await context.newPage();
  tree.on('pageerror', (e) => errors.push(e.message)); trace.on('pageerror', (e) => errors.push(e.message));
  await tree.goto(pp.tree);
  await tree.waitForSelector('#tree tr[data-node]');
  await trace.goto(pp.trace);
  await ready(trace);
  await clickPath(trace, 0.8, 0.25);
  const frames = trace.locator('[data-test=path] li');
  const inner = frames.nth((await frames.count()) - 1), innerCtx = await inner.getAttribute('data-ctx');
  await inner.click();
  await tree.waitForSelector(`#tree tr.selected[data-node="${innerCtx}"]`, { timeout: 10000 }).catch(() => null);
  check(await tree.locator(`#tree tr.selected[data-node="${innerCtx}"]`).count() === 1,
    `clicking the frame ${await inner.textContent()} selects node ${innerCtx} in the top-down tree`);
  await tree.screenshot({ path: `${out}/tree-selected-from-timeline.png` });
  const mainCtx = await tree.evaluate(() => [...document.querySelectorAll('#tree tr[data-node]')]
    .find((tr) => tr.cells[0].textContent.replace(/^\W+/, '') === 'main').dataset.node);
  const mainRow = tree.locator(`#tree tr[data-node="${mainCtx}"]`);
  n = await draws(trace);
  await mainRow.click();
  await redrawn(trace, n);
  await trace.waitForSelector(`[data-test=stats] li.lit[data-ctx="${mainCtx}"]`, { timeout: 10000 }).catch(() => null);
  check(await trace.locator(`[data-test=stats] li.lit[data-ctx="${mainCtx}"]`).count() === 1 && Number(await data(trace, 'highlight-cells')) > 0 &&
    await data(trace, 'depth') === '1', `selecting main (${mainCtx}) in the tree highlights its time at depth 1 (${await data(trace, 'highlight-cells')} cells)`);
  await trace.screenshot({ path: `${out}/timeline-highlight-from-tree.png` });
  // the tree's Timeline link, opened after a selection, shows the node highlighted; the timeline's URL keeps it
  const href = await tree.locator('#timeline').getAttribute('href');
  const third = await context.newPage();
  await third.goto(new URL(href, pp.tree).href);
  await ready(third);
  check(/#hl=\d+$/.test(href) && await third.locator(`[data-test=stats] li.lit[data-ctx="${mainCtx}"]`).count() === 1 &&
    await data(third, 'depth') === '1' && new URL(third.url()).hash.includes(`hl=${mainCtx}`),
    `the Timeline link after selecting main (${href}) opens the timeline with main highlighted at depth 1`);
  n = await draws(trace);
  await trace.keyboard.press('Escape');
  await redrawn(trace, n);
  check(await trace.locator('[data-test=stats] li.lit').count() === 0, 'Escape clears the highlight');
  check(errors.length === 0, 'no script errors ' + errors.join('; '));
} finally {
  await browser.close();
  for (const s of servers) { s.stdin.end(); s.kill('SIGTERM'); }
}
console.log(`screenshots in ${out}; ${failures} failures`);
process.exit(failures ? 1 : 0);
