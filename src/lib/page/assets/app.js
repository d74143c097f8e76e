/* SPDX-License-Identifier: BSD-3-Clause */
// The page: wires the header's controls, the tree, the panes and the URL state.
import { get } from './api.js';
import { load, save } from './state.js';
import { Tree, ROW } from './tree.js';
import { showSpread, showSource } from './panes.js';
import { chooser } from './columns.js';
import { splitter } from './split.js';
import { fillMetrics, descriptions } from './metriclist.js';
import { parseDefinition, checkFormat, derivedList, derivedOf, specOf, addDerived } from './derived.js';

const $ = (s) => document.querySelector(s);
const state = load();
const status = (t) => { $('#status').textContent = t; };
let info, highlight = null;

const tree = new Tree($('#tree-pane'), state, select);
tree.onChange = refresh;
tree.onMove = (names) => { state.cols = names; restart(); }; // a metric's headers dragged onto another's

async function refresh() {
  save(state);
  document.documentElement.dataset.theme = state.theme || '';
  for (const b of document.querySelectorAll('#views button')) b.classList.toggle('active', b.dataset.view === state.view);
  $('#flatten').hidden = $('#unflatten').hidden = state.view !== 'flat';
  $('#unflatten').disabled = state.flat === '0';
  $('#pct').checked = state.pct === '1';
  $('#profile').hidden = !state.profile;
  $('#profile-name').textContent = state.pname || `profile ${state.profile}`;
  status('Loading…');
  const t0 = performance.now();
  try {
    await tree.render(highlight);
    const db = info.databases[0], why = tree.metric.name === db.default_metric ? ` (${db.default_why})` : '';
    status(`${db.path} · ${db.access} · ${state.view} · ${tree.metric.name}${why} · ` +
           `${state.profile ? `${state.pname} · ` : ''}` +
           `${tree.visible.length} rows · ${Math.round(performance.now() - t0)} ms`);
  } catch (e) { status(`Error: ${e.message}`); }
}

function select(row) {
  state.sel = String(row.node);
  save(state);
  for (const tr of document.querySelectorAll('#tree tr.selected')) tr.classList.remove('selected');
  for (const tr of document.querySelectorAll(`#tree tr[data-node="${row.node}"]`)) tr.classList.add('selected');
  const sec = tree.metric ? tree.metric.seconds : 0, asked = { view: state.view, metric: specOf(state, state.metric) };
  showSpread($('#spread-body'), asked, row.node, sec, (profile, name) => { state.profile = String(profile); state.pname = name; restart(); });
  showSource($('#source-body'), asked, row, sec);
}

// Another view: the panes showed the last view's selection; they wait for one in this view (late answers dropped).
function clearPanes() {
  for (const el of [$('#spread-body'), $('#source-body')]) {
    el.textContent = 'Select a node.';
    delete el.dataset.node;
    delete el.dataset.ready;
  }
}

function restart() { tree.reset(); refresh(); }

function command() {
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const profile = state.profile ? ` --profile ${quote(state.pname)}` : '';
  return `hpcdb report --view ${state.view} --metric ${quote(specOf(state, tree.metric.name))}${profile} ${quote(info.databases[0].path)}`;
}

function csv() {
  const q = (s) => `"${s.replace(/"/g, '""')}"`;
  const heads = tree.metrics.length > 1 ? tree.metrics.flatMap((m) => [q(`${m.name} inclusive`), q(`${m.name} exclusive`)]) : ['inclusive', 'exclusive'];
  const lines = [['depth', 'node', 'name', ...heads].join(',')];
  for (const v of tree.visible) if (v.row) lines.push([v.depth, v.row.node, q(v.row.name), ...v.row.values.flat()].join(','));
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }));
  a.download = `hpcdb-${state.view}.csv`;
  a.click();
}

async function hotPath() {
  status('Loading the hot path…');
  const from = state.view === 'top-down' && state.sel ? state.sel : state.zoom;
  const r = await get('hotpath', { node: from, metric: specOf(state, state.metric) });
  for (const n of r.path) state.open.add(String(n));
  await refresh();
  selectNode(r.path[r.path.length - 1]);
}

