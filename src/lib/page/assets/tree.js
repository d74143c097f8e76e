/* SPDX-License-Identifier: BSD-3-Clause */
// The tree-table, virtualised: the open rows are one flat list (children are
// paged on the server; a page is fetched when the window first shows one of
// its rows), and the DOM holds only the rows in the scrolled window plus a
// margin, between two spacer rows that keep the whole list's scroll height.
// A node with 100k children opens with one page of 200.
import { get } from './api.js';
import { shown, sortIndex, header, cells } from './columns.js';
import { flattened } from './flatten.js';
import { hideFilter, moveCost, withoutChildren } from './hide.js';
import { specOf, shownAs } from './derived.js';

export const ROW = 22; // the rows' fixed height in style.css

// A row of the visible list's i-th entry v with its name cell, indented by depth (this table and the comparison's).
export function rowStart(v, i) {
  const tr = document.createElement('tr'), name = document.createElement('td');
  tr.dataset.i = i;
  name.className = 'name';
  name.style.paddingLeft = `${v.depth * 1.2}em`;
  tr.append(name);
  return [tr, name];
}

const PAGE = 200, MARGIN = 20;

export class Tree {
  constructor(pane, state, onSelect) {
    this.pane = pane;
    this.table = pane.querySelector('table');
    this.state = state;
    this.onSelect = onSelect;
    this.kids = new Map(); // node -> {rows (sparse until fetched), total, parent}
    this.metrics = [];
    this.visible = []; // the open rows: {row, depth}, or {parent, index, depth} until fetched
    this.gen = 0; // answers for a tree before reset() are dropped
    this.pending = new Map(); // "parent:offset" -> the page's answer on its way
    pane.addEventListener('scroll', () => {
      if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
    });
    const body = this.table.tBodies[0];
    body.addEventListener('click', (ev) => {
      const v = this.itemOf(ev.target);
      if (!v || !v.row) return;
      if (ev.target.classList.contains('twisty') && v.depth > 0) this.toggle(v.row.node);
      else this.onSelect(v.row);
    });
    body.addEventListener('dblclick', (ev) => { const v = this.itemOf(ev.target); if (v && v.row) this.toggle(v.row.node); });
  }

  get metric() { return this.metrics.find((m) => m.name === this.state.metric) || this.metrics[0]; } // the selected one

  async page(node, offset, limit = PAGE) {
    const s = this.state, cols = shown(s), gen = this.gen;
    const r = await get('children', { view: s.view, node, metrics: cols.map((c) => specOf(s, c)).join('\n'), sort: s.sort, order: s.order,
      sort_col: sortIndex(s), offset, limit, profile: s.profile, group: s.group });
    if (gen !== this.gen) return null;
    this.metrics = r.metrics.map((m, i) => shownAs(s, m, cols[i]));
    let k = this.kids.get(node);
    if (!k) this.kids.set(node, k = { rows: new Array(r.total), total: r.total, parent: r.parent });
    r.rows.forEach((row, i) => { k.rows[offset + i] = row; });
    return k;
  }

  async kidsOf(node) { return this.kids.get(node) || this.page(node, 0); }

  // The open rows in order: depth first through the open nodes.
  async flatten() {
    const root = Number(this.state.zoom) || 0;
    let top = await this.kidsOf(root);
    if (!top) return this.visible;
    if (this.state.view === 'flat' && Number(this.state.flat) > 0) top = await flattened(this, root, Number(this.state.flat));
    if (!top) return this.visible;
    const out = [{ row: top.parent, depth: 0 }];
    const hide = hideFilter(this.state);
    const walk = async (k, node, depth, above) => { // above: the open-rows entry hidden costs move to
      if (!k) return; // the tree was reset meanwhile
      for (let i = 0; i < k.total; i++) {
        const row = k.rows[i];
        if (!row) { out.push({ parent: node, index: i, depth }); continue; }
        const mode = hide && hide.re.test(row.name) ? hide.mode : '';
        if (mode === 'all') { moveCost(above, row, 0); continue; }
        if (mode === 'self') { // its children in its place
          moveCost(above, row, 1);
          if (row.children) await walk(await this.kidsOf(row.node), row.node, depth, above);
          continue;
        }
        const v = { row: mode === 'children' ? withoutChildren(row) : row, depth };
        out.push(v);
        if (!mode && row.children && this.state.open.has(String(row.node))) await walk(await this.kidsOf(row.node), row.node, depth + 1, v);
      }
    };
    await walk(top, root, 1, out[0]);
    return out;
  }

