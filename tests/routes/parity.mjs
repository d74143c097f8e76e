/* SPDX-License-Identifier: BSD-3-Clause */
// The exported page's answers against the server's, without a browser:
// `hpcdb view DB` and api_static.js (loaded here over the snapshot of
// `hpcdb export --format html DB`) get the requests src/view/routes.json's
// parameters give, on nodes the export kept; the answers must be the same
// JSON (numbers to 1e-9 relative), the bad parameters the same error.
// Usage: node parity.mjs HPCDB SOURCE_DIR DB OUTDIR
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [hpcdb, src, dbPath, outDir] = process.argv.slice(2);
if (!existsSync(dbPath)) { console.log(`skipped: ${dbPath} is not here (HPCDB_SAMPLE_DATA)`); process.exit(77); }
const contract = JSON.parse(readFileSync(join(src, 'src/view/routes.json'), 'utf8')).routes;
const byPath = new Map(contract.map((r) => [r.path.slice(5), r]));
let failed = 0, compared = 0;
const fail = (msg) => { failed++; if (failed <= 20) console.log(`FAILED: ${msg}`); };

// the exported page's snapshot, and api_static.js over it (it reads the page's <script id="hpcdb-snapshot">)
mkdirSync(outDir, { recursive: true });
const page = join(outDir, 'page.html');
execFileSync(hpcdb, ['export', '--format', 'html', '--force', dbPath, '-o', page], { stdio: 'pipe' });
const html = readFileSync(page, 'utf8'), open = '<script type="application/json" id="hpcdb-snapshot">';
const snapText = html.slice(html.indexOf(open) + open.length, html.indexOf('</script>', html.indexOf(open)));
globalThis.document = { getElementById: (id) => (id === 'hpcdb-snapshot' ? { textContent: snapText } : null) };
const staticApi = await import(pathToFileURL(join(src, 'src/lib/page/assets/api_static.js')).href);
const snap = JSON.parse(snapText);

