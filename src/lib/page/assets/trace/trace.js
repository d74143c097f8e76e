/* SPDX-License-Identifier: BSD-3-Clause */
// The trace view: a timeline of every profile drawn from the server's exact
// tiles (one canvas pixel per tile cell), with a mini-map, and under it, on
// the same time axis, the depth view of the clicked profile and the summary
// (shares per time column); beside it the statistics of the window and the
// calling path at the click. Times travel as decimal strings (they exceed
// 2^53); the page keeps times relative to the run's first timestamp as Numbers.
import { decodeTile, scaleText, fmtNs, TRACE_MAX_WIDTH, TRACE_MAX_HEIGHT } from './tile.js';
import { History } from './history.js';
import { rowLabels } from './labels.js';
import { Palette, EMPTY, GREY, hex } from './palette.js';
import { savePicture } from './save.js';
import { contextLink } from '../link.js';
import { timeLane } from './pointer.js';
import { Requests } from './requests.js';
import { drawSummary, drawDepth } from './lanes.js';
import { depthsOf } from './depths.js';
import { drawGpu } from './gpu.js';

const LABEL_PX = 12; // the height of a row label

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (k === 'class') e.className = v; else e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

export class TraceView {
  constructor(root, base) {
    this.root = root; this.history = new History(); this.draws = 0; this.highlight = null;
    this.requests = new Requests(base, root, (text) => this.status(text));
    this.palette = new Palette((c) => this.label(c), localStorage);
    this.link = contextLink('trace', (c) => this.showContext(c));
    this.build();
    this.load().catch((e) => this.status('error: ' + e.message));
  }