  async render(highlight) {
    this.highlight = highlight;
    this.visible = await this.flatten();
    header(this.table, this.metrics, this.state, this.onMove);
    this.draw();
  }

  // The window: the rows the pane shows, plus MARGIN above and below.
  draw() {
    const n = this.visible.length, p = this.pane;
    // a list shorter than the last one: the browser will clamp scrollTop to it, so draw that window
    const top = Math.min(p.scrollTop, Math.max(0, this.table.tHead.offsetHeight + n * ROW - p.clientHeight));
    const first = Math.max(0, Math.floor(top / ROW) - MARGIN);
    const last = Math.min(n, Math.ceil((top + p.clientHeight) / ROW) + MARGIN);
    const trs = [this.spacer(first * ROW)], missing = [];
    for (let i = first; i < last; i++) {
      if (!this.visible[i].row) missing.push(this.visible[i]);
      trs.push(this.tr(this.visible[i], i));
    }
    trs.push(this.spacer((n - last) * ROW));
    this.table.tBodies[0].replaceChildren(...trs);
    if (missing.length) this.fetch(missing);
  }

  // The pages holding rows the window shows (each asked once, however many wait for it), then the list again.
  async fetch(missing) {
    const gen = this.gen, asks = new Map();
    for (const v of missing) {
      const offset = v.index - v.index % PAGE, key = `${v.parent}:${offset}`;
      if (!this.pending.has(key)) {
        const ask = this.page(v.parent, offset).finally(() => { if (this.pending.get(key) === ask) this.pending.delete(key); });
        this.pending.set(key, ask);
      }
      asks.set(key, this.pending.get(key));
    }
    await Promise.all(asks.values());
    if (gen !== this.gen) return;
    this.visible = await this.flatten();
    this.draw();
  }

  spacer(height) {
    const tr = document.createElement('tr'), td = document.createElement('td');
    tr.className = 'spacer';
    td.colSpan = 1 + 2 * this.metrics.length;
    td.style.height = `${height}px`;
    tr.append(td);
    return tr;
  }

  tr(v, i) {
    const [tr, name] = rowStart(v, i);
    if (!v.row) {
      tr.className = 'pending';
      name.colSpan = 1 + 2 * this.metrics.length;
      name.textContent = '…';
      return tr;
    }
    const r = v.row;
    tr.dataset.node = r.node;
    if (String(r.node) === this.state.sel) tr.classList.add('selected');
    if (this.highlight && this.highlight(r)) tr.classList.add('hit');
    const twisty = document.createElement('span');
    twisty.className = 'twisty';
    twisty.textContent = r.children ? (this.state.open.has(String(r.node)) || v.depth === 0 ? '▾' : '▸') : ' ';
    name.append(twisty, r.name);
    name.title = r.name; // the whole name, however narrow the column
    tr.append(...cells(r.values, this.metrics, this.state.pct === '1'));
    return tr;
  }

  itemOf(el) {
    const tr = el.closest('tr[data-i]');
    return tr ? this.visible[Number(tr.dataset.i)] : null;
  }

  indexOf(node) { return this.visible.findIndex((v) => v.row && String(v.row.node) === String(node)); }

  // Scrolls row i into the window (below the sticky header).
  reveal(i) {
    const p = this.pane, y = i * ROW, head = this.table.tHead.offsetHeight;
    if (y < p.scrollTop) p.scrollTop = y;
    else if (head + y + ROW > p.scrollTop + p.clientHeight) p.scrollTop = head + y + ROW - p.clientHeight;
    this.draw();
  }

  toggle(node) {
    const k = String(node);
    if (this.state.open.has(k)) this.state.open.delete(k); else this.state.open.add(k);
    this.onChange();
  }

  reset() {
    this.kids.clear();
    this.pending.clear();
    this.gen++;
  }
}
