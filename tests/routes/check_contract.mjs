/* SPDX-License-Identifier: BSD-3-Clause */
// The route contract (src/view/routes.json) against the three places that
// name routes: the server ("/api/..." in src/view/*.c), the exported page's
// answers (api_static.js) and the pages' calls (get('name') and '/api/...'
// in src/lib/page/assets). Usage: node check_contract.mjs SOURCE_DIR
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const src = process.argv[2];
const contract = JSON.parse(readFileSync(join(src, 'src/view/routes.json'), 'utf8')).routes;
const routes = new Map(contract.map((r) => [r.path, r]));
let failed = 0;
const fail = (msg) => { failed++; console.log(`FAILED: ${msg}`); };
if (routes.size !== contract.length) fail('src/view/routes.json names a route twice');

const files = (dir, re) => readdirSync(dir, { recursive: true }).filter((f) => re.test(f)).map((f) => join(dir, f));
const found = (re, text) => [...text.matchAll(re)].map((m) => m[1]);

// the server: every "/api/name" in src/view (its route tables, and routes server.c answers itself);
// "/api/" and "/api/trace/" are prefixes
const server = new Set();
for (const f of files(join(src, 'src/view'), /\.c$/))
  for (const p of found(/"(\/api\/[\w/]*\w)"/g, readFileSync(f, 'utf8'))) server.add(p);
// the exported page: the keys of api_static.js's `routes` object, and routes it tests by name (route === 'x')
const staticJs = readFileSync(join(src, 'src/lib/page/assets/api_static.js'), 'utf8');
const block = staticJs.slice(staticJs.indexOf('const routes = {'), staticJs.indexOf('\n};', staticJs.indexOf('const routes = {')));
const answered = new Set([...found(/^ {2}'?([\w/]+)'?(?::|\()/gm, block), ...found(/\broute [!=]== '([\w/]+)'/g, staticJs)]
  .map((k) => `/api/${k}`));
// the pages: get('name' or getText('name' (api.js and api_static.js put /api/ in front; not x.get, a Map's or
// URLSearchParams's) and '/api/...' literals
const called = new Set();
for (const f of files(join(src, 'src/lib/page/assets'), /\.js$/)) {
  const text = readFileSync(f, 'utf8');
  for (const k of found(/(?<![.\w])get(?:Text)?\('([a-z][\w/]*)'/g, text)) called.add(`/api/${k}`);
  for (const p of found(/'(\/api\/[\w/]+)'/g, text)) called.add(p);
}

for (const p of server) if (!routes.has(p)) fail(`${p} is served (src/view) but not in src/view/routes.json`);
for (const p of called) if (!routes.has(p)) fail(`${p} is called by a page (src/lib/page/assets) but not in src/view/routes.json`);
for (const p of answered) if (!routes.has(p)) fail(`${p} is answered by api_static.js but not in src/view/routes.json`);
for (const [p, r] of routes) {
  if (!server.has(p)) fail(`${p} is in src/view/routes.json but the server has no such route`);
  if (['answers', 'refuses'].includes(r.static) !== answered.has(p))
    fail(`${p}: src/view/routes.json says static "${r.static}" but api_static.js ${answered.has(p) ? 'answers' : 'does not answer'} it`);
  if (!['answers', 'refuses', 'server'].includes(r.static)) fail(`${p}: static "${r.static}" is not answers, refuses or server`);
}
console.log(`${routes.size} routes: ${server.size} served, ${answered.size} in api_static.js, ${called.size} called by the pages`);
process.exit(failed ? 1 : 0);