function selectNode(node) { pick(tree.indexOf(node)); }

// Row i of the open rows: scrolled into the window and selected (its page fetched first when it is not yet).
async function pick(i) {
  if (i < 0 || i >= tree.visible.length) return;
  tree.reveal(i);
  const v = tree.visible[i];
  if (v.row) select(v.row);
  else {
    await tree.fetch([v]);
    if (tree.visible[i] && tree.visible[i].row) select(tree.visible[i].row);
  }
}

async function search(text) {
  state.re = text;
  highlight = null;
  if (!text) return refresh();
  status('Loading the matches…');
  try {
    highlight = new RegExp(text);
    const r = await get('search', { re: text, limit: 50 });
    for (const h of r.hits) {
      const p = await get('path', { node: h.node });
      for (const n of p.path.slice(1)) state.open.add(String(n));
    }
    await refresh();
    const first = tree.visible.findIndex((v) => v.row && highlight.test(v.row.name));
    if (first >= 0) tree.reveal(first); // the window may be elsewhere in a long list
    status(`${r.total} matches for /${text}/`);
  } catch (e) { status(`Search: ${e.message}`); }
}

function keys(ev) {
  if (ev.target.tagName === 'INPUT') return;
  const at = state.sel ? tree.indexOf(state.sel) : -1;
  const node = at >= 0 ? state.sel : null;
  const page = Math.max(1, Math.floor(tree.pane.clientHeight / ROW) - 2);
  const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -Infinity, End: Infinity };
  if (ev.key === '/') { ev.preventDefault(); $('#search').focus(); }
  else if (moves[ev.key]) { ev.preventDefault(); pick(Math.max(0, Math.min(at + moves[ev.key], tree.visible.length - 1))); }
  else if ((ev.key === 'ArrowRight' || ev.key === 'Enter') && node) { state.open.add(node); refresh(); }
  else if (ev.key === 'ArrowLeft' && node) { state.open.delete(node); refresh(); }
}

// What a reader could not take but did not fail on (a missing metric-db file: that profile left
// empty): said above the tree, not only on the server's stderr.
function showWarnings(dbs) {
  const box = $('#warnings');
  box.replaceChildren();
  for (const db of dbs) {
    for (const w of db.warnings || []) {
      const line = document.createElement('div');
      line.textContent = `${dbs.length > 1 ? db.path + ': ' : ''}warning: ${w}`;
      box.append(line);
    }
  }
  box.hidden = !box.childElementCount;
}

// This view's link with the token in its fragment: a colleague's browser gets in with it (the
// fragment is not sent to the server, so the token is in no request line and no log).
async function copyLink() {
  const { token } = await get('access');
  const link = `${location.origin}/#token=${token}${location.hash.length > 1 ? '&' + location.hash.slice(1) : ''}`;
  try {
    await navigator.clipboard.writeText(link);
    status('Link with access copied: whoever opens it sees this server\'s data (docs/view.md, "Sharing")');
  } catch (e) { // no clipboard outside a secure context (http:// to another host)
    window.prompt('This link gives access to this server:', link);
  }
}

