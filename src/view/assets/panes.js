// The side panes: the selected node over the profiles, and its source.
import { get } from './api.js';
import { value } from './format.js';

export async function showSpread(el, state, node, seconds) {
  if (state.view !== 'top-down') { el.textContent = 'In the top-down view.'; return; }
  try {
    const s = await get('spread', { node, metric: state.metric, flavour: 'inclusive' });
    if (!s.profiles) { el.textContent = 'No profiles besides the summary.'; return; }
    const v = (x) => value(x, seconds);
    const w = 300, h = 80, max = Math.max(...s.bins, 1), bw = w / s.bins.length;
    const bars = s.bins.map((n, i) => `<rect x="${i * bw}" y="${h - h * n / max}" width="${bw - 1}" height="${h * n / max}"></rect>`).join('');
    const span = s.max - s.min || 1;
    const pts = s.points.map((p, i) => `${(i / Math.max(s.points.length - 1, 1)) * w},${h - h * (p[0] - s.min) / span}`).join(' ');
    el.innerHTML = `<p class="stats"></p>
      <h3>Sorted values (profile by profile)</h3>
      <svg class="sorted" viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" aria-label="sorted values"><polyline points="${pts}"></polyline></svg>
      <h3>Histogram (${s.bins.length} bins from min to max)</h3>
      <svg class="histogram" viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" aria-label="histogram">${bars}</svg>`;
    el.querySelector('.stats').textContent =
      `${s.profiles} profiles: min ${v(s.min)}, median ${v(s.median)}, mean ${v(s.mean)}, max ${v(s.max)}, imbalance ${(100 * s.imbalance).toFixed(1)}%`;
  } catch (e) { el.textContent = e.message; }
}

export async function showSource(el, state, row, seconds) {
  if (row.file === undefined) { el.textContent = 'No source location.'; return; }
  try {
    const s = await get('source', { file: row.file, metric: state.metric });
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
    if (cur) el.scrollTop = cur.offsetTop - el.offsetTop - el.clientHeight / 2; // this pane only: the spread stays in sight
  } catch (e) { el.textContent = e.message; }
}