  build() {
    const r = this.root;
    this.depthSel = el('select', { 'data-test': 'depth', title: 'call depth of the colours' });
    this.scopesSel = el('select', { 'data-test': 'scopes', title: 'what a level of depth is' },
      el('option', { value: 'frames' }, 'procedure frames'), el('option', { value: 'all' }, 'all scopes'));
    this.rowsIn = el('input', { type: 'text', placeholder: 'profiles: RANK=0-3', 'data-test': 'rows' });
    this.ctxIn = el('input', { type: 'text', placeholder: 'contexts: MPI_*', 'data-test': 'ctx' });
    const btn = (label, fn, test, title) => { const b = el('button', { 'data-test': test, title }, label); b.onclick = fn; return b; };
    this.undoBtn = btn('Undo', () => this.step('undo'), 'undo', 'back to the previous view (u, Ctrl+Z)');
    this.redoBtn = btn('Redo', () => this.step('redo'), 'redo', 'forward again to the view undone (y, Ctrl+Y)');
    r.append(el('div', { class: 'bar' },
      btn('Zoom in', () => this.zoomBy(0.5), 'zoom-in'), btn('Zoom out', () => this.zoomBy(2), 'zoom-out'),
      btn('Rows in', () => this.zoomRows(0.5), 'rows-in', 'half as many profiles, around the middle ones (or shift-drag a rectangle)'),
      btn('Rows out', () => this.zoomRows(2), 'rows-out', 'twice as many profiles'),
      this.undoBtn, this.redoBtn, btn('Whole run', () => this.reset(), 'reset', 'every profile over the whole run (Home)'),
      el('label', {}, 'depth ', this.depthSel), el('label', {}, ' in ', this.scopesSel), this.rowsIn, this.ctxIn,
      btn('Filter', () => this.refilter(), 'filter'),
      btn('PNG', () => savePicture(this, 'png'), 'save-png', 'save the timeline with its labels as a PNG image'),
      btn('SVG', () => savePicture(this, 'svg'), 'save-svg', 'save the timeline with its labels as an SVG drawing')));
    this.mini = el('canvas', { class: 'minimap', 'data-test': 'minimap', title: 'the whole run: click to go there' });
    this.canvas = el('canvas', { 'data-test': 'timeline' });
    this.labels = el('div', { class: 'labels', 'data-test': 'labels' });
    this.overlay = el('canvas', { 'data-test': 'overlay' });
    this.canvas.style.imageRendering = 'pixelated';
    this.axis = el('div', { class: 'axis', 'data-test': 'axis' });
    this.depthCanvas = el('canvas', { 'data-test': 'depthview', title: 'depth view of the clicked profile: click a depth to colour the timeline at it' });
    this.summaryCanvas = el('canvas', { 'data-test': 'summary', title: 'share of each context per time column' });
    this.depthCanvas.style.imageRendering = this.summaryCanvas.style.imageRendering = 'pixelated';
    this.depthCaption = el('div', { class: 'caption', 'data-test': 'depth-caption' }, 'Depth view: click a profile in the timeline');
    this.summaryCaption = el('div', { class: 'caption' }, 'Summary: share of each context per time column');
    this.pathHead = el('h3', { 'data-test': 'path-head' }, 'Call path at the click');
    this.pathList = el('ol', { class: 'path', 'data-test': 'path' });
    this.statsList = el('ul', { class: 'stats', 'data-test': 'stats' });
    this.gpuList = el('ul', { class: 'gpu', 'data-test': 'gpu' });
    this.waitIn = el('input', { type: 'text', 'data-test': 'wait', title: 'the host thread waits in a context matching one of these globs (commas between)' });
    this.waitIn.onkeydown = (e) => { if (e.key === 'Enter') this.drawGpu(); };
    this.statusLine = el('div', { class: 'status', 'data-test': 'status' });
    r.append(this.mini, el('div', { class: 'main' }, this.canvas, this.labels, this.overlay), this.axis,
      el('div', { class: 'lane' }, this.depthCaption, this.depthCanvas),
      el('div', { class: 'lane' }, this.summaryCaption, this.summaryCanvas),
      el('div', { class: 'side' }, this.pathHead, this.pathList,
        el('h3', {}, 'Statistics of the window (exact shares of profile-time)'), this.statsList,
        this.gpuBox = el('details', { class: 'gpu-box', 'data-test': 'gpu-box', hidden: '' },
          el('summary', { title: 'read from every element of the streams and their hosts in the window: opened on demand' },
            'GPU streams: idle, and idle while the host thread waits'),
          el('label', {}, 'waits in ', this.waitIn), this.gpuList)),
      this.statusLine);
    this.gpuBox.ontoggle = () => this.drawGpu();
    this.depthSel.onchange = () => { this.pushUndo(); this.redraw(); };
    this.scopesSel.onchange = () => { this.pushUndo(); this.fillDepths(Math.min(3, this.maxDepthOf())); this.redraw(); };
    this.rowsIn.onkeydown = this.ctxIn.onkeydown = (e) => { if (e.key === 'Enter') this.refilter(); };
    timeLane(this.overlay, this, { click: (e) => this.clickAt(e.clientX, e.clientY), hover: (e) => this.hover(e),
      band: (d, e) => this.drawOverlay(d && e ? [d, e] : null) });
    timeLane(this.depthCanvas, this, { click: (e) => this.clickDepth(e) });
    timeLane(this.summaryCanvas, this, {});
    this.mini.onclick = (e) => {
      const rect = this.mini.getBoundingClientRect(), len = this.v1 - this.v0;
      const c = (e.clientX - rect.left) / rect.width * Math.max(this.span, rect.width);
      this.moveTo(c - len / 2, c + len / 2);
    };
    document.addEventListener('keydown', (e) => this.key(e)); // the page's: a button disabled by its own click drops the focus
    window.addEventListener('resize', () => this.redraw());
  }

  status(text) { this.statusLine.textContent = text; }

  get(path, params, kind, binary) { return this.requests.get(path, params, kind, binary); }

