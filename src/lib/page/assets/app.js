/* SPDX-License-Identifier: BSD-3-Clause */
// The page: wires the header's controls, the tree, the panes and the URL state.
import { get } from './api.js';
import { load, save } from './state.js';
import { Tree, ROW } from './tree.js';
import { showSpread, showSource } from './panes.js';
import { chooser } from './columns.js';
import { downloadCsv } from './csv.js';
import { Find } from './find.js';
import { showGroups } from './groups.js';
import { splitter } from './split.js';
import { fillMetrics, descriptions } from './metriclist.js';
import { parseDefinition, checkFormat, derivedList, derivedOf, specOf, addDerived } from './derived.js';
import { contextLink } from './link.js';

const $ = (s) => document.querySelector(s);
const state = load();
const status = (t) => { $('#status').textContent = t; };
let info;
const find = new Find();
const highlight = (row) => find.matches(row);

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
  $('#profile').hidden = !state.profile && !state.group;
  $('#profile-name').textContent = state.pname || state.group || `profile ${state.profile}`;
  status('Loading…');
  const t0 = performance.now();
  try {
    await tree.render(highlight);
    const db = info.databases[0], why = tree.metric.name === db.default_metric ? ` (${db.default_why})` : '';
    status(`${db.path} · ${db.access} · ${state.view} · ${tree.metric.name}${why} · ` +
           `${state.profile || state.group ? `${state.pname || state.group} · ` : ''}` +
           `${tree.visible.length} rows · ${Math.round(performance.now() - t0)} ms`);
  } catch (e) { status(`Error: ${e.message}`); }
}

// the timeline's tab and this one: a node selected here is highlighted there (top-down nodes are contexts)
const timeline = contextLink('tree', showContext);

function select(row, fromTimeline) {
  if (!fromTimeline && state.view === 'top-down') timeline.send(row.node);
  $('#timeline').href = `/assets/trace/index.html${state.view === 'top-down' ? `#hl=${row.node}` : ''}`; // opened, it shows the node
  state.sel = String(row.node);
  save(state);
  for (const tr of document.querySelectorAll('#tree tr.selected')) tr.classList.remove('selected');
  for (const tr of document.querySelectorAll(`#tree tr[data-node="${row.node}"]`)) tr.classList.add('selected');
  const sec = tree.metric ? tree.metric.seconds : 0, asked = { view: state.view, metric: specOf(state, state.metric) };
  across(asked, row.node, sec);
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

// The node over the profiles, by group (an exported page, without /api/groups: the sorted values).
// asked: the view and the metric (a derived one's formula) the panes ask for.
function across(asked, node, sec) {
  const on = {
    profile: (p, name) => { Object.assign(state, { profile: String(p), group: '', pname: name }); restart(); },
    group: (selection, name) => { Object.assign(state, { profile: '', group: selection, pname: name }); restart(); },
    by: (by) => { state.by = by; save(state); across(asked, node, sec); },
  };
  const el = $('#spread-body');
  showGroups(el, { ...asked, by: state.by }, node, sec, tree.metric.name, on).catch(() => showSpread(el, asked, node, sec, on.profile));
}

function restart() { tree.reset(); refresh(); }

function command() {
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const profile = state.group ? ` --profile ${quote(state.group)}` : state.profile ? ` --profile ${quote(state.pname)}` : '';
  return `hpcdb report --view ${state.view} --metric ${quote(specOf(state, tree.metric.name))}${profile} ${quote(info.databases[0].path)}`;
}

async function hotPath() {
  status('Loading the hot path…');
  const from = state.view === 'top-down' && state.sel ? state.sel : state.zoom;
  const r = await get('hotpath', { node: from, metric: specOf(state, state.metric) });
  for (const n of r.path) state.open.add(String(n));
  await refresh();
  selectNode(r.path[r.path.length - 1]);
}

function selectNode(node, fromTimeline) { return pick(tree.indexOf(node), fromTimeline); }

// Row i of the open rows: scrolled into the window and selected (its page fetched first when it is not yet).
async function pick(i, fromTimeline) {
  if (i < 0 || i >= tree.visible.length) return;
  tree.reveal(i);
  const v = tree.visible[i];
  if (v.row) select(v.row, fromTimeline);
  else {
    await tree.fetch([v]);
    if (tree.visible[i] && tree.visible[i].row) select(tree.visible[i].row, fromTimeline);
  }
}

// A context clicked in the timeline: selected in the top-down view, its ancestors opened (out of a zoom
// that hides it).
async function showContext(ctx) {
  try {
    const { path } = await get('path', { view: 'top-down', node: ctx });
    if (state.view !== 'top-down') { Object.assign(state, { view: 'top-down', flat: '0' }); clearPanes(); }
    if (!path.includes(Number(state.zoom))) state.zoom = '0';
    for (const n of path.slice(1)) state.open.add(String(n));
    tree.reset();
    await refresh();
    await selectNode(ctx, true);
  } catch (e) { status(`Timeline: ${e.message}`); }
}

async function search(text) {
  state.re = text;
  find.clear();
  if (!text) return refresh();
  status('Loading the matches…');
  try {
    await find.run(text, state.view, state.open);
    await refresh();
    findStep(1);
  } catch (e) { status(`Search: ${e.message}`); }
}

// The next (1) or previous (-1) match from the selection: selected, scrolled into sight, counted.
async function findStep(step) {
  if (!state.re) return;
  const i = find.step(tree.visible, state.sel ? tree.indexOf(state.sel) : -1, step);
  if (i >= 0) await pick(i);
  status(find.describe(tree.visible, state.re));
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
  $('#find-next').addEventListener('click', () => findStep(1));
  $('#find-prev').addEventListener('click', () => findStep(-1));
  $('#hide').value = state.hide;
  $('#hide').addEventListener('change', (ev) => { state.hide = ev.target.value.trim(); refresh(); });
  $('#hide-mode').value = state.hmode;
  $('#hide-mode').addEventListener('change', (ev) => { state.hmode = ev.target.value; refresh(); });
  $('#hot').addEventListener('click', hotPath);
  $('#all-profiles').addEventListener('click', () => { Object.assign(state, { profile: '', group: '', pname: '' }); restart(); });
  $('#zoom').addEventListener('click', () => { if (state.sel) { state.zoom = state.sel; restart(); } });
  $('#unzoom').addEventListener('click', () => { state.zoom = '0'; restart(); });
  $('#pct').addEventListener('change', (ev) => { state.pct = ev.target.checked ? '1' : '0'; refresh(); });
  $('#copy').addEventListener('click', async () => {
    const c = command();
    status(c); // shown at once: the clipboard may take a while, or refuse without https
    try { await navigator.clipboard.writeText(c); } catch (e) { /* the status line still holds it */ }
  });
  $('#copy-link').addEventListener('click', copyLink);
  $('#csv').addEventListener('click', async () => {
    status('Loading the CSV…');
    try { status(`CSV: ${await downloadCsv(state)} rows of the ${state.view} view`); } catch (e) { status(`CSV: ${e.message}`); }
  });
  $('#theme').addEventListener('click', () => { state.theme = state.theme === 'dark' ? 'light' : 'dark'; refresh(); });
  document.addEventListener('keydown', keys);
  splitter($('#split'), $('aside'), state, save);
  if (state.re) { try { await find.run(state.re, state.view, state.open); } catch (e) { find.clear(); } }
  await refresh();
  if (state.sel) selectNode(state.sel); // a shared link shows the selection's panes too
}

main();