// the server
const server = spawn(hpcdb, ['view', '--port', '0', '--no-browser', dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = (await createInterface({ input: server.stdout })[Symbol.asyncIterator]().next()).value || '';
const m = first.match(/^hpcdb view: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([0-9a-f]{32})$/);
if (!m) { server.kill(); throw new Error(`hpcdb view printed ${JSON.stringify(first)}`); }

// {ok, body} or {ok: false, error} from each side
async function fromServer(route, args) {
  const q = new URLSearchParams({ ...args, token: m[2] });
  const r = await fetch(`${m[1]}/api/${route}?${q}`);
  const body = await r.json();
  return r.ok ? { ok: true, body } : { ok: false, error: body.error, status: r.status };
}
async function fromPage(route, args) {
  try { return { ok: true, body: await staticApi.get(route, args) }; } catch (e) { return { ok: false, error: e.message }; }
}

// where a and b differ ('' if nowhere); metrics' "column" is the query layer's index on the server, the page's own in it;
// the contract's page_at_most fields may be smaller in b, its page_subset lists a part of a's, in a's order
function differ(a, b, r, at = '') {
  const field = at.slice(at.lastIndexOf('.') + 1);
  if (Array.isArray(a) && Array.isArray(b) && (r.page_subset || []).includes(field)) {
    let i = 0;
    for (const x of b) {
      while (i < a.length && differ(a[i], x, r, at)) i++;
      if (i++ === a.length) return `${at}: ${JSON.stringify(x)} is not in the server's, in its order`;
    }
    return '';
  }
  if (typeof a === 'number' && typeof b === 'number') {
    if ((r.page_at_most || []).includes(field) && b <= a) return '';
    return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) ? '' : `${at}: ${a} != ${b}`;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b ? '' : `${at}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  if (/\.metrics\[\d+\]$/.test(at)) keys.delete('column');
  for (const k of keys) {
    const where = Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`;
    if (!(k in a) || !(k in b)) return `${where}: only in the ${k in a ? 'server' : 'page'}'s answer`;
    const d = differ(a[k], b[k], r, where);
    if (d) return d;
  }
  return '';
}
const kept = (view, node) => snap.views[view].some((n) => n[0] === node);

async function same(route, args, what = 'answer') {
  const [s, p] = await Promise.all([fromServer(route, args), fromPage(route, args)]);
  const label = `/api/${route}?${new URLSearchParams(args)}`;
  compared++;
  if (what === 'error') {
    if (s.ok || p.ok) fail(`${label}: an error wanted, the ${s.ok ? 'server' : 'page'} answered`);
    else if (s.error !== p.error) fail(`${label}: the server says "${s.error}", the page "${p.error}"`);
    return null;
  }
  if (!s.ok || !p.ok) { fail(`${label}: ${s.ok ? '' : `server: ${s.error} `}${p.ok ? '' : `page: ${p.error}`}`); return null; }
  const d = differ(s.body, p.body, byPath.get(route), route);
  if (d) fail(`${label}: ${d}`);
  return s.body;
}

const info = snap.info.databases[0], metrics = info.metrics.map((x) => x.name);
try {
  // info: what the page keeps of the server's (its access line and path say what the page is)
  const si = (await fromServer('info', {})).body.databases[0];
  for (const k of ['title', 'format', 'contexts', 'profiles', 'default_metric']) if (si[k] !== info[k]) fail(`info.${k}: ${si[k]} != ${info[k]}`);
  for (const name of metrics) if (!si.metrics.some((x) => x && x.name === name)) fail(`info: the page's metric "${name}" is not the server's`);

  // nodes: per view the root, its kept children, and theirs (a few)
  const nodes = {};
  for (const view of byPath.get('children').params.find((p) => p.name === 'view').values) {
    nodes[view] = [0];
    for (let i = 0; i < nodes[view].length && nodes[view].length < 12; i++) {
      const kids = await same('children', { view, node: nodes[view][i], limit: 4 });
      for (const r of kids ? kids.rows : []) if (kept(view, r.node)) nodes[view].push(r.node);
    }
  }
  for (const [view, list] of Object.entries(nodes))
    for (const node of list) {
      await same('path', { view, node });
      for (const metric of metrics.slice(0, 3)) for (const sort of ['inclusive', 'exclusive']) for (const order of ['desc', 'asc'])
        await same('children', { view, node, metric, sort, order, offset: 1, limit: 3 });
    }
  if (metrics.length > 1) await same('children', { node: 0, metrics: metrics.slice(0, 2).join('\n'), sort_col: 1 });
  for (const node of nodes['top-down']) await same('hotpath', { node });
  for (const node of Object.keys(snap.spread).slice(0, 6)) await same('spread', { node });
  const name = snap.views['top-down'][1]?.[2] || 'main';
  await same('search', { re: name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'), limit: 5 });
  await same('search', { re: '.', limit: 10000 });

  // bad parameters: the same error, for every checked parameter of a route the page answers (the required ones given);
  // a parameter the page refuses: its words say so
  for (const r of contract.filter((x) => x.static === 'answers')) {
    const route = r.path.slice(5), base = Object.fromEntries(r.params.filter((p) => p.required).map((p) => [p.name, '.']));
    for (const p of r.params) {
      const bad = p.type === 'enum' ? ['nonsense'] : ['u32', 'node'].includes(p.type) && p.max ? ['x', '-1', String(p.max + 1)] : [];
      if (p.static !== 'refuses') for (const v of bad) await same(route, { ...base, [p.name]: v }, 'error');
      const refused = p.static === 'refuses' && (await fromPage(route, { ...base, [p.name]: '0' }));
      if (refused && (refused.ok || !/exported page/.test(refused.error))) fail(`/api/${route}?${p.name}=0: the page should refuse it, it says ${refused.error}`);
    }
  }
  // refused routes: the page says so, naming the exported page
  for (const r of contract.filter((x) => x.static !== 'answers')) {
    const p = await fromPage(r.path.slice(5), {});
    if (p.ok || !/exported page/.test(p.error)) fail(`${r.path}: the page should refuse it as not in an exported page, it says ${p.error}`);
  }
} finally {
  server.kill('SIGTERM');
}
console.log(`${dbPath}: ${compared} requests compared, ${failed} different`);
process.exit(failed ? 1 : 0);
