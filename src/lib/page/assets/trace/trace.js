/* SPDX-License-Identifier: BSD-3-Clause */
// The trace view: a timeline of every profile drawn from the server's exact
// tiles (one canvas pixel per tile cell), with a mini-map, a depth view of
// one profile, a summary (shares per time column), statistics of the
// visible window and the calling path at a clicked point. Times travel as
// decimal strings (they exceed 2^53); the page keeps times relative to the
// run's first timestamp as Numbers.

const EMPTY = 0xffffffff, GREY = 0xfffffffe;

// "HTL2": the header, the tile's scale (how its coarse rows were summed), the runs
export function decodeTile(buf) {
  const v = new DataView(buf);
  if (v.getUint32(0, true) !== 0x324c5448) throw new Error('not a tile');
  const w = v.getUint32(4, true), h = v.getUint32(8, true), runs = v.getUint32(12, true);
  const scale = { coarseRows: v.getUint32(16, true), eventsMin: Number(v.getBigUint64(32, true)),
    eventsMax: Number(v.getBigUint64(40, true)), bucketNs: Number(v.getBigUint64(48, true)) };
  const ctx = new Uint32Array(w * h), share = new Uint8Array(w * h), count = new Uint8Array(w * h);
  let at = 0;
  for (let i = 0, p = 56; i < runs; i++, p += 8) {
    const len = v.getUint16(p, true), s = v.getUint8(p + 2), n = v.getUint8(p + 3), c = v.getUint32(p + 4, true);
    ctx.fill(c, at, at + len); share.fill(s, at, at + len); count.fill(n, at, at + len);
    at += len;
  }
  return { w, h, ctx, share, count, scale };
}

// What a cell means at this zoom (docs/trace.md): whole buckets of the index where rows are dense enough
export function scaleText(scale, rows) {
  if (!scale.coarseRows) return 'each cell: exact per pixel';
  const events = scale.eventsMin === scale.eventsMax ? `${scale.eventsMin}` : `${scale.eventsMin}–${scale.eventsMax}`;
  const rest = scale.coarseRows < rows ? `; ${rows - scale.coarseRows} sparser rows exact per pixel` : '';
  return `each cell: whole buckets of ${events} events (≈ ${fmtNs(scale.bucketNs)} each)${rest}`;
}

export function colour(c) {
  if (c === 0) return [232, 232, 232];
  if (c === GREY) return [176, 176, 176];
  const h = (c * 137.508) % 360, s = 0.6, l = 0.52;
  const f = (n) => { const k = (n + h / 30) % 12; return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1)); };
  return [f(0) * 255, f(8) * 255, f(4) * 255].map(Math.round);
}

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (k === 'class') e.className = v; else e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

