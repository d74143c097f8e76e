/* SPDX-License-Identifier: BSD-3-Clause */
// The trace page's pure logic under Node: undo/redo, row labels at any
// height, kept colours, the picture as SVG. Usage: node page_logic.mjs ASSETS_DIR
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

const dir = pathToFileURL(process.argv[2] + '/').href;
const { History } = await import(dir + 'history.js');
const { rowLabels, levels } = await import(dir + 'labels.js');
const { Palette, hueOf } = await import(dir + 'palette.js');
const { tileRects, svg } = await import(dir + 'picture.js');
const { depthsOf } = await import(dir + 'depths.js');
let n = 0;
const test = (what, fn) => { fn(); n++; console.log('ok   ' + what); };

test('undo and redo walk back and forth; a new step forgets the redo', () => {
  const h = new History();
  h.push('a'); h.push('b');
  assert.equal(h.undo('c'), 'b');
  assert.equal(h.undo('b'), 'a');
  assert.equal(h.undo('a'), null);
  assert.equal(h.redo('a'), 'b');
  assert.equal(h.redo('b'), 'c');
  assert.equal(h.canRedo, false);
  h.undo('c'); h.push('x');
  assert.equal(h.canRedo, false);
});

const ids = [];
for (let node = 0; node < 2; node++) for (let rank = 0; rank < 4; rank++) for (let t = 0; t < 8; t++) ids.push(`NODE ${node} RANK ${node * 4 + rank} THREAD ${t}`);
test('identities split into levels', () => assert.deepEqual(levels('NODE 0 RANK 3 THREAD 1'), ['NODE 0', 'RANK 3', 'THREAD 1']));
test('rows tall enough for text: one label each', () => {
  const l = rowLabels(ids, 12, 12);
  assert.equal(l.length, 64);
  assert.deepEqual(l[9], { text: 'NODE 0 RANK 1 THREAD 1', first: 9, count: 1 });
});
test('thinner rows: grouped by rank when a rank has room', () => {
  const l = rowLabels(ids, 2, 12); // 8 threads × 2 px = 16 px a rank
  assert.equal(l.length, 8);
  assert.deepEqual(l[5], { text: 'NODE 1 RANK 5', first: 40, count: 8 });
});
test('thinner still: grouped by node', () => {
  const l = rowLabels(ids, 1, 12); // a rank 8 px, a node 32 px
  assert.deepEqual(l, [{ text: 'NODE 0', first: 0, count: 32 }, { text: 'NODE 1', first: 32, count: 32 }]);
});
test('even the first level too thin: labels a line apart, none overlapping', () => {
  const many = Array.from({ length: 1024 }, (_, r) => `RANK ${r}`), l = rowLabels(many, 0.5, 12);
  assert.equal(l[0].text, 'RANK 0');
  assert.equal(l[1].text, 'RANK 24');
  for (let i = 1; i < l.length; i++) assert.ok((l[i].first - l[i - 1].first) * 0.5 >= 12);
});
test('a short last group does not push every label up a level; its label is left out where it has no room', () => {
  const l = rowLabels(ids.slice(0, 60), 2, 12); // the last rank has 4 rows (8 px)
  assert.equal(l.length, 8);
  assert.deepEqual(l[7], { text: 'NODE 1 RANK 7', first: 56, count: 4 });
  const thin = rowLabels(ids.slice(0, 60), 1.4, 12); // a rank 11.2 px: no room for most, so the nodes
  assert.deepEqual(thin.map((g) => g.text), ['NODE 0', 'NODE 1']);
});

test('a chosen colour is kept by the context\'s name and read back', () => {
  const store = new Map(), ls = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const names = ['<root>', 'main', 'MPI_Send', 'main'];
  new Palette((c) => names[c], ls).choose(2, '#102030');
  const again = new Palette((c) => names[c], ls);
  assert.deepEqual(again.rgb(2), [16, 32, 48]);
  assert.deepEqual(again.rgb(1), hueOf(1));
  again.choose(1, '#ff0000');
  assert.deepEqual(again.rgb(3), [255, 0, 0]); // every context of that name
  ls.setItem('hpcdb-trace-colours', '{"main": "url(javascript:1)"}');
  assert.deepEqual(new Palette((c) => names[c], ls).rgb(1), hueOf(1)); // not a colour: ignored
  ls.setItem('hpcdb-trace-colours', 'not json');
  assert.deepEqual(new Palette((c) => names[c], ls).rgb(1), hueOf(1));
});

test('the picture: one rectangle per run of a colour, empty cells none, names escaped', () => {
  const tile = { w: 4, h: 2 }, colours = [[1, 2, 3], [1, 2, 3], null, [9, 9, 9], [5, 5, 5], [5, 5, 5], [5, 5, 5], [5, 5, 5]];
  const rects = tileRects(tile, (i) => colours[i], { x: 10, y: 20, w: 8, h: 10 });
  assert.deepEqual(rects, [{ x: 10, y: 20, w: 4, h: 5, fill: 'rgb(1,2,3)' }, { x: 16, y: 20, w: 2, h: 5, fill: 'rgb(9,9,9)' },
    { x: 10, y: 25, w: 8, h: 5, fill: 'rgb(5,5,5)' }]);
  const text = svg({ w: 20, h: 30, rects, texts: [{ x: 1, y: 2, text: 'a<b & "c"', anchor: 'end' }] });
  assert.match(text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="20" height="30"/);
  assert.equal((text.match(/<rect /g) || []).length, 4); // the white background and three runs
  assert.match(text, /<text x="1" y="2" text-anchor="end">a&lt;b &amp; &quot;c&quot;<\/text>/);
});
test('depths in scopes and in procedure frames: a loop and a line at their procedure\'s', () => {
  const contexts = [[-1, '<root>', 0], [0, '<main thread>', 1], [1, 'main', 1], [2, 'loop at a.c:3', 0], [3, 'a.c:4', 0], [4, 'MPI_Send', 1]];
  assert.deepEqual(depthsOf(contexts), [[0, 0, 1, 2, 3, 4], [0, 0, 1, 1, 1, 2]]);
});
console.log(`${n} tests passed`);
