/* SPDX-License-Identifier: BSD-3-Clause */
// api.js's stand-in in an exported page (export_loader.js puts it in
// api.js's place): the server's routes (src/view/routes*.c) answered from
// the snapshot `hpcdb export --format html` embeds (src/lib/page/snapshot.c),
// in the same JSON shapes, over the nodes and metrics the export kept.
import { compile } from './formula.js';

const snap = JSON.parse(document.getElementById('hpcdb-snapshot').textContent);
const db = snap.info.databases[0];
const metrics = [...db.metrics]; // the snapshot's, then the formulas asked for (their values appended to each node's)
const formulas = []; // [metric index, compiled], applied to each view as it is built
const VIEWS = ['top-down', 'bottom-up', 'flat'];
const MAX_LIMIT = 10000; // the server's VIEW_MAX_LIMIT
const MAX_COLUMNS = 64; // and VIEW_MAX_COLUMNS
const ELSEWHERE = 'hpcdb view on the database has it';

const nodes = new Map(); // view -> Map(node -> {node, parent, name, vals, file, line, kids})
function viewOf(name) {
  if (!VIEWS.includes(name)) throw new Error('view: expected top-down, bottom-up or flat');
  if (!nodes.has(name)) {
    const m = new Map();
    for (const [node, parent, nm, vals, file, line] of snap.views[name]) m.set(node, { node, parent, name: nm, vals, file, line, kids: [] });
    for (const n of m.values()) if (n.parent !== null) m.get(n.parent).kids.push(n);
    for (const [, f] of formulas) apply(m, f);
    nodes.set(name, m);
  }
  return nodes.get(name);
}

function u32(args, key, def, max) {
  const v = args[key];
  if (v === undefined || v === null || v === '') return def;
  if (!/^\d{1,10}$/.test(String(v))) throw new Error(`${key}: expected a number from 0 to ${max}`); // request.c's words
  if (Number(v) > max) throw new Error(`${key}: ${Number(v)} is more than ${max}`);
  return Number(v);
}

function stored(name) {
  const c = db.metrics.findIndex((m) => m.name === name);
  if (c < 0) throw new Error(`metric "${name}" is not in this exported page (it holds ${db.metrics.map((m) => `"${m.name}"`).join(', ')}): ${ELSEWHERE}`);
  return c;
}

// $N is the database's metric N: the page must hold every metric, in the database's order
function numbered(n) {
  if (snap.export.metrics.kept !== snap.export.metrics.in_database) throw new Error(`$${n}: this exported page holds ${snap.export.metrics.kept} of the ${snap.export.metrics.in_database} metrics: name the metric`);
  if (n >= db.metrics.length) throw new Error(`$${n}: the experiment has metrics $0 to $${db.metrics.length - 1}`);
  return n;
}

// The formula's inclusive value over its inputs' inclusive values, exclusive over exclusive (docs/query.md),
// computed from each row's values (the server computes it per context and then sums: the same for sums and scalings)
function apply(view, f) {
  for (const n of view.values()) {
    const inc = [], exc = [];
    for (let c = 0; 2 * c < n.vals.length; c++) inc.push(n.vals[2 * c]), exc.push(n.vals[2 * c + 1]);
    n.vals.push(f(inc), f(exc));
  }
}