  async load() {
    this.status('loading the trace index…');
    this.info = await this.get('/api/trace/info', {}, 'info');
    if (!this.info.events) { this.status('this database has no trace events'); return; }
    this.tmin = BigInt(this.info.t_min);
    this.span = Number(BigInt(this.info.t_max) - this.tmin) + 1;
    [this.scopeDepth, this.frameDepth] = depthsOf(this.info.contexts);
    const h = new URLSearchParams(location.hash.slice(1));
    this.v0 = h.has('t0') ? Number(BigInt(h.get('t0')) - this.tmin) : 0;
    this.v1 = h.has('t1') ? Number(BigInt(h.get('t1')) - this.tmin) : this.span;
    this.scopesSel.value = h.get('scopes') === 'all' ? 'all' : 'frames';
    this.fillDepths(h.get('depth') || String(Math.min(3, this.maxDepthOf())));
    this.rowsIn.value = h.get('rows') || ''; this.ctxIn.value = h.get('ctx') || '';
    const hl = Number(h.get('hl')); // a highlighted context: with its depth from this page, or from a tree's link
    if (h.has('hl') && Number.isInteger(hl) && this.info.contexts[hl]) { if (h.has('depth')) this.highlight = hl; else this.focus(hl); }
    this.selection = null;
    await this.refilter(true, h.has('p0') ? [Number(h.get('p0')), Number(h.get('p1'))] : null);
  }

  maxDepthOf() { return Math.max(0, ...(this.scopesSel.value === 'all' ? this.scopeDepth : this.frameDepth)); }
  fillDepths(value) {
    this.maxDepth = this.maxDepthOf();
    this.depthSel.replaceChildren(el('option', { value: 'leaf' }, 'leaf'),
      ...Array.from({ length: this.maxDepth + 1 }, (_, d) => el('option', { value: String(d) }, String(d))));
    this.depthSel.value = String(value);
  }

  abs(rel) { return (this.tmin + BigInt(Math.max(0, Math.round(rel)))).toString(); }
  // the request's filters; shown: only the rows of the vertical zoom
  filters(shown = true) {
    const f = { depth: this.depthSel.value, order: 'identity' }; // rows grouped by node, rank, thread / GPU stream
    if (this.scopesSel.value === 'all') f.scopes = 'all';
    if (this.rowsIn.value) f.rows = this.rowsIn.value;
    if (this.ctxIn.value) f.ctx = this.ctxIn.value;
    if (shown && (this.r0 > 0 || this.r1 < this.selCount())) { f.first = String(this.r0); f.count = String(this.r1 - this.r0); }
    return f;
  }
  selCount() { return this.selection ? this.selection.length : this.info.rows.length; }
  rowCount() { return this.r1 - this.r0; } // the rows shown
  rowAt(i) { const s = this.r0 + i; return this.selection ? this.selection[s] : s; } // shown row i's trace line

  async refilter(first, rows) {
    if (!first) this.pushUndo();
    const sel = { order: 'identity' };
    if (this.rowsIn.value) sel.rows = this.rowsIn.value;
    this.selection = (await this.get('/api/trace/info', sel, 'sel')).selected;
    this.gpuBox.hidden = !this.selection.some((r) => /\bGPU/.test(this.info.rows[r].id));
    const n = this.selCount();
    [this.r0, this.r1] = rows && rows[0] >= 0 && rows[0] < rows[1] && rows[1] <= n ? rows : [0, n];
    this.miniTile = null;
    this.clicked = null;
    this.depthCanvas.width = 0;
    await this.redraw();
  }

  clampView() {
    const w = Math.max(1, this.canvas.clientWidth);
    let len = Math.max(this.v1 - this.v0, w); // at most one ns per pixel
    len = Math.min(len, this.span * 4);
    const mid = (this.v0 + this.v1) / 2;
    this.v0 = Math.max(-this.span, Math.round(mid - len / 2)); this.v1 = this.v0 + Math.round(len);
    if (this.tmin + BigInt(Math.min(0, this.v0)) < 0n) { this.v1 -= this.v0; this.v0 = 0; }
  }

