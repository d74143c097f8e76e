/* SPDX-License-Identifier: BSD-3-Clause */
// hpcdb view A B, the comparison page: the two runs aligned by calling path
// (the server's /api/compare routes, over the library's compare API), the
// largest regressions and improvements at the top, the aligned tree below,
// and the selected node's distribution over the profiles of each run.
import { get } from '../api.js';
import { value } from '../format.js';
import { showSpread } from '../panes.js';
import { load as loadState, save } from '../state.js';
import { CompareTable, ratioText, signed } from './table.js';
import { suggest } from './pair.js';

const $ = (s) => document.querySelector(s);
// in the URL's hash as the single view's state is: a reloaded or shared link shows the same
const defaults = { view: 'top-down', sort: 'delta', flavour: 'inclusive', metric: '', metric_b: '', open: '', sel: '' };
const state = loadState(defaults);
const status = (t) => { $('#status').textContent = t; };
let info, cmp, paired = ''; // paired: why B's metric was suggested for A's

const table = new CompareTable($('#ctree'), state, select, (sort, flavour) => {
  state.sort = sort;
  state.flavour = flavour;
  restart();
});
table.onChange = refresh;

// The seconds per unit of side d's compared metric (its own unit: the spread is in it).
function secondsOf(d) {
  const m = info.databases[d].metrics.find((x) => x && x.name === cmp.runs[d].metric);
  return m ? m.seconds : 0;
}

function select(row) {
  state.sel = String(row.node);
  save(state, defaults);
  for (const tr of document.querySelectorAll('#ctree tr.selected')) tr.classList.remove('selected');
  for (const tr of document.querySelectorAll(`#ctree tr[data-node="${row.node}"]`)) tr.classList.add('selected');
  ['a', 'b'].forEach((side, d) => {
    const el = $(`#spread-${side}`), head = document.createElement('h3'), body = document.createElement('div');
    head.className = 'run';
    head.textContent = `${side.toUpperCase()}: ${row.name}`;
    el.replaceChildren(head, body);
    if (state.view === 'bottom-up') body.textContent = 'A function is summed over its frames: select a node top-down or flat.';
    else if (row.ctx[d] === null) body.textContent = `Not in ${side.toUpperCase()}.`;
    else showSpread(body, { view: 'top-down', metric: cmp.runs[d].metric }, row.ctx[d], secondsOf(d), null, d);
  });
}

function summaryList(title, rows) {
  const h = document.createElement('h2'), ol = document.createElement('ol'), box = document.createElement('div');
  h.textContent = title;
  for (const r of rows) {
    const li = document.createElement('li'), leaf = document.createElement('strong'), up = document.createElement('span');
    const callers = r.path.split(' > ').slice(0, -1).reverse(); // the leaf first: a long path is cut at its root end
    leaf.textContent = r.name;
    up.className = 'callers';
    up.textContent = callers.length ? ` ← ${callers.join(' ← ')}` : '';
    li.append(`${signed(r.exc[2], cmp.seconds)} ${ratioText(r.exc)}${r.only ? ` [only in ${r.only}]` : ''}  `, leaf, up);
    li.className = r.exc[2] > 0 ? 'worse' : 'better';
    li.title = `${r.path}: exclusive change; inclusive ${signed(r.inc[2], cmp.seconds)} ${ratioText(r.inc)} (click: show it in the tree)`;
    li.addEventListener('click', () => reveal(r));
    ol.append(li);
  }
  if (!rows.length) ol.append(Object.assign(document.createElement('li'), { textContent: 'none' }));
  box.append(h, ol);
  return box;
}

function showSummary() {
  const t = cmp.total, sec = cmp.seconds, totals = document.createElement('div');
  totals.className = 'totals';
  totals.textContent = `A: ${cmp.runs[0].path} · B: ${cmp.runs[1].path} · metric ${cmp.runs[0].metric}` +
    `${cmp.runs[1].metric !== cmp.runs[0].metric ? ` / ${cmp.runs[1].metric}` : ''}${paired} · total A ${value(t.inc[0], sec)}, ` +
    `B ${value(t.inc[1], sec)}, delta ${signed(t.inc[2], sec)} (${ratioText(t.inc)}) · ${cmp.nodes} aligned nodes: ` +
    `${cmp.both} in both, ${cmp.only_a} only in A, ${cmp.only_b} only in B`;
  $('#summary').replaceChildren(totals, summaryList('Largest regressions (exclusive)', cmp.regressions),
    summaryList('Largest improvements (exclusive)', cmp.improvements));
}