// A metric's or a formula's column (a formula is compiled once, its values added to every node).
function column(name) {
  const c = metrics.findIndex((m) => m.name === name);
  if (c >= 0) return c;
  let f;
  try { f = compile(name, stored, numbered); } catch (e) {
    if (/[$"+\-*/]/.test(name)) throw e;
    return stored(name); // a plain name the page does not hold: say so
  }
  formulas.push([metrics.length, f]);
  for (const view of nodes.values()) apply(view, f);
  const root = viewOf('top-down').get(0);
  metrics.push({ name, column: metrics.length, seconds: 0, total: root.vals[root.vals.length - 2] });
  return metrics.length - 1;
}

function node(view, args) {
  const id = u32(args, 'node', 0, 2 ** 32 - 2), n = viewOf(view).get(id);
  if (!n) {
    const v = snap.export.views[view];
    throw new Error(id < v.nodes ? `node ${id} is not in this exported page (it holds the heaviest ${v.kept} of ${v.nodes} ${view} nodes): ${ELSEWHERE}`
                                 : `node ${id} does not exist in this view`);
  }
  return n;
}

function nodeJson(n, cols) {
  const out = { node: n.node, children: n.kids.length, name: n.name };
  if (n.file !== undefined) Object.assign(out, { file: n.file, line: n.line });
  out.values = cols.map((c) => [n.vals[2 * c], n.vals[2 * c + 1]]);
  return out;
}

// The children's order of the query layer: by the value, ties by node (top-down) or by name.
function order(view, c, exclusive, ascending) {
  const f = 2 * c + (exclusive ? 1 : 0), sign = ascending ? -1 : 1;
  const tie = view === 'top-down' ? (a, b) => a.node - b.node : (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return (a, b) => (a.vals[f] !== b.vals[f] ? (a.vals[f] > b.vals[f] ? -sign : sign) : tie(a, b));
}

const routes = {
  info: () => snap.info,

  children(args) {
    const view = args.view || 'top-down';
    viewOf(view);
    if (args.profile) throw new Error(`a profile's own tree is not in an exported page: ${ELSEWHERE}`);
    const names = args.metrics ? String(args.metrics).split('\n') : [args.metric || db.default_metric];
    if (names.length > MAX_COLUMNS) throw new Error(`metrics: more than ${MAX_COLUMNS}`);
    const cols = names.map(column);
    const n = node(view, args), offset = u32(args, 'offset', 0, 2 ** 32 - 2), limit = u32(args, 'limit', 100, MAX_LIMIT);
    const c = cols[u32(args, 'sort_col', 0, cols.length - 1)];
    if (args.sort && !['inclusive', 'exclusive'].includes(args.sort)) throw new Error('sort: expected inclusive or exclusive');
    if (args.order && !['desc', 'asc'].includes(args.order)) throw new Error('order: expected desc or asc');
    const kids = n.kids.filter((k) => k.vals[2 * c] !== 0 || k.vals[2 * c + 1] !== 0) // no zero rows, as report
      .sort(order(view, c, args.sort === 'exclusive', args.order === 'asc'));
    return { metrics: cols.map((k) => metrics[k]), total: kids.length, offset, parent: nodeJson(n, cols),
      rows: kids.slice(offset, offset + limit).map((k) => nodeJson(k, cols)) };
  },

  path(args) {
    const view = args.view || 'top-down', m = viewOf(view), path = [];
    for (let n = node(view, args); n; n = n.parent === null ? null : m.get(n.parent)) path.push(n.node);
    return { path };
  },

  search(args) {
    const offset = u32(args, 'offset', 0, 2 ** 32 - 2), limit = u32(args, 'limit', 100, MAX_LIMIT);
    if (!args.re) throw new Error('re: a regular expression is needed');
    let re;
    try { re = new RegExp(args.re); } catch (e) { throw new Error(`search "${args.re}": ${e.message}`); }
    const hits = [...viewOf('top-down').values()].filter((n) => re.test(n.name)).sort((a, b) => a.node - b.node); // tree order
    const m = viewOf('top-down'), up = (n) => { const p = []; for (let a = m.get(n.parent); a; a = m.get(a.parent)) p.push(a.node); return p; };
    return { total: hits.length, hits: hits.slice(offset, offset + limit).map((n) => ({ node: n.node, name: n.name, ...(args.paths ? { path: up(n) } : {}) })) };
  },

  // each step the child holding at least half of its parent's inclusive value (report --hot-path's rule)
  hotpath(args) {
    const c = column(args.metric || db.default_metric), path = [];
    for (let n = node('top-down', args); n && path.length < 1024;) {
      path.push(n.node);
      let best = null;
      for (const k of n.kids) if (!best || k.vals[2 * c] > best.vals[2 * c] || (k.vals[2 * c] === best.vals[2 * c] && k.node < best.node)) best = k;
      n = best && best.vals[2 * c] !== 0 && best.vals[2 * c] >= 0.5 * n.vals[2 * c] ? best : null;
    }
    return { path };
  },

  spread(args) {
    if (args.flavour && !['inclusive', 'exclusive'].includes(args.flavour)) throw new Error('flavour: expected inclusive or exclusive');
    if (snap.spread_error) throw new Error(snap.spread_error);
    const n = node('top-down', args), s = snap.spread[n.node];
    if ((args.metric || db.default_metric) !== snap.export.by || args.flavour === 'exclusive' || !s)
      throw new Error(`this node's values over the profiles are not in this exported page (it holds the inclusive ${snap.export.by} ` +
                      `of the heaviest ${snap.export.spread_nodes} nodes): ${ELSEWHERE}`);
    return { ...s, points: s.points.map(([v, p]) => [v, p, snap.profile_names[p]]) };
  },

  source: () => { throw new Error('Source files are not in an exported page (hpcdb view shows them).'); },
  formula: (args) => {
    if (!args.expr) throw new Error('expr: a formula is needed');
    return { metric: metrics[column(String(args.expr))] };
  },
};

export async function get(route, args) {
  if (!Object.hasOwn(routes, route)) throw new Error(`${route}: not in an exported page`);
  return routes[route](args || {});
}

// The CSV of a view (the server's /api/csv, report --csv's columns) over the nodes this page holds;
// the context column is empty (the snapshot keeps no native ids).
export async function getText(route, args) {
  if (route !== 'csv') throw new Error(`${route}: not in an exported page`);
  const q = (t) => `"${t.replace(/"/g, '""')}"`;
  const first = routes.children({ ...args, limit: 1 });
  const heads = first.metrics.flatMap((m) => ['inclusive', 'percent', 'exclusive'].map((f) => `${q(m.name)} ${f}`));
  const lines = [['depth', 'context', 'name', ...heads].join(',')];
  const row = (r, depth) => lines.push([depth, '', q(r.name), ...r.values.flatMap(([inc, exc], i) => {
    const t = first.metrics[i].total;
    return [inc, (t ? 100 * inc / t : 0).toFixed(2), exc];
  })].join(','));
  const walk = (r, depth) => {
    row(r, depth);
    if (r.children) for (const k of routes.children({ ...args, node: r.node, offset: 0, limit: MAX_LIMIT }).rows) walk(k, depth + 1);
  };
  walk(first.parent, 0);
  return `${lines.join('\n')}\n`;
}