  snapshot() { return { v0: this.v0, v1: this.v1, r0: this.r0, r1: this.r1, depth: this.depthSel.value, scopes: this.scopesSel.value }; }
  // coalesce: a burst of wheel steps is one step of undo
  pushUndo(coalesce) {
    const now = Date.now();
    if (coalesce && this.lastWheel && now - this.lastWheel < 400) { this.lastWheel = now; return; }
    this.lastWheel = coalesce ? now : 0;
    this.history.push(this.snapshot());
  }
  step(way) {
    const s = this.history[way](this.snapshot());
    if (!s) return;
    Object.assign(this, { v0: s.v0, v1: s.v1, r0: s.r0, r1: s.r1 });
    if (s.scopes !== this.scopesSel.value) { this.scopesSel.value = s.scopes; this.fillDepths(s.depth); }
    this.depthSel.value = s.depth;
    this.redraw();
  }
  reset() { this.pushUndo(); this.v0 = 0; this.v1 = this.span; this.r0 = 0; this.r1 = this.selCount(); this.redraw(); }
  moveTo(v0, v1) { this.pushUndo(); this.v0 = v0; this.v1 = v1; this.redraw(); }
  zoomBy(f, at, coalesce) {
    this.pushUndo(coalesce);
    const c = at ?? (this.v0 + this.v1) / 2;
    this.v0 = c - (c - this.v0) * f; this.v1 = c + (this.v1 - c) * f;
    this.redraw();
  }
  panBy(frac, coalesce) { this.pushUndo(coalesce); const d = (this.v1 - this.v0) * frac; this.v0 += d; this.v1 += d; this.redraw(); }
  // a region of time, and of the shown rows when ys (fractions of the timeline's height) are given
  zoomTo(a, b, ys) {
    this.pushUndo();
    this.v0 = a; this.v1 = b;
    if (ys) {
      const n = this.rowCount(), top = this.r0 + Math.floor(ys[0] * n), bottom = this.r0 + Math.ceil(ys[1] * n);
      this.r0 = Math.max(this.r0, Math.min(top, this.r1 - 1)); this.r1 = Math.max(this.r0 + 1, Math.min(bottom, this.r1));
    }
    this.redraw();
  }
  zoomRows(f) {
    const n = this.selCount(), len = Math.max(1, Math.min(n, Math.round(this.rowCount() * f))), mid = (this.r0 + this.r1) / 2;
    if (len === this.rowCount()) return;
    this.pushUndo();
    this.r0 = Math.max(0, Math.min(n - len, Math.round(mid - len / 2))); this.r1 = this.r0 + len;
    this.redraw();
  }

  key(e) {
    const ctrl = e.ctrlKey || e.metaKey, k = e.key.toLowerCase();
    const redo = (ctrl && (k === 'y' || (k === 'z' && e.shiftKey))) || (!ctrl && e.key === 'y');
    const undo = !redo && ((ctrl && k === 'z') || (!ctrl && (e.key === 'u' || e.key === 'Backspace')));
    const act = undo ? () => this.step('undo') : redo ? () => this.step('redo') : ctrl ? null : {
      '+': () => this.zoomBy(0.5), '=': () => this.zoomBy(0.5), '-': () => this.zoomBy(2),
      ArrowLeft: () => this.panBy(-0.1), ArrowRight: () => this.panBy(0.1), Home: () => this.reset(),
      Escape: () => { this.highlight = null; this.redraw(); } }[e.key];
    if (act && !['INPUT', 'SELECT'].includes(e.target.tagName)) { e.preventDefault(); act(); }
  }

