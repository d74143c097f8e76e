/* SPDX-License-Identifier: BSD-3-Clause */
// Row labels at any height: each row's identity when a row has room for a
// line of text, else the rows grouped by the leading levels of their
// identity (node, then rank, then thread) that leave most groups room; where
// groups are thinner still, every group whose label has room.

// "NODE 1 RANK 3 THREAD 0" → ['NODE 1', 'RANK 3', 'THREAD 0']
export function levels(id) {
  const words = id.split(' '), out = [];
  for (let i = 0; i < words.length; i += 2) out.push(words.slice(i, i + 2).join(' '));
  return out;
}

// ids: the shown rows' identities, top first; px: the height of one row; line: the height of a label.
// Returns [{ text, first, count }]: a label for rows [first, first + count), centres a line apart.
export function rowLabels(ids, px, line) {
  if (px >= line) return ids.map((text, first) => ({ text, first, count: 1 }));
  const split = ids.map(levels), deepest = Math.max(1, ...split.map((l) => l.length));
  let groups = groupBy(split, 1);
  for (let k = deepest - 1; k > 1; k--) { // the deepest level at which most groups have room for their label
    const g = groupBy(split, k);
    if (g.filter((x) => x.count * px >= line).length * 2 >= g.length) { groups = g; break; }
  }
  const out = []; // then the labels that fit, one a line below the other
  let free = -Infinity;
  for (const g of groups) {
    const mid = (g.first + g.count / 2) * px;
    if (mid < free) continue;
    out.push(g);
    free = mid + line;
  }
  return out;
}

// consecutive rows whose first k levels are equal
function groupBy(split, k) {
  const out = [];
  split.forEach((l, i) => {
    const text = l.slice(0, k).join(' '), last = out[out.length - 1];
    if (last && last.text === text && last.first + last.count === i) last.count++;
    else out.push({ text, first: i, count: 1 });
  });
  return out;
}
