/* SPDX-License-Identifier: BSD-3-Clause */
// The side panes: the selected node over the profiles, and its source.
import { get } from './api.js';
import { value } from './format.js';

// db: the first or second database (hpcdb view A B); onProfile: a point's click, or null for none.
export async function showSpread(el, state, node, seconds, onProfile, db = 0) {
  const at = `${state.view}:${node}`;
  el.dataset.node = at; // answers arriving for an earlier selection (or view) are dropped
  delete el.dataset.ready;
  if (state.view !== 'top-down') { el.textContent = 'Over the profiles: select the node in the top-down view.'; return; }
  try {
    const s = await get('spread', { db, node, metric: state.metric, flavour: 'inclusive' });
    if (el.dataset.node !== at) return;
    if (!s.profiles) { el.textContent = 'No profiles besides the summary.'; return; }
    const v = (x) => value(x, seconds);
    const w = 300, h = 80, max = Math.max(...s.bins, 1), bw = w / s.bins.length;
    const bars = s.bins.map((n, i) => `<rect x="${i * bw}" y="${h - h * n / max}" width="${bw - 1}" height="${h * n / max}"></rect>`).join('');
    const span = s.max - s.min || 1;
    const pad = 4; // the end points stay inside the plot, where they can be clicked
    const xy = s.points.map((p, i) => [pad + (i / Math.max(s.points.length - 1, 1)) * (w - 2 * pad), h - pad - (h - 2 * pad) * (p[0] - s.min) / span]);
    const pts = xy.map(([x, y]) => `${x},${y}`).join(' ');
    const dots = xy.map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="3" data-i="${i}"><title></title></circle>`).join('');
    el.innerHTML = `<p class="stats"></p>
      <h3>Sorted values${onProfile ? " (a point: that profile's own tree)" : ''}</h3>
      <svg class="sorted" viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" aria-label="sorted values"><polyline points="${pts}"></polyline>${dots}</svg>
      <h3>Histogram (${s.bins.length} bins from min to max)</h3>
      <svg class="histogram" viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" aria-label="histogram">${bars}</svg>`;
    for (const c of el.querySelectorAll('circle')) { // a point: that profile's own tree
      const p = s.points[Number(c.dataset.i)];
      c.querySelector('title').textContent = `${p[2]}: ${v(p[0])}${onProfile ? " (click: this profile's tree)" : ''}`;
      if (onProfile) c.addEventListener('click', () => onProfile(p[1], p[2]));
    }
    el.dataset.ready = node;
    el.querySelector('.stats').textContent =
      `${s.profiles} profiles: min ${v(s.min)}, median ${v(s.median)}, mean ${v(s.mean)}, max ${v(s.max)}, imbalance ${(100 * s.imbalance).toFixed(1)}%`;
  } catch (e) { el.textContent = e.message; }
}

export async function showSource(el, state, row, seconds) {
  const at = `${state.view}:${row.node}`;
  el.dataset.node = at; // as the spread: answers arriving for an earlier selection (or view) are dropped
  delete el.dataset.ready;
  try {
    if (row.file === undefined) { el.textContent = 'No source location.'; return; }
    const s = await get('source', { file: row.file, metric: state.metric });
    if (el.dataset.node !== at) return;
    if (!s.available) { el.textContent = `${s.path}: ${s.why}`; return; }
    const per = new Map(s.lines.map(([l, inc]) => [l, inc])); // inclusive: the line with the calls it makes
    const frag = document.createDocumentFragment();
    s.text.split('\n').forEach((text, i) => {
      const line = document.createElement('div');
      if (i + 1 === row.line) line.className = 'current';
      const m = document.createElement('span');
      m.className = 'margin';
      m.textContent = per.has(i + 1) ? value(per.get(i + 1), seconds) : '';
      const n = document.createElement('span');
      n.className = 'lineno';
      n.textContent = String(i + 1);
      line.append(m, n, document.createTextNode(text));
      frag.appendChild(line);
    });
    el.replaceChildren(frag);
    const cur = el.querySelector('.current');
    // this pane only, the line centred: the spread stays in sight (the pre is positioned: cur.offsetTop is from its top)
    if (cur) el.scrollTop = cur.offsetTop - el.clientHeight / 2;
  } catch (e) { el.textContent = e.message; } finally {
    if (el.dataset.node === at) el.dataset.ready = row.node;
  }
}