async function main() {
  try { info = await get('info'); } catch (e) { status(`Error: ${e.message}`); return; }
  const db = info.databases[0];
  $('#title').textContent = db.title || db.path;
  document.title = `${db.title || db.path} · hpcdb`; // the tab's name, in the viewer as in an exported page
  $('#compare').hidden = info.databases.length < 2; // hpcdb view A B
  if (db.trace === 'none') $('#timeline').hidden = true; // an exported page's loader decides for itself
  showWarnings(info.databases);
  const sel = $('#metric');
  fillMetrics(sel, db.metrics);
  const addOption = (name, expr) => {
    if (![...sel.options].some((o) => o.value === name)) sel.add(Object.assign(new Option(name, name), { title: expr }));
  };
  for (const [name, expr] of derivedList(state)) addOption(name, expr);
  if (!state.metric) state.metric = db.default_metric || '';
  if (![...sel.options].some((o) => o.value === state.metric)) sel.add(new Option(state.metric, state.metric));
  sel.value = state.metric;
  const columns = () => chooser($('#columns-list'), [...sel.options].map((o) => o.value), state, restart, descriptions(db.metrics));
  columns();
  sel.addEventListener('change', () => { state.metric = sel.value; columns(); restart(); });
  for (const b of document.querySelectorAll('#views button'))
    b.addEventListener('click', () => { state.view = b.dataset.view; state.zoom = '0'; state.flat = '0'; state.sel = ''; state.open.clear(); clearPanes(); restart(); });
  $('#tree thead').addEventListener('click', (ev) => { // sort by a column; again: the other order
    const th = ev.target.closest('th[data-sort]');
    if (!th) return;
    const name = tree.metrics[Number(th.dataset.m)].name, same = (state.sortm || state.metric) === name && state.sort === th.dataset.sort;
    state.order = same && state.order === 'desc' ? 'asc' : 'desc';
    state.sort = th.dataset.sort;
    state.sortm = name === state.metric ? '' : name;
    restart();
  });
  $('#flatten').addEventListener('click', () => { // only while some top row has children
    if (tree.visible.some((v) => v.depth === 1 && v.row && v.row.children)) { state.flat = String(Number(state.flat) + 1); restart(); }
  });
  $('#unflatten').addEventListener('click', () => { state.flat = String(Math.max(0, Number(state.flat) - 1)); restart(); });
  const derive = async () => { // the formula box's definition, with the Format box's format
    const text = $('#formula').value.trim();
    if (!text) return;
    status('Loading the formula…');
    try {
      const { name, expr } = parseDefinition(text), format = checkFormat($('#format').value.trim());
      await get('formula', { expr });
      if (name !== expr || format) addDerived(state, name, expr, format);
      addOption(name, expr);
      sel.value = state.metric = name;
      columns();
      restart();
    } catch (e) { status(`Formula: ${e.message}`); }
  };
  $('#formula').addEventListener('change', derive);
  $('#format').addEventListener('change', derive);
  const shownDerived = derivedOf(state, state.metric); // a shared link: its definition in the boxes
  if (shownDerived) { $('#formula').value = `${shownDerived[0]} = ${shownDerived[1]}`; $('#format').value = shownDerived[2]; }
  $('#search').value = state.re;
  $('#search').addEventListener('change', (ev) => search(ev.target.value.trim()));
  for (const f of ['hide', 'lift']) {
    $(`#${f}`).value = state[f];
    $(`#${f}`).addEventListener('change', (ev) => { state[f] = ev.target.value.trim(); refresh(); });
  }
  $('#hot').addEventListener('click', hotPath);
  $('#all-profiles').addEventListener('click', () => { state.profile = ''; state.pname = ''; restart(); });
  $('#zoom').addEventListener('click', () => { if (state.sel) { state.zoom = state.sel; restart(); } });
  $('#unzoom').addEventListener('click', () => { state.zoom = '0'; restart(); });
  $('#pct').addEventListener('change', (ev) => { state.pct = ev.target.checked ? '1' : '0'; refresh(); });
  $('#copy').addEventListener('click', async () => {
    const c = command();
    status(c); // shown at once: the clipboard may take a while, or refuse without https
    try { await navigator.clipboard.writeText(c); } catch (e) { /* the status line still holds it */ }
  });
  $('#copy-link').addEventListener('click', copyLink);
  $('#csv').addEventListener('click', csv);
  $('#theme').addEventListener('click', () => { state.theme = state.theme === 'dark' ? 'light' : 'dark'; refresh(); });
  document.addEventListener('keydown', keys);
  splitter($('#split'), $('aside'), state, save);
  if (state.re) { try { highlight = new RegExp(state.re); } catch (e) { highlight = null; } }
  await refresh();
  if (state.sel) selectNode(state.sel); // a shared link shows the selection's panes too
}

main();