export class TraceView {
  constructor(root, base) {
    this.root = root; this.base = base; this.undo = []; this.pending = {}; this.draws = 0; this.highlight = null;
    this.page = Math.random().toString(36).slice(2, 10); // with the kind of request: the server cancels a superseded one
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
    const btn = (label, fn, test) => { const b = el('button', { 'data-test': test }, label); b.onclick = fn; return b; };
    r.append(el('div', { class: 'bar' },
      btn('Zoom in', () => this.zoomBy(0.5), 'zoom-in'), btn('Zoom out', () => this.zoomBy(2), 'zoom-out'),
      btn('Undo zoom', () => this.popUndo(), 'undo'), btn('Whole run', () => this.reset(), 'reset'),
      el('label', {}, 'depth ', this.depthSel), el('label', {}, ' in ', this.scopesSel), this.rowsIn, this.ctxIn, btn('Filter', () => this.refilter(), 'filter')));
    this.mini = el('canvas', { class: 'minimap', 'data-test': 'minimap', title: 'the whole run: click to go there' });
    this.canvas = el('canvas', { 'data-test': 'timeline' });
    this.labels = el('div', { class: 'labels', 'data-test': 'labels' });
    this.overlay = el('canvas', { 'data-test': 'overlay' });
    this.canvas.style.imageRendering = 'pixelated';
    this.axis = el('div', { class: 'axis' });
    this.depthCanvas = el('canvas', { 'data-test': 'depthview', title: 'depth view of the clicked profile' });
    this.summaryCanvas = el('canvas', { 'data-test': 'summary', title: 'share of each context per time column' });
    this.depthCanvas.style.imageRendering = 'pixelated';
    this.pathList = el('ol', { class: 'path', 'data-test': 'path' });
    this.statsList = el('ul', { class: 'stats', 'data-test': 'stats' });
    this.statusLine = el('div', { class: 'status', 'data-test': 'status' });
    r.append(this.mini, el('div', { class: 'main' }, this.canvas, this.labels, this.overlay), this.axis,
      el('div', { class: 'lower' }, this.depthCanvas, this.summaryCanvas),
      el('div', { class: 'side' }, el('h3', {}, 'Call path at the click'), this.pathList,
        el('h3', {}, 'Statistics of the window (exact shares of profile-time)'), this.statsList),
      this.statusLine);
    this.depthSel.onchange = () => { this.pushUndo(); this.redraw(); };
    this.scopesSel.onchange = () => { this.pushUndo(); this.fillDepths(Math.min(3, this.maxDepthOf())); this.redraw(); };
    this.rowsIn.onkeydown = this.ctxIn.onkeydown = (e) => { if (e.key === 'Enter') this.refilter(); };
    this.mouse();
    r.tabIndex = 0;
    r.addEventListener('keydown', (e) => this.key(e));
    window.addEventListener('resize', () => this.redraw());
    document.addEventListener('hpcdb-select-context', (e) => { this.highlight = e.detail.ctx; this.redraw(); });
  }

  status(text) { this.statusLine.textContent = text; }

  async get(path, params, kind, binary) {
    if (this.pending[kind]) this.pending[kind].abort(); // a newer request supersedes it
    const ac = new AbortController(); this.pending[kind] = ac;
    const q = new URLSearchParams({ ...params, slot: this.page + '.' + kind }).toString();
    this.inFlight = (this.inFlight || 0) + 1;
    this.root.dataset.busy = '1';
    try {
      const resp = await fetch(this.base + path + (q ? '?' + q : ''), { signal: ac.signal });
      if (resp.status === 503) { // the index is being built: say how far, ask again
        const j = await resp.json();
        if (j.building !== undefined) {
          this.status(j.error + '…');
          await new Promise((res) => setTimeout(res, 150));
          if (ac.signal.aborted) throw new DOMException('superseded', 'AbortError');
          return await this.get(path, params, kind, binary);
        }
        throw new Error(j.error);
      }
      if (!resp.ok) throw new Error((await resp.json()).error);
      return await (binary ? resp.arrayBuffer() : resp.json());
    } finally {
      if (--this.inFlight === 0) this.root.dataset.busy = '0'; // tests wait for quiet
    }
  }

  async load() {
    this.status('loading the trace index…');
    this.info = await this.get('/api/trace/info', {}, 'info');
    if (!this.info.events) { this.status('this database has no trace events'); return; }
    this.tmin = BigInt(this.info.t_min);
    this.span = Number(BigInt(this.info.t_max) - this.tmin) + 1;
    // depths in scopes (every context a level) and in procedure frames (docs/trace.md)
    const n = this.info.contexts.length;
    this.scopeDepth = new Array(n).fill(0); this.frameDepth = new Array(n).fill(0);
    const frameOf = new Array(n).fill(-1);
    this.info.contexts.forEach(([p, , frame], i) => {
      if (i === 0) return;
      if (p > 0) this.scopeDepth[i] = this.scopeDepth[p] + 1;
      const outer = p >= 0 ? frameOf[p] : -1;
      frameOf[i] = frame ? i : outer;
      if (frame) this.frameDepth[i] = outer >= 0 ? this.frameDepth[outer] + 1 : 0;
    });
    const h = new URLSearchParams(location.hash.slice(1));
    this.v0 = h.has('t0') ? Number(BigInt(h.get('t0')) - this.tmin) : 0;
    this.v1 = h.has('t1') ? Number(BigInt(h.get('t1')) - this.tmin) : this.span;
    this.scopesSel.value = h.get('scopes') === 'all' ? 'all' : 'frames';
    this.fillDepths(h.get('depth') || String(Math.min(3, this.maxDepthOf())));
    this.rowsIn.value = h.get('rows') || ''; this.ctxIn.value = h.get('ctx') || '';
    this.selection = null;
    await this.refilter(true);
  }