  async redraw() {
    if (!this.info) return;
    this.clampView();
    this.undoBtn.disabled = !this.history.canUndo; this.redoBtn.disabled = !this.history.canRedo;
    const f = this.filters();
    const hash = new URLSearchParams({ t0: this.abs(this.v0), t1: this.abs(this.v1), ...f });
    hash.delete('first'); hash.delete('count');
    if (this.highlight !== null) hash.set('hl', String(this.highlight));
    if (f.first !== undefined) { hash.set('p0', String(this.r0)); hash.set('p1', String(this.r1)); }
    history.replaceState(null, '', '#' + hash.toString());
    const n = this.rowCount();
    this.axis.replaceChildren(...this.axisTicks().map(([, text]) => el('span', {}, text)));
    if (n === 0) { this.status('no profile matches the filter'); return; }
    const w = Math.max(1, Math.min(this.canvas.clientWidth, TRACE_MAX_WIDTH));
    // the canvas's height, not bounded by the rows (the server does that): a size the next index keeps whatever the trace
    const h = Math.max(1, Math.min(this.canvas.clientHeight, TRACE_MAX_HEIGHT));
    const t = performance.now();
    this.status('drawing…');
    try {
      const buf = await this.get('/api/trace/tile', { t0: this.abs(this.v0), t1: this.abs(this.v1), w, h, remember: 1, ...f }, 'tile', true);
      this.tile = decodeTile(buf);
      this.paint(this.canvas, this.tile);
      this.drawLabels();
      this.drawOverlay();
      this.draws++;
      Object.assign(this.root.dataset, { draws: String(this.draws), t0: this.abs(this.v0), t1: this.abs(this.v1), depth: f.depth,
        rows: `${this.r0}-${this.r1}` });
      const rows = n < this.selCount() ? `profiles ${this.r0 + 1}–${this.r1} of ${this.selCount()}` : `${n} profiles`;
      this.status(`${rows}, ${this.info.events} events · window ${fmtNs(this.v1 - this.v0)} · ${scaleText(this.tile.scale, n)} · tile ${w}×${this.tile.h} in ${Math.round(performance.now() - t)} ms (${buf.byteLength} bytes)`);
      this.root.dataset.state = 'ready';
    } catch (e) { if (e.name !== 'AbortError') this.status('error: ' + e.message); return; }
    await Promise.all([this.drawMini(), this.drawStats(), drawSummary(this), drawDepth(this), this.drawGpu()]);
  }

  // GPU idleness costs a read of every element of the streams and their hosts: only while its box is open
  drawGpu() { return this.gpuBox.open ? drawGpu(this, this.gpuList, this.waitIn) : null; }

  // [fraction of the width, time from the run's start] at the start, middle and end of the window
  axisTicks() { return [0, 0.5, 1].map((f) => [f, fmtNs(this.v0 + f * (this.v1 - this.v0))]); }

  // the shown rows' identities beside them: each row's, or its group's when rows are thinner than a line of text
  groups() { return rowLabels(Array.from({ length: this.rowCount() }, (_, i) => this.info.rows[this.rowAt(i)].id), this.canvas.clientHeight / this.rowCount(), LABEL_PX); }
  drawLabels() {
    const n = this.rowCount();
    this.labels.replaceChildren(...this.groups().map((g) => {
      const s = el('span', { class: g.count > 1 ? 'group' : 'row' }, g.text);
      s.style.top = `${(100 * (g.first + g.count / 2)) / n}%`;
      return s;
    }));
  }

  // how pale cell i is drawn (1: its context's own colour): a mixed cell is paler the less its dominant
  // context covers; with a highlighted context, the others fade
  cellAlpha(tile, i) {
    let a = tile.count[i] > 1 ? 0.45 + 0.55 * tile.share[i] / 255 : 1;
    if (this.highlight !== null && tile.ctx[i] !== this.highlight) a *= 0.25;
    return a;
  }

  // the colour of cell i of a tile, null for an empty cell
  cellRgb(tile, i) {
    const c = tile.ctx[i];
    if (c === EMPTY) return null;
    const a = this.cellAlpha(tile, i);
    return this.palette.rgb(c).map((v) => Math.round(255 - (255 - v) * a));
  }

  paint(canvas, tile) {
    canvas.width = tile.w; canvas.height = tile.h;
    const g = canvas.getContext('2d'), img = g.createImageData(tile.w, tile.h), data = img.data;
    let lit = 0;
    for (let i = 0, n = tile.w * tile.h; i < n; i++) { // as cellRgb, without an array per cell: a tile has ~10^6
      const c = tile.ctx[i], o = 4 * i;
      if (c === EMPTY) data[o] = data[o + 1] = data[o + 2] = 255;
      else {
        const rgb = this.palette.rgb(c), a = this.cellAlpha(tile, i);
        for (let k = 0; k < 3; k++) data[o + k] = Math.round(255 - (255 - rgb[k]) * a);
      }
      data[o + 3] = 255;
      if (c === this.highlight) lit++;
    }
    g.putImageData(img, 0, 0);
    if (canvas === this.canvas) this.root.dataset.highlightCells = String(lit);
  }

