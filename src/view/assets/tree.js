// The tree-table: rows fetched a page at a time (children are paged on the
// server), expanded on demand: the DOM holds the open rows (at most 200 per
// node until "… N more" is clicked), not the whole tree.
import { get } from './api.js';
import { value, percent } from './format.js';

const PAGE = 200;

export class Tree {
  constructor(tbody, state, onSelect) {
    this.tbody = tbody;
    this.state = state;
    this.onSelect = onSelect;
    this.kids = new Map(); // node -> {rows, total}
    this.metric = null;
  }

  async children(node, offset = 0) {
    const s = this.state;
    const r = await get('children', { view: s.view, node, metric: s.metric, sort: s.sort, order: s.order, offset, limit: PAGE, profile: s.profile });
    this.metric = r.metrics[0];
    const have = this.kids.get(node);
    const rows = offset && have ? have.rows.concat(r.rows) : r.rows;
    this.kids.set(node, { rows, total: r.total, parent: r.parent });
    return r;
  }

  // Visible rows in order: depth first through the open nodes.
  async flatten() {
    const root = Number(this.state.zoom) || 0;
    const out = [];
    if (!this.kids.has(root)) await this.children(root);
    const parent = this.kids.get(root).parent;
    out.push({ row: parent, depth: 0 });
    const { hide, lift } = this.filters();
    const walk = async (node, depth) => {
      if (!this.kids.has(node)) await this.children(node);
      const k = this.kids.get(node);
      for (const row of k.rows) {
        if (hide && hide.test(row.name)) continue; // hidden with its subtree
        if (lift && lift.test(row.name)) { // hidden, its children shown in its place
          if (row.children) await walk(row.node, depth);
          continue;
        }
        out.push({ row, depth });
        if (row.children && this.state.open.has(String(row.node))) await walk(row.node, depth + 1);
      }
      if (k.rows.length < k.total) out.push({ more: node, depth, left: k.total - k.rows.length });
    };
    await walk(root, 1);
    return out;
  }

  async render(highlight) {
    const rows = await this.flatten();
    this.visible = rows;
    const total = this.metric ? this.metric.total : 0, sec = this.metric ? this.metric.seconds : 0;
    const pct = this.state.pct === '1';
    const frag = document.createDocumentFragment();
    for (const item of rows) {
      const tr = document.createElement('tr');
      if (item.more !== undefined) {
        tr.className = 'more';
        tr.innerHTML = `<td colspan="3"></td>`;
        tr.firstChild.textContent = `${' '.repeat(item.depth * 2)}… ${item.left} more`;
        tr.firstChild.style.paddingLeft = `${item.depth * 1.2}em`;
        tr.addEventListener('click', async () => { await this.children(item.more, this.kids.get(item.more).rows.length); this.render(highlight); });
        frag.appendChild(tr);
        continue;
      }
      const r = item.row, [inc, exc] = r.values[0];
      tr.dataset.node = r.node;
      if (String(r.node) === this.state.sel) tr.classList.add('selected');
      if (highlight && highlight.test(r.name)) tr.classList.add('hit');
      const name = document.createElement('td');
      name.className = 'name';
      name.style.paddingLeft = `${item.depth * 1.2}em`;
      const open = this.state.open.has(String(r.node));
      const twisty = document.createElement('span');
      twisty.className = 'twisty';
      twisty.textContent = r.children ? (open || item.depth === 0 ? '▾' : '▸') : ' ';
      name.append(twisty, document.createTextNode(r.name));
      const a = document.createElement('td'), b = document.createElement('td');
      a.className = b.className = 'num';
      a.textContent = pct ? percent(inc, total) : value(inc, sec);
      b.textContent = pct ? percent(exc, total) : value(exc, sec);
      tr.append(name, a, b);
      tr.addEventListener('click', (ev) => {
        if (ev.target === twisty && item.depth > 0) this.toggle(r.node);
        else this.onSelect(r);
      });
      tr.addEventListener('dblclick', () => this.toggle(r.node));
      frag.appendChild(tr);
    }
    this.tbody.replaceChildren(frag);
  }

  // Name filters (hpcviewer's elision modes): regular expressions from the state; a bad one filters nothing.
  filters() {
    const make = (text) => { try { return text ? new RegExp(text) : null; } catch (e) { return null; } };
    return { hide: make(this.state.hide), lift: make(this.state.lift) };
  }

  toggle(node) {
    const k = String(node);
    if (this.state.open.has(k)) this.state.open.delete(k); else this.state.open.add(k);
    this.onChange();
  }

  reset() { this.kids.clear(); }
}
