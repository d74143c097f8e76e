/* SPDX-License-Identifier: BSD-3-Clause */
// The link between the timeline and the tree views, which live in two tabs
// of the same viewer: a context selected in one is selected in the other.
// A BroadcastChannel reaches every page of this origin (this server) in the
// browser, and no page of another server.
export function contextLink(from, onSelect) {
  const ch = typeof BroadcastChannel === 'function' ? new BroadcastChannel('hpcdb-context') : null;
  if (ch) ch.onmessage = (e) => { if (e.data && e.data.from !== from && Number.isInteger(e.data.ctx)) onSelect(e.data.ctx); };
  return { send: (ctx) => { if (ch) ch.postMessage({ from, ctx }); } };
}