  maxDepthOf() { return Math.max(0, ...(this.scopesSel.value === 'all' ? this.scopeDepth : this.frameDepth)); }
  fillDepths(value) {
    this.maxDepth = this.maxDepthOf();
    this.depthSel.replaceChildren(el('option', { value: 'leaf' }, 'leaf'),
      ...Array.from({ length: this.maxDepth + 1 }, (_, d) => el('option', { value: String(d) }, String(d))));
    this.depthSel.value = String(value);
  }

  abs(rel) { return (this.tmin + BigInt(Math.max(0, Math.round(rel)))).toString(); }
  filters() {
    const f = { depth: this.depthSel.value, order: 'identity' }; // rows grouped by node, rank, thread / GPU stream
    if (this.scopesSel.value === 'all') f.scopes = 'all';
    if (this.rowsIn.value) f.rows = this.rowsIn.value;
    if (this.ctxIn.value) f.ctx = this.ctxIn.value;
    return f;
  }
  rowCount() { return this.selection ? this.selection.length : this.info.rows.length; }
  rowAt(i) { return this.selection ? this.selection[i] : i; }

  async refilter(first) {
    if (!first) this.pushUndo();
    const sel = { order: 'identity' };
    if (this.rowsIn.value) sel.rows = this.rowsIn.value;
    this.selection = (await this.get('/api/trace/info', sel, 'sel')).selected;
    this.miniTile = null;
    this.clickedRow = undefined;
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

  // coalesce: a burst of wheel steps is one step of undo
  pushUndo(coalesce) {
    const now = Date.now();
    if (coalesce && this.lastWheel && now - this.lastWheel < 400) { this.lastWheel = now; return; }
    this.lastWheel = coalesce ? now : 0;
    this.undo.push({ v0: this.v0, v1: this.v1, depth: this.depthSel.value, scopes: this.scopesSel.value });
  }
  popUndo() {
    const s = this.undo.pop();
    if (!s) return;
    this.v0 = s.v0; this.v1 = s.v1;
    if (s.scopes !== this.scopesSel.value) { this.scopesSel.value = s.scopes; this.fillDepths(s.depth); }
    this.depthSel.value = s.depth;
    this.redraw();
  }
  reset() { this.pushUndo(); this.v0 = 0; this.v1 = this.span; this.redraw(); }
  zoomBy(f, at, coalesce) {
    this.pushUndo(coalesce);
    const c = at ?? (this.v0 + this.v1) / 2;
    this.v0 = c - (c - this.v0) * f; this.v1 = c + (this.v1 - c) * f;
    this.redraw();
  }
  panBy(frac, coalesce) { this.pushUndo(coalesce); const d = (this.v1 - this.v0) * frac; this.v0 += d; this.v1 += d; this.redraw(); }

  key(e) {
    const k = { '+': () => this.zoomBy(0.5), '=': () => this.zoomBy(0.5), '-': () => this.zoomBy(2),
      ArrowLeft: () => this.panBy(-0.1), ArrowRight: () => this.panBy(0.1), u: () => this.popUndo(),
      Backspace: () => this.popUndo(), Home: () => this.reset() }[e.key];
    if (k && e.target.tagName !== 'INPUT') { e.preventDefault(); k(); }
  }

  async redraw() {
    if (!this.info) return;
    this.clampView();
    const f = this.filters();
    const hash = new URLSearchParams({ t0: this.abs(this.v0), t1: this.abs(this.v1), ...f });
    history.replaceState(null, '', '#' + hash.toString());
    const n = this.rowCount();
    this.axis.replaceChildren(el('span', {}, fmtNs(this.v0)), el('span', {}, fmtNs((this.v0 + this.v1) / 2)), el('span', {}, fmtNs(this.v1)));
    if (n === 0) { this.status('no profile matches the filter'); return; }
    const w = Math.max(1, Math.min(this.canvas.clientWidth, TRACE_MAX_WIDTH));
    const h = Math.max(1, Math.min(this.canvas.clientHeight, n, TRACE_MAX_HEIGHT));
    const t = performance.now();
    this.status('drawing…');
    try {
      const buf = await this.get('/api/trace/tile', { t0: this.abs(this.v0), t1: this.abs(this.v1), w, h, ...f }, 'tile', true);
      this.tile = decodeTile(buf);
      this.paint(this.canvas, this.tile);
      this.drawLabels(n);
      this.draws++;
      this.root.dataset.draws = String(this.draws);
      this.root.dataset.t0 = this.abs(this.v0); this.root.dataset.t1 = this.abs(this.v1);
      this.root.dataset.depth = f.depth;
      this.status(`${n} profiles, ${this.info.events} events · window ${fmtNs(this.v1 - this.v0)} · ${scaleText(this.tile.scale, n)} · tile ${w}×${this.tile.h} in ${Math.round(performance.now() - t)} ms (${buf.byteLength} bytes)`);
      this.root.dataset.state = 'ready';
    } catch (e) { if (e.name !== 'AbortError') this.status('error: ' + e.message); return; }
    this.drawMini(); this.drawStats(); this.drawSummary(); this.drawDepth();
  }

  // the profiles' identities beside their rows, when each row has room for a line of text
  drawLabels(n) {
    const room = this.canvas.clientHeight / n >= 12;
    this.labels.replaceChildren(...(room ? Array.from({ length: n }, (_, i) => {
      const s = el('span', {}, this.info.rows[this.rowAt(i)].id);
      s.style.top = `${(100 * (i + 0.5)) / n}%`;
      return s;
    }) : []));
  }

  paint(canvas, tile) {
    canvas.width = tile.w; canvas.height = tile.h;
    const g = canvas.getContext('2d'), img = g.createImageData(tile.w, tile.h);
    for (let i = 0; i < tile.w * tile.h; i++) {
      const c = tile.ctx[i];
      if (c === EMPTY) { img.data.set([255, 255, 255, 255], 4 * i); continue; }
      let [r, gg, b] = colour(c);
      // a mixed cell is paler the less its dominant context covers
      let a = tile.count[i] > 1 ? 0.45 + 0.55 * tile.share[i] / 255 : 1;
      if (this.highlight !== null && c !== this.highlight) a *= 0.25;
      img.data.set([255 - (255 - r) * a, 255 - (255 - gg) * a, 255 - (255 - b) * a, 255], 4 * i);
    }
    g.putImageData(img, 0, 0);
  }

  async drawMini() {
    const w = Math.max(1, Math.min(this.mini.clientWidth, 2000)), n = this.rowCount();
    if (this.v0 <= 0 && this.v1 >= this.span) { // the window is the whole run: its tile is the mini-map's
      this.miniTile = { ...this.tile, depth: this.depthSel.value };
    } else if (!this.miniTile || this.miniTile.depth !== this.depthSel.value) {
      const buf = await this.get('/api/trace/tile', { t0: this.abs(0), t1: this.abs(Math.max(this.span, w)), w, h: Math.min(n, 40), ...this.filters() }, 'mini', true);
      this.miniTile = decodeTile(buf); this.miniTile.depth = this.depthSel.value;
    }
    this.paint(this.mini, this.miniTile);
    const g = this.mini.getContext('2d'), sx = this.mini.width / Math.max(this.span, w);
    g.strokeStyle = '#000'; g.lineWidth = 1;
    g.strokeRect(this.v0 * sx, 0, Math.max(1, (this.v1 - this.v0) * sx), this.mini.height);
  }

  label(c) { return c === -2 ? '<filtered out>' : this.info.contexts[c] ? this.info.contexts[c][1] : '?'; }
  swatch(c) { // style through the CSSOM: the viewer's CSP refuses style attributes
    const [r, g, b] = colour(c === -2 ? GREY : c), s = el('span', { class: 'swatch' });
    s.style.background = `rgb(${r},${g},${b})`;
    return s;
  }

  async drawStats() {
    try {
      const s = await this.get('/api/trace/stats', { t0: this.abs(this.v0), t1: this.abs(this.v1), ...this.filters() }, 'stats');
      this.statsList.replaceChildren(...s.shares.slice(0, 25).map(([c, ns]) => {
        const li = el('li', { 'data-ctx': String(c) }, this.swatch(c), `${(100 * ns / s.total_ns).toFixed(2)}% ${this.label(c)}`);
        li.onclick = () => { this.highlight = this.highlight === c ? null : c; this.paint(this.canvas, this.tile); this.select(c); };
        return li;
      }));
    } catch (e) { if (e.name !== 'AbortError') this.status('error: ' + e.message); }
  }

  async drawSummary() {
    const w = Math.max(1, Math.min(this.summaryCanvas.clientWidth, 400, this.v1 - this.v0));
    try {
      const s = await this.get('/api/trace/summary', { t0: this.abs(this.v0), t1: this.abs(this.v1), w, ...this.filters() }, 'summary');
      const c = this.summaryCanvas, g = c.getContext('2d');
      c.width = w; c.height = 100;
      g.fillStyle = '#fff'; g.fillRect(0, 0, w, 100);
      s.columns.forEach((col, x) => {
        let y = 100;
        for (const [ctx, ns] of col.shares) {
          const hgt = 100 * ns / col.total_ns, [r, gg, b] = colour(ctx === -2 ? GREY : ctx);
          g.fillStyle = `rgb(${r},${gg},${b})`; g.fillRect(x, y - hgt, 1, hgt); y -= hgt;
        }
      });
    } catch (e) { if (e.name !== 'AbortError') this.status('error: ' + e.message); }
  }

  async drawDepth() {
    if (this.clickedRow === undefined) return;
    const w = Math.max(1, Math.min(this.depthCanvas.clientWidth, TRACE_MAX_WIDTH)), rows = Math.min(this.maxDepth + 1, 24);
    const tiles = [];
    for (let d = 0; d < rows; d++) {
      const buf = await this.get('/api/trace/tile', { t0: this.abs(this.v0), t1: this.abs(this.v1), w, h: 1, first: this.clickedSel, count: 1,
        ...this.filters(), depth: String(d) }, 'depth' + d, true);
      tiles.push(decodeTile(buf));
    }
    const all = { w, h: rows, ctx: new Uint32Array(w * rows), share: new Uint8Array(w * rows), count: new Uint8Array(w * rows) };
    tiles.forEach((t, d) => { all.ctx.set(t.ctx, d * w); all.share.set(t.share, d * w); all.count.set(t.count, d * w); });
    this.paint(this.depthCanvas, all);
    this.root.dataset.depthRows = String(rows);
  }

  select(ctx) { this.root.dispatchEvent(new CustomEvent('hpcdb-trace-context', { bubbles: true, detail: { ctx } })); }

  async clickAt(x, y) {
    const rect = this.canvas.getBoundingClientRect();
    const sel = Math.min(this.rowCount() - 1, Math.floor((y - rect.top) / rect.height * this.rowCount()));
    const t = this.abs(this.v0 + (x - rect.left) / rect.width * (this.v1 - this.v0));
    const row = this.rowAt(sel);
    this.root.dataset.atRow = String(row); this.root.dataset.atT = t;
    this.root.dataset.atProfile = String(this.info.rows[row].profile);
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
          this.select(c);
        };
        return li;
      }));
      this.status(`${this.info.rows[row].id} at ${fmtNs(Number(BigInt(t) - this.tmin))} from the run's start`);
    } catch (e) {
      this.pathList.replaceChildren(el('li', {}, e.message));
    }
    this.clickedRow = row; this.clickedSel = sel;
    this.root.dataset.pathReady = String((Number(this.root.dataset.pathReady) || 0) + 1);
    this.drawDepth();
  }

  mouse() {
    let down = null;
    const ov = this.overlay;
    ov.onmousedown = (e) => { down = { x: e.clientX, y: e.clientY, v0: this.v0, v1: this.v1, shift: e.shiftKey }; };
    ov.onmousemove = (e) => {
      const rect = ov.getBoundingClientRect();
      if (this.info && !down) {
        const sel = Math.min(this.rowCount() - 1, Math.floor((e.clientY - rect.top) / rect.height * this.rowCount()));
        const row = this.info.rows[this.rowAt(Math.max(0, sel))];
        if (row) this.status(`${row.id} · ${fmtNs(this.v0 + (e.clientX - rect.left) / rect.width * (this.v1 - this.v0))}`);
      }
      if (!down) return;
      ov.width = ov.clientWidth; ov.height = ov.clientHeight;
      const g = ov.getContext('2d');
      g.clearRect(0, 0, ov.width, ov.height);
      if (down.shift) { g.fillStyle = 'rgba(40,80,200,0.2)'; g.fillRect(Math.min(down.x, e.clientX) - rect.left, 0, Math.abs(e.clientX - down.x), ov.height); }
    };
    ov.onmouseup = (e) => {
      const rect = ov.getBoundingClientRect(), d = down; down = null;
      ov.getContext('2d').clearRect(0, 0, ov.width, ov.height);
      if (!d) return;
      const dx = e.clientX - d.x, per = (d.v1 - d.v0) / rect.width;
      if (Math.abs(dx) < 3 && Math.abs(e.clientY - d.y) < 3) return this.clickAt(e.clientX, e.clientY);
      this.pushUndo();
      if (d.shift) { // zoom to the selected region
        const a = d.v0 + (Math.min(d.x, e.clientX) - rect.left) * per, b = d.v0 + (Math.max(d.x, e.clientX) - rect.left) * per;
        this.v0 = a; this.v1 = b;
      } else { this.v0 = d.v0 - dx * per; this.v1 = d.v1 - dx * per; }
      this.redraw();
    };
    ov.onwheel = (e) => {
      e.preventDefault();
      const rect = ov.getBoundingClientRect();
      const at = this.v0 + (e.clientX - rect.left) / rect.width * (this.v1 - this.v0);
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) this.panBy((e.deltaX || e.deltaY) / rect.width, true);
      else this.zoomBy(e.deltaY > 0 ? 1.25 : 0.8, at, true);
    };
    this.mini.onclick = (e) => {
      const rect = this.mini.getBoundingClientRect(), len = this.v1 - this.v0;
      const c = (e.clientX - rect.left) / rect.width * Math.max(this.span, rect.width);
      this.pushUndo(); this.v0 = c - len / 2; this.v1 = c + len / 2; this.redraw();
    };
  }
}

const TRACE_MAX_WIDTH = 8192, TRACE_MAX_HEIGHT = 4096;

export function fmtNs(ns) {
  const a = Math.abs(ns);
  if (a >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
  if (a >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
  if (a >= 1e3) return (ns / 1e3).toFixed(3) + ' µs';
  return Math.round(ns) + ' ns';
}
