/* SPDX-License-Identifier: BSD-3-Clause */
// The server's JSON routes (src/view/routes.c), one function per route.
export async function get(route, args) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args || {})) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const r = await fetch(`/api/${route}?${q}`, { credentials: 'same-origin' });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || `${route}: HTTP ${r.status}`);
  return body;
}
