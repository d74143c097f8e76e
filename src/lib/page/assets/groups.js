/* SPDX-License-Identifier: BSD-3-Clause */
// The "Across profiles" pane: the selected node (of any view: a bottom-up or
// flat row's value in each profile summed over its contexts) over the profiles, by group
// of identity (/api/groups: main threads, worker threads, GPU streams; or per
// rank, per node). Per group min, median, mean, max over the profiles with a
// value and the imbalance max / mean (hpcdb report --view profiles'
// definition); the profiles with no value are counted and left out. Two plots
// with labelled axes: every profile in rank order, and sorted. Clicking a
// group shows its tree (its profiles summed, as report --profile SELECTION);
// clicking a point, that profile's own tree.
import { get } from './api.js';
import { value } from './format.js';

const W = 320, H = 120, LEFT = 56, BOTTOM = 18, TOP = 6; // the plots' viewBox and margins for the axes' labels

const text = (tag, attrs, content) => {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (content !== undefined) el.textContent = content;
  return el;
};

// A plot of points [[value, profile, identity]] in their order, y from 0 to the largest value.
function plot(points, title, xLabel, yLabel, fmt, onPoint) {
  const svg = text('svg', { viewBox: `0 0 ${W} ${H}`, class: 'profiles-plot', 'aria-label': title });
  const max = Math.max(...points.map((p) => p[0]), 0) || 1, w = W - LEFT - 4, h = H - TOP - BOTTOM;
  const x = (i) => LEFT + (points.length > 1 ? (i / (points.length - 1)) * w : w / 2), y = (v) => TOP + h - (h * v) / max;
  svg.append(text('line', { x1: LEFT, y1: TOP, x2: LEFT, y2: TOP + h, class: 'axis' }),
    text('line', { x1: LEFT, y1: TOP + h, x2: LEFT + w, y2: TOP + h, class: 'axis' }),
    text('text', { x: LEFT - 3, y: TOP + 8, 'text-anchor': 'end', class: 'tick' }, fmt(max)),
    text('text', { x: LEFT - 3, y: TOP + h, 'text-anchor': 'end', class: 'tick' }, '0'),
    text('text', { x: 10, y: TOP + h / 2, 'text-anchor': 'middle', class: 'label', transform: `rotate(-90 10 ${TOP + h / 2})` }, yLabel),
    text('text', { x: LEFT + w / 2, y: H - 4, 'text-anchor': 'middle', class: 'label' }, xLabel));
  points.forEach((p, i) => {
    const c = text('circle', { cx: x(i), cy: y(p[0]), r: 2.5, class: p[0] === 0 ? 'zero' : '', 'data-profile': p[1] });
    c.append(text('title', {}, `${p[2]}: ${fmt(p[0])}${onPoint ? " (click: this profile's tree)" : ''}`));
    if (onPoint) c.addEventListener('click', () => onPoint(p[1], p[2]));
    svg.append(c);
  });
  return svg;
}

function table(groups, fmt, onGroup) {
  const t = document.createElement('table');
  t.className = 'groups';
  const heads = ['group', 'profiles', 'no value', 'min', 'median', 'mean', 'max', 'imbalance'];
  t.createTHead().insertRow().append(...heads.map((h) => {
    const th = document.createElement('th');
    th.textContent = h;
    th.title = { 'no value': 'profiles whose value is 0: left out of min, median, mean, max and imbalance',
      imbalance: 'max / mean, over the profiles with a value (as hpcdb report --view profiles)' }[h] || '';
    return th;
  }));
  const body = t.createTBody();
  for (const g of groups) {
    const tr = body.insertRow();
    tr.dataset.group = g.name;
    const cells = [g.name, g.profiles, g.zeros, fmt(g.min), fmt(g.median), fmt(g.mean), fmt(g.max),
      g.profiles > g.zeros ? `${g.imbalance.toFixed(2)}×` : '–'];
    cells.forEach((c, i) => { const td = tr.insertCell(); td.textContent = String(c); if (i) td.className = 'num'; });
    if (g.selection) {
      tr.classList.add('pick');
      tr.title = `click: the tree of these ${g.profiles} profiles summed (hpcdb report --profile ${g.selection})`;
      tr.addEventListener('click', () => onGroup(g.selection, g.name));
    } else tr.title = 'no --profile pattern selects exactly these profiles';
  }
  return t;
}

// el: the pane's body; state: the view, metric and by asked; on.profile(index, identity), on.group(selection, name).
export async function showGroups(el, state, node, seconds, metricName, on) {
  const at = `${state.view}:${node}`;
  el.dataset.node = at; // answers arriving for an earlier selection (or view) are dropped
  delete el.dataset.ready;
  const r = await get('groups', { view: state.view, node, metric: state.metric, flavour: 'inclusive', by: state.by });
  if (el.dataset.node !== at) return;
  if (!r.profiles) { el.textContent = 'No profiles besides the summary.'; return; }
  const fmt = (v) => value(v, seconds);
  const by = document.createElement('label');
  const pick = document.createElement('select');
  for (const [k, label] of Object.entries({ kind: 'kind (main, worker, GPU)', rank: 'rank', node: 'node' })) pick.add(new Option(label, k));
  pick.value = r.by;
  pick.addEventListener('change', () => on.by(pick.value));
  by.append('Group by ', pick);
  const zeros = r.groups.reduce((n, g) => n + g.zeros, 0);
  const note = document.createElement('p');
  note.className = 'stats';
  note.textContent = `${r.profiles} profiles, inclusive ${metricName}; ${zeros} with no value here, left out of each group's figures.`;
  const ranked = document.createElement('h3'), sorted = document.createElement('h3');
  ranked.textContent = 'Every profile, in rank order';
  sorted.textContent = 'Sorted';
  const ends = `${r.values[0][2]} … ${r.values[r.values.length - 1][2]}`;
  el.replaceChildren(by, note, table(r.groups, fmt, on.group), ranked,
    plot(r.values, 'values in rank order', `profiles by identity: ${ends}`, metricName, fmt, on.profile), sorted,
    plot([...r.values].sort((a, b) => a[0] - b[0]), 'sorted values', 'profiles, smallest to largest', metricName, fmt, on.profile));
  el.dataset.ready = node;
}