// A summary's node in the top-down tree: its ancestors opened, the node selected and scrolled to.
async function reveal(r) {
  state.view = 'top-down';
  state.flavour = 'inclusive';
  for (const n of r.up) state.open.add(String(n));
  await restart();
  const i = table.indexOf(r.node);
  if (i < 0) return;
  select(table.visible[i].row);
  document.querySelector(`#ctree tr[data-node="${r.node}"]`).scrollIntoView({ block: 'center' });
}

async function refresh() {
  save(state, defaults);
  for (const b of document.querySelectorAll('#views button')) b.classList.toggle('active', b.dataset.view === state.view);
  $('#sort').value = state.sort;
  $('#flavour').value = state.flavour;
  status('Loading…');
  const t0 = performance.now();
  try {
    await table.render();
    status(`A ${cmp.runs[0].path} · B ${cmp.runs[1].path} · ${state.view} · sorted by ${state.sort} of ${state.flavour} · ` +
           `${table.visible.length} rows · ${Math.round(performance.now() - t0)} ms`);
  } catch (e) { status(`Error: ${e.message}`); }
}

async function restart() {
  table.reset();
  await refresh();
}

// The comparison for the metrics chosen; B without a metric of A's name gets the suggested one (pair.js).
async function load() {
  status('Loading the comparison…');
  paired = '';
  try {
    cmp = await get('compare', { metric: state.metric, metric_b: state.metric_b, top: 10 });
  } catch (e) {
    const a = info.databases[0].metrics.find((m) => m && m.name === (state.metric || info.databases[0].default_metric));
    const best = !state.metric_b && a && suggest(a, info.databases[1].metrics, info.databases[1].default_metric)[0];
    if (!best) throw e;
    cmp = await get('compare', { metric: a.name, metric_b: best.metric.name, top: 10 });
    state.metric_b = best.metric.name;
    paired = ` (B has no "${a.name}": paired with "${best.metric.name}", suggested: ${best.why}; B's list changes it)`;
  }
  table.seconds = cmp.seconds;
  $('#metric').value = state.metric = cmp.runs[0].metric;
  $('#metric-b').value = cmp.runs[1].metric;
  showSummary();
}

// A's and B's metric lists (B's suggested first). Another metric of A: B takes the same one, or one documented
// as the same, or the suggested one (load).
function metricLists() {
  const [a, b] = info.databases, sel = $('#metric'), selB = $('#metric-b');
  for (const m of a.metrics) if (m) sel.add(new Option(m.name, m.name));
  const first = a.metrics.find((m) => m && m.name === (state.metric || a.default_metric));
  const ranked = first ? suggest(first, b.metrics, b.default_metric).map((s) => s.metric) : [];
  for (const m of [...ranked, ...b.metrics.filter((x) => x && !ranked.includes(x))]) selB.add(new Option(m.name, m.name));
  const change = async () => {
    try { await load(); } catch (e) { status(`Metric: ${e.message}`); return; }
    restart();
  };
  sel.addEventListener('change', () => { state.metric = sel.value; state.metric_b = ''; change(); });
  selB.addEventListener('change', () => { state.metric_b = selB.value; change(); });
}

async function main() {
  try {
    info = await get('info');
    if (info.databases.length < 2) { status('One database is open: hpcdb view A B compares two.'); return; }
    metricLists();
    await load();
  } catch (e) { status(`Error: ${e.message}`); return; }
  $('#title').textContent = 'hpcdb view: compare';
  for (const b of document.querySelectorAll('#views button'))
    b.addEventListener('click', () => {
      state.view = b.dataset.view;
      state.flavour = state.view === 'top-down' ? 'inclusive' : 'exclusive'; // as hpcdb compare ranks them
      state.open.clear();
      state.sel = '';
      $('#spread-a').textContent = 'Select a node.';
      $('#spread-b').textContent = '';
      restart();
    });
  $('#sort').addEventListener('change', (ev) => { state.sort = ev.target.value; restart(); });
  $('#flavour').addEventListener('change', (ev) => { state.flavour = ev.target.value; restart(); });
  await refresh();
  const i = state.sel ? table.indexOf(state.sel) : -1; // a shared link shows the selection's distributions too
  if (i >= 0) select(table.visible[i].row);
}

main();
