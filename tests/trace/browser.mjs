/* SPDX-License-Identifier: BSD-3-Clause */
// The trace view in the browser: draws, zoom/pan/undo, depth, the calling
// path at a clicked point against `hpcdb report --view trace --at`, filters,
// the URL restoring the viewport. Screenshots go to OUTDIR.
import { createRequire } from 'node:module';
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';

const { chromium } = createRequire(`${process.env.PLAYWRIGHT_DIR}/package.json`)('playwright-core');
const [serve, hpcdb, assets, db, out] = process.argv.slice(2); // then optionally a database of long rows
let failures = 0;
const check = (ok, what) => { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures++; };

// SERVE is hpcdb itself (`hpcdb view`, the page under /assets/trace/, the token in the URL) or the
// test server tests/trace/trace_serve (the page at /)
const viaView = /hpcdb$/.test(serve);
const coarseDb = process.argv[7];
async function serveDb(path) {
  const server = spawn(serve, viaView ? ['view', '--no-browser', '--port', '0', path] : [assets, path],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const first = await new Promise((res) => createInterface({ input: server.stdout }).once('line', res));
  const printed = first.match(/(http:\/\/[^/ ]+)\/?(\?token=\w+)?/);
  return { server, url: viaView ? `${printed[1]}/assets/trace/index.html${printed[2]}` : first };
}
const { server, url } = await serveDb(db);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const root = page.locator('#trace-view');
  const attr = (name) => root.getAttribute('data-' + name);
  const draws = async () => Number(await attr('draws'));
  // a new tile drawn and no request left in flight (mini-map, statistics, summary, depth view)
  const waitDraw = async (before) => page.waitForFunction((b) => {
    const d = document.querySelector('#trace-view').dataset;
    return Number(d.draws) > b && d.busy === '0';
  }, before);
  const view = async () => ({ t0: BigInt(await attr('t0')), t1: BigInt(await attr('t1')), depth: await attr('depth') });

  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('#trace-view').dataset.state === 'ready');
  await page.waitForSelector('[data-test=stats] li');
  const picture = await page.evaluate(() => {
    const c = document.querySelector('[data-test=timeline]'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4) colours.add(d[i] << 16 | d[i + 1] << 8 | d[i + 2]);
    return { w: c.width, h: c.height, colours: colours.size };
  });
  check(picture.h === 13 && picture.colours > 4, `the timeline draws every profile (${picture.w}x${picture.h} cells, ${picture.colours} colours)`);
  await page.screenshot({ path: `${out}/timeline.png` });
  // 400 events a row over ~1,000 columns: every cell exact per pixel
  const statusText = async () => page.locator('[data-test=status]').textContent();
  check(/each cell: exact per pixel/.test(await statusText()), `the status line says the whole run's cells are exact per pixel: ${await statusText()}`);

  const whole = await view();
  let n = await draws();
  await page.click('[data-test=zoom-in]');
  await waitDraw(n);
  const zoomed = await view();
  check(zoomed.t1 - zoomed.t0 < whole.t1 - whole.t0, 'Zoom in narrows the window');
  const box = await page.locator('[data-test=overlay]').boundingBox();
  n = await draws();
  await page.mouse.move(box.x + box.width / 2, box.y + 20);
  await page.mouse.wheel(0, -300);
  await waitDraw(n);
  const wheeled = await view();
  check(wheeled.t1 - wheeled.t0 < zoomed.t1 - zoomed.t0, 'the wheel zooms in');
  n = await draws();
  await page.mouse.move(box.x + 600, box.y + 50);
  await page.mouse.down();
  await page.mouse.move(box.x + 400, box.y + 50, { steps: 5 });
  await page.mouse.up();
  await waitDraw(n);
  const panned = await view();
  check(panned.t0 > wheeled.t0 && panned.t1 - panned.t0 === wheeled.t1 - wheeled.t0, 'dragging pans later in time');
  await page.screenshot({ path: `${out}/zoomed.png` });
  n = await draws();
  await page.click('[data-test=undo]');
  await waitDraw(n);
  const undone = await view();
  check(undone.t0 === wheeled.t0 && undone.t1 === wheeled.t1, 'Undo returns to the previous window');
  n = await draws();
  await page.mouse.move(box.x + 300, box.y + 30);
  await page.keyboard.down('Shift');
  await page.mouse.down();
  await page.mouse.move(box.x + 500, box.y + 30, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await waitDraw(n);
  const region = await view();
  check(region.t0 > undone.t0 && region.t1 < undone.t1, 'shift-drag zooms to the selected region');

  n = await draws();
  await page.selectOption('[data-test=depth]', '1');
  await waitDraw(n);
  check((await view()).depth === '1', 'the depth changes');

  for (const [fx, fy] of [[0.37, 0.5], [0.81, 0.1]]) {
    const before = Number(await attr('path-ready')) || 0;
    await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    await page.waitForFunction((b) => Number(document.querySelector('#trace-view').dataset.pathReady) > b, before);
    const profile = await attr('at-profile'), t = await attr('at-t');
    const shown = await page.locator('[data-test=path] li').allTextContents();
    let cli = '';
    try { cli = execFileSync(hpcdb, ['report', '--view', 'trace', '--at', `${profile}:${t}`, db], { encoding: 'utf8' }); } catch (e) { cli = 'error: ' + e.stderr; }
    check(shown.join('\n') + '\n' === cli, `the calling path at profile ${profile}, ${t} ns equals the CLI's (${shown.length} frames)`);
    check(/from the run's start$/.test(await page.locator('[data-test=status]').textContent()), 'the click\'s time is relative to the run\'s start');
  }
  // clicking a frame of the path colours the timeline at that frame's depth (the path lists frames from depth 0)
  const frames = page.locator('[data-test=path] li');
  const deepest = (await frames.count()) - 1;
  n = await draws();
  await frames.nth(deepest).click();
  await waitDraw(n);
  check((await view()).depth === String(deepest), `clicking the innermost frame sets the depth to ${deepest} (${(await view()).depth})`);
  await page.waitForFunction(() => Number(document.querySelector('#trace-view').dataset.depthRows) > 0);
  await page.screenshot({ path: `${out}/depth-and-path.png` });

  n = await draws();
  await page.fill('[data-test=rows]', 'GPUSTREAM');
  await page.press('[data-test=rows]', 'Enter');
  await waitDraw(n);
  const gpu = await page.evaluate(() => document.querySelector('[data-test=timeline]').height);
  check(gpu === 3, `the profile filter keeps the 3 GPU streams (${gpu} rows)`);
  await page.screenshot({ path: `${out}/gpu-streams.png` });
  n = await draws();
  await page.fill('[data-test=rows]', '');
  await page.fill('[data-test=ctx]', 'MPI_*');
  await page.press('[data-test=ctx]', 'Enter');
  await waitDraw(n);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-test=stats] li')].some((li) => li.textContent.includes('<filtered out>')));
  check(true, 'the context filter greys out everything but MPI_*');
  await page.screenshot({ path: `${out}/mpi-filter.png` });

  const before = await view(), link = page.url();
  const page2 = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page2.goto(link);
  await page2.waitForFunction(() => document.querySelector('#trace-view').dataset.state === 'ready');
  const t0 = await page2.locator('#trace-view').getAttribute('data-t0'), d = await page2.locator('#trace-view').getAttribute('data-depth');
  check(BigInt(t0) === before.t0 && d === before.depth, 'the URL restores the window and depth');
  check(errors.length === 0, 'no script errors ' + errors.join('; '));
  if (coarseDb) { // rows of 200,000 events: the whole run's cells are whole buckets of the index
    const other = await serveDb(coarseDb), page3 = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page3.goto(other.url);
      await page3.waitForFunction(() => document.querySelector('#trace-view').dataset.state === 'ready', null, { timeout: 120000 });
      const text = await page3.locator('[data-test=status]').textContent();
      check(/each cell: whole buckets of 64 events \(≈ [\d.]+ [nµm]?s each\)/.test(text), `the status line names the bucket width: ${text}`);
      await page3.screenshot({ path: `${out}/coarse-status.png` });
    } finally { other.server.stdin.end(); other.server.kill('SIGTERM'); }
  }
} finally {
  await browser.close();
  server.stdin.end();
  server.kill('SIGTERM');
}
console.log(`screenshots in ${out}; ${failures} failures`);
process.exit(failures ? 1 : 0);
