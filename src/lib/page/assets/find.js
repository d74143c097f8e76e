/* SPDX-License-Identifier: BSD-3-Clause */
// Find: every match of a regular expression (not a first page of them), the
// count, and next / previous through them. In the top-down view the matches
// are the server's (/api/search, every page, with the ancestors to open); in
// the bottom-up and flat views, the open rows whose name matches.
import { get } from './api.js';

const PAGE = 10000; // /api/search's largest page

export class Find {
  constructor() { this.clear(); }

  clear() { this.re = null; this.nodes = null; this.total = 0; this.at = -1; }

  // The matches of text; in the top-down view their ancestors are added to open.
  async run(text, view, open) {
    this.clear();
    this.re = new RegExp(text);
    if (view !== 'top-down') return;
    this.nodes = new Set();
    for (let offset = 0, total = 1; offset < total; offset += PAGE) {
      const r = await get('search', { re: text, offset, limit: PAGE, paths: 1 });
      total = r.total;
      for (const h of r.hits) {
        this.nodes.add(String(h.node));
        for (const n of h.path.slice(0, -1)) open.add(String(n)); // the root is always open
      }
      if (!r.hits.length) break;
    }
  }

  // Whether a row is a match (the tree's highlight).
  matches(row) { return this.nodes ? this.nodes.has(String(row.node)) : this.re !== null && this.re.test(row.name); }

  // The indices of the open rows that match (a row not fetched yet is not counted).
  rows(visible) { return visible.flatMap((v, i) => (v.row && this.matches(v.row) ? [i] : [])); }

  // The index of the next (step 1) or previous (-1) match after row `from` (wrapping), or -1.
  step(visible, from, step) {
    const hits = this.rows(visible);
    if (!hits.length) return -1;
    const after = step > 0 ? hits.findIndex((i) => i > from) : hits.findLastIndex((i) => i < from);
    this.at = after >= 0 ? after : step > 0 ? 0 : hits.length - 1;
    return hits[this.at];
  }

  // "3 of 120 matches": the open rows that match (top-down: all of them are open; a match with no
  // value of the metric is not a row, as in hpcdb report, and is counted apart).
  describe(visible, text) {
    const n = this.rows(visible).length, none = this.nodes ? this.nodes.size - n : 0;
    return `${this.at >= 0 ? `${this.at + 1} of ` : ''}${n} matches for /${text}/${none > 0 ? ` (and ${none} with no value)` : ''}`;
  }
}
