/* SPDX-License-Identifier: BSD-3-Clause */
// The page's state, mirrored in the URL's hash so a reloaded or shared link
// shows the same thing (the token stays out of it: it lives in a cookie).
const defaults = { view: 'top-down', metric: '', cols: '', sort: 'inclusive', sortm: '', order: 'desc', flat: '0', sel: '', zoom: '0', open: '', pct: '0', re: '', hide: '', hmode: 'all', profile: '', group: '', by: 'kind', pname: '', theme: '', side: '', derived: '' };
const lists = { open: ',', cols: '\n' }; // held as a Set (open nodes) and an array (metrics shown)

// defs: the page's keys and their defaults (the comparison page has its own).
export function load(defs = defaults) {
  const h = new URLSearchParams(location.hash.slice(1));
  const s = { ...defs };
  for (const k of Object.keys(defs)) if (h.has(k)) s[k] = h.get(k);
  if ('open' in defs) s.open = new Set(s.open ? s.open.split(lists.open) : []);
  if ('cols' in defs) s.cols = s.cols ? s.cols.split(lists.cols) : [];
  return s;
}

export function save(s, defs = defaults) {
  const h = new URLSearchParams();
  for (const k of Object.keys(defs)) {
    const v = lists[k] ? [...s[k]].join(lists[k]) : s[k];
    if (v !== defs[k] && v !== '') h.set(k, v);
  }
  history.replaceState(null, '', `${location.pathname}#${h}`);
}
