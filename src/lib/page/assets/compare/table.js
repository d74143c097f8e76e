/* SPDX-License-Identifier: BSD-3-Clause */
// The aligned tree of two runs as a table: A, B, delta and ratio, inclusive
// and exclusive (and the per-profile mean, max and imbalance when a run has
// several profiles). Top-down: a node's children are fetched when it is
// opened, ranked by the server, a page of 200 at a time ("… more" fetches the
// next); flat and bottom-up: one ranked list under the root.
import { get } from '../api.js';
import { value } from '../format.js';
import { rowStart } from '../tree.js';

const PAGE = 200;

// As hpcdb compare prints a ratio: "new" (only B has a value), "gone" (only A), "x1.86".
export function ratioText([a, b, , ratio]) {
  if (ratio === null) return 'new';
  if (b === 0 && a !== 0) return 'gone';
  return `x${ratio.toFixed(2)}`;
}

export function signed(v, seconds) { return v > 0 ? `+${value(v, seconds)}` : value(v, seconds); }

const known = (v, seconds) => (v === null ? '-' : value(v, seconds)); // no Max statistic: not known
const imbalance = (max, mean) => (max === null || mean === null ? '-' : `${Math.round(mean > 0 ? 100 * (max / mean - 1) : 0)}%`);
const change = (d) => (d > 0 ? 'worse' : d < 0 ? 'better' : ''); // a cost that grew is worse

export class CompareTable {
  constructor(table, state, onSelect, onSort) {
    this.table = table;
    this.state = state;
    this.kids = new Map(); // node -> {rows, total}
    this.gen = 0; // answers for a table before reset() are dropped
    this.table.tBodies[0].addEventListener('click', (ev) => {
      const tr = ev.target.closest('tr');
      const v = tr && this.visible[Number(tr.dataset.i)];
      if (!v) return;
      if (v.more) this.more(v.more);
      else if (ev.target.classList.contains('twisty') && v.depth > 0) this.toggle(v.row.node);
      else onSelect(v.row);
    });
    this.table.tHead.addEventListener('click', (ev) => {
      const th = ev.target.closest('th[data-sort]');
      if (th) onSort(th.dataset.sort, th.dataset.flavour);
    });
  }

  async page(node, offset) {
    const s = this.state, gen = this.gen;
    const r = await get('compare/children', { view: s.view, node, sort: s.sort, flavour: s.flavour, metric: s.metric, metric_b: s.metric_b, offset, limit: PAGE });
    if (gen !== this.gen) return null;
    const k = this.kids.get(node) || { rows: [], total: r.total, parent: r.parent };
    k.rows.push(...r.rows);
    this.kids.set(node, k);
    return k;
  }

  async kidsOf(node) { return this.kids.get(node) || this.page(node, 0); }

  async more(m) {
    await this.page(m.parent, m.offset);
    this.onChange();
  }

  toggle(node) {
    const k = String(node), open = this.state.open;
    if (open.has(k)) open.delete(k); else open.add(k);
    this.onChange();
  }

  // The open rows in order, depth first through the open nodes (the root first).
  async rows() {
    const top = await this.kidsOf(0);
    if (!top) return null;
    const out = [{ row: top.parent, depth: 0 }];
    const walk = async (k, node, depth) => {
      if (!k) return;
      for (const row of k.rows) {
        out.push({ row, depth });
        if (row.children && this.state.open.has(String(row.node))) await walk(await this.kidsOf(row.node), row.node, depth + 1);
      }
      if (k.rows.length < k.total) out.push({ more: { parent: node, offset: k.rows.length, total: k.total }, depth });
    };
    await walk(top, 0, 1);
    return out;
  }

  async render() {
    const gen = this.gen, rows = await this.rows();
    if (!rows || gen !== this.gen) return;
    this.visible = rows;
    this.profiled = this.state.view !== 'bottom-up' && rows[0].row.mean !== undefined; // functions: no per-profile figures
    this.header();
    this.table.tBodies[0].replaceChildren(...rows.map((v, i) => this.tr(v, i)));
  }

  header() {
    const s = this.state, th = (text, cls, title, sort, flavour) => {
      const h = document.createElement('th');
      h.textContent = text;
      if (cls) h.className = cls;
      if (title) h.title = title;
      if (sort) {
        h.dataset.sort = sort;
        h.dataset.flavour = flavour;
        if (s.sort === sort && s.flavour === flavour) h.classList.add('sorted', 'desc');
      }
      return h;
    };
    const groups = [th('', 'name'), th('Inclusive', 'group'), th('Exclusive', 'group')];
    groups[1].colSpan = groups[2].colSpan = 4;
    const labels = [th('Name', 'name')];
    for (const f of ['inclusive', 'exclusive'])
      labels.push(th('A', 'num', `${f}, run A`), th('B', 'num', `${f}, run B`),
        th('Δ', 'num', `B − A, ${f} (click: sort by its size)`, 'delta', f), th('ratio', 'num', `B / A, ${f} (click: sort)`, 'ratio', f));
    if (this.profiled) {
      groups.push(th('Per profile', 'group'));
      groups[3].colSpan = 6;
      labels.push(th('A mean', 'num'), th('B mean', 'num'), th('A max', 'num'), th('B max', 'num'),
        th('imb A', 'num', 'max / mean − 1 over A\'s profiles'), th('imb B', 'num', 'max / mean − 1 over B\'s profiles'));
    }
    const [g, l] = [document.createElement('tr'), document.createElement('tr')];
    g.append(...groups);
    l.append(...labels);
    this.table.tHead.replaceChildren(g, l);
  }

  tr(v, i) {
    const [tr, name] = rowStart(v, i);
    if (v.more) {
      tr.className = 'more';
      name.colSpan = 9 + (this.profiled ? 6 : 0);
      name.textContent = `… ${v.more.total - v.more.offset} more`;
      return tr;
    }
    const r = v.row, sec = this.seconds;
    tr.dataset.node = r.node;
    if (String(r.node) === this.state.sel) tr.classList.add('selected');
    const twisty = document.createElement('span');
    twisty.className = 'twisty';
    twisty.textContent = r.children ? (this.state.open.has(String(r.node)) || v.depth === 0 ? '▾' : '▸') : ' ';
    name.title = r.name; // a long path is cut short in the cell
    name.append(twisty);
    if (r.only) { // before the name: a long path does not hide it
      tr.classList.add(`only-${r.only.toLowerCase()}`);
      const tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = `only in ${r.only}`;
      name.append(tag);
    }
    name.append(r.name);
    const td = (text, cls) => { const c = document.createElement('td'); c.className = `num ${cls || ''}`; c.textContent = text; return c; };
    for (const d of [r.inc, r.exc])
      tr.append(td(value(d[0], sec)), td(value(d[1], sec)), td(signed(d[2], sec), change(d[2])), td(ratioText(d), change(d[2])));
    if (this.profiled)
      tr.append(td(known(r.mean[0], sec)), td(known(r.mean[1], sec)), td(known(r.max[0], sec)), td(known(r.max[1], sec)),
        td(imbalance(r.max[0], r.mean[0])), td(imbalance(r.max[1], r.mean[1])));
    return tr;
  }

  indexOf(node) { return this.visible.findIndex((v) => v.row && String(v.row.node) === String(node)); }

  reset() {
    this.kids.clear();
    this.gen++;
  }
}
