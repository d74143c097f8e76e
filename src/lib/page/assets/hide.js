/* SPDX-License-Identifier: BSD-3-Clause */
// Hide, as hpcviewer's filters (its "exclusive" filter): the cost of what is
// hidden moves to the exclusive value of the nearest row shown above it, so
// the inclusive values stay and nothing is lost. Three modes:
//   all       the matching node and its descendants (its inclusive moves up)
//   self      the matching node only: its children take its place (its exclusive moves up)
//   children  the matching node's descendants: the node stays, its exclusive its inclusive
export const HIDE_MODES = { all: 'self and descendants', self: 'self only', children: 'descendants only' };

// The filter from the page's state, or null (none, or a malformed expression).
export function hideFilter(state) {
  if (!state.hide) return null;
  try { return { re: new RegExp(state.hide), mode: HIDE_MODES[state.hmode] ? state.hmode : 'all' }; } catch (e) { return null; }
}

// Adds a hidden row's cost (flavour 0: inclusive, 1: exclusive), metric by metric, to the
// exclusive value of the open-rows entry shown above it (its row copied first: the fetched one stays).
export function moveCost(entry, row, flavour) {
  if (!entry.own) { entry.row = { ...entry.row, values: entry.row.values.map((v) => [...v]) }; entry.own = true; }
  entry.row.values.forEach((v, m) => { v[1] += row.values[m][flavour]; });
}

// A row whose descendants are hidden: no children, its whole cost its own.
export function withoutChildren(row) {
  return { ...row, children: 0, values: row.values.map(([inc]) => [inc, inc]) };
}
