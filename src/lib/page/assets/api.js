/* SPDX-License-Identifier: BSD-3-Clause */
// The server's JSON routes (src/view/routes.c), one function per route.

// A link with access carries the token in its fragment (#token=…, never sent in a path, so never in
// a log): it goes to the server in a header, which answers with the cookie, and leaves the address bar.
const fragment = new URLSearchParams(location.hash.slice(1)), token = fragment.get('token');
if (token) {
  fragment.delete('token');
  history.replaceState(null, '', `${location.pathname}${location.search}#${fragment}`);
}

const ask = (route, args) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args || {})) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  return fetch(`/api/${route}?${q}`, { credentials: 'same-origin', headers: token ? { 'X-Hpcdb-Token': token } : {} });
};

export async function get(route, args) {
  const r = await ask(route, args);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || `${route}: HTTP ${r.status}`);
  return body;
}

// A route answering text (the CSV of a view): the text, or the route's JSON error thrown.
export async function getText(route, args) {
  const r = await ask(route, args);
  if (!r.ok) throw new Error((await r.json()).error || `${route}: HTTP ${r.status}`);
  return r.text();
}