  // the crosshair where the last click fell (its time and profile), and the band of a shift-drag
  drawOverlay(band) {
    const ov = this.overlay;
    ov.width = ov.clientWidth; ov.height = ov.clientHeight;
    const g = ov.getContext('2d'), rect = ov.getBoundingClientRect();
    if (band) {
      const [d, e] = band;
      g.fillStyle = 'rgba(40,80,200,0.2)';
      const tall = Math.abs(e.clientY - d.y) >= 8;
      g.fillRect(Math.min(d.x, e.clientX) - rect.left, tall ? Math.min(d.y, e.clientY) - rect.top : 0, Math.abs(e.clientX - d.x),
        tall ? Math.abs(e.clientY - d.y) : ov.height);
    }
    const c = this.clicked;
    if (!c) return;
    const x = Math.round((c.t - this.v0) / (this.v1 - this.v0) * ov.width) + 0.5;
    const i = c.sel - this.r0, y = Math.round((i + 0.5) / this.rowCount() * ov.height) + 0.5;
    g.strokeStyle = '#000'; g.lineWidth = 1; g.setLineDash([4, 3]);
    g.beginPath();
    g.moveTo(x, 0); g.lineTo(x, ov.height);
    if (i >= 0 && i < this.rowCount()) { g.moveTo(0, y); g.lineTo(ov.width, y); }
    g.stroke();
    this.root.dataset.cross = `${Math.floor(x)},${i >= 0 && i < this.rowCount() ? Math.floor(y) : ''}`;
  }

  async drawMini() {
    const w = Math.max(1, Math.min(this.mini.clientWidth, 2000)), n = this.selCount();
    if (this.v0 <= 0 && this.v1 >= this.span && this.rowCount() === n) { // the window is the whole run: its tile is the mini-map's
      this.miniTile = { ...this.tile, depth: this.depthSel.value };
    } else if (!this.miniTile || this.miniTile.depth !== this.depthSel.value) {
      try {
        const buf = await this.get('/api/trace/tile', { t0: this.abs(0), t1: this.abs(Math.max(this.span, w)), w, h: Math.min(n, 40), ...this.filters(false) }, 'mini', true);
        this.miniTile = decodeTile(buf); this.miniTile.depth = this.depthSel.value;
      } catch (e) { if (e.name !== 'AbortError') this.status('error: ' + e.message); return; }
    }
    this.paint(this.mini, this.miniTile);
    const g = this.mini.getContext('2d'), sx = this.mini.width / Math.max(this.span, w);
    g.strokeStyle = '#000'; g.lineWidth = 1;
    g.strokeRect(this.v0 * sx, 0, Math.max(1, (this.v1 - this.v0) * sx), this.mini.height);
  }

  label(c) { return c === -2 ? '<filtered out>' : this.info.contexts[c] ? this.info.contexts[c][1] : '?'; }
  // a context's colour, which a person may change (kept by its name: palette.js)
  swatch(c) {
    if (c < 0) { // the filtered-out grey; style through the CSSOM: the viewer's CSP refuses style attributes
      const s = el('span', { class: 'swatch' }), [r, g, b] = this.palette.rgb(GREY);
      s.style.background = `rgb(${r},${g},${b})`;
      return s;
    }
    const s = el('input', { type: 'color', class: 'swatch', 'data-test': 'colour', title: `the colour of ${this.label(c)}: click to change it` });
    s.value = hex(this.palette.rgb(c));
    s.onclick = (e) => e.stopPropagation();
    s.onchange = () => { this.palette.choose(c, s.value); this.miniTile = null; this.redraw(); };
    return s;
  }

