/* SPDX-License-Identifier: BSD-3-Clause */
// Flatten in the flat view (hpcviewer's): the top rows replaced by their
// children, `level` times (a row without children stays where it is), all
// sorted as the server sorts one node's children. Every child is fetched.
import { sortIndex } from './columns.js';

const BIG = 10000; // /api/children's largest page

async function all(tree, node) {
  let k = await tree.kidsOf(node);
  for (let off = 0; k && off < k.total; off += BIG)
    if (k.rows.slice(off, off + BIG).includes(undefined)) k = await tree.page(node, off, BIG);
  return k;
}

export async function flattened(tree, root, level) {
  const s = tree.state, top = await all(tree, root);
  if (!top) return null;
  let rows = top.rows;
  for (let l = 0; l < level; l++) {
    const next = [];
    for (const r of rows) {
      if (!r.children) { next.push(r); continue; }
      const k = await all(tree, r.node);
      if (!k) return null;
      for (const c of k.rows) next.push(c);
    }
    rows = next;
  }
  const c = sortIndex(s), f = s.sort === 'exclusive' ? 1 : 0, sign = s.order === 'asc' ? 1 : -1;
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0); // report's ties
  rows.sort((a, b) => sign * (a.values[c][f] - b.values[c][f]) || byName(a, b));
  return { rows, total: rows.length, parent: top.parent };
}