  async drawStats() {
    try {
      const s = await this.get('/api/trace/stats', { t0: this.abs(this.v0), t1: this.abs(this.v1), ...this.filters() }, 'stats');
      this.statsList.replaceChildren(...s.shares.slice(0, 25).map(([c, ns]) => {
        const li = el('li', { 'data-ctx': String(c), class: c === this.highlight ? 'lit' : '' }, this.swatch(c),
          `${(100 * ns / s.total_ns).toFixed(2)}% ${this.label(c)}`);
        li.onclick = () => {
          this.highlight = this.highlight === c ? null : c;
          this.paint(this.canvas, this.tile);
          for (const x of this.statsList.children) x.classList.toggle('lit', x === li && this.highlight === c);
          if (this.highlight === c && c >= 0) this.link.send(c);
        };
        return li;
      }));
    } catch (e) { if (e.name !== 'AbortError') this.status('error: ' + e.message); }
  }

  clickDepth(e) {
    const rect = this.depthCanvas.getBoundingClientRect(), rows = this.depthCanvas.height;
    if (!this.clicked || !rows) return;
    this.pushUndo();
    this.depthSel.value = String(Math.min(rows - 1, Math.floor((e.clientY - rect.top) / rect.height * rows)));
    this.redraw();
  }

  // a context chosen in a tree view: the timeline coloured at its depth (in all scopes when it is no
  // procedure frame), the context highlighted where the data has it
  showContext(c) {
    if (!this.info || !this.info.contexts[c]) return;
    this.pushUndo();
    this.focus(c);
    this.redraw();
  }
  focus(c) {
    if (!this.info.contexts[c][2] && this.scopesSel.value !== 'all') { this.scopesSel.value = 'all'; this.fillDepths(0); }
    const frames = this.scopesSel.value !== 'all';
    this.depthSel.value = String(frames ? this.frameDepth[c] : this.scopeDepth[c]);
    this.highlight = c;
  }

  hover(e) {
    if (!this.info) return;
    const rect = this.overlay.getBoundingClientRect();
    const i = Math.min(this.rowCount() - 1, Math.floor((e.clientY - rect.top) / rect.height * this.rowCount()));
    const row = this.info.rows[this.rowAt(Math.max(0, i))];
    if (row) this.status(`${row.id} · ${fmtNs(this.v0 + (e.clientX - rect.left) / rect.width * (this.v1 - this.v0))}`);
  }

  async clickAt(x, y) {
    const rect = this.canvas.getBoundingClientRect();
    const i = Math.max(0, Math.min(this.rowCount() - 1, Math.floor((y - rect.top) / rect.height * this.rowCount())));
    const rel = this.v0 + (x - rect.left) / rect.width * (this.v1 - this.v0), t = this.abs(rel), row = this.rowAt(i);
    this.clicked = { row, sel: this.r0 + i, t: Number(BigInt(t) - this.tmin) };
    Object.assign(this.root.dataset, { atRow: String(row), atT: t, atProfile: String(this.info.rows[row].profile) });
    this.drawOverlay();
    const where = `${this.info.rows[row].id} at ${fmtNs(this.clicked.t)} from the run's start`;
    this.pathHead.textContent = `Call path of ${where}`;
    try {
      const a = await this.get('/api/trace/at', { row, t }, 'at');
      // procedure frames with their call sites, or every scope; a click colours at that frame's depth
      const frames = this.scopesSel.value !== 'all';
      this.pathList.replaceChildren(...a.path.filter(([, , frame]) => !frames || frame).map(([c, name, , site]) => {
        const li = el('li', { 'data-ctx': String(c) }, this.swatch(c), name + (frames && site ? `  (called at ${site})` : ''));
        li.onclick = () => {
          this.pushUndo();
          this.depthSel.value = String(frames ? this.frameDepth[c] : this.scopeDepth[c]);
          this.redraw();
          this.link.send(c);
        };
        return li;
      }));
      this.status(where);
    } catch (e) {
      this.pathList.replaceChildren(el('li', {}, e.message));
    }
    this.root.dataset.pathReady = String((Number(this.root.dataset.pathReady) || 0) + 1);
    drawDepth(this);
  }
}
