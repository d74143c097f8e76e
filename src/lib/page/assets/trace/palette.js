/* SPDX-License-Identifier: BSD-3-Clause */
// The colour of each context: a hue of its own, or the one a person chose.
// A choice is kept by the context's name in the browser's localStorage (as
// hpcviewer keeps its procedure colours in its preferences): it applies to
// every database and every window of this viewer, and the URL stays short.
export const EMPTY = 0xffffffff, GREY = 0xfffffffe;
const KEY = 'hpcdb-trace-colours';

export function hueOf(c) {
  if (c === 0) return [232, 232, 232];
  if (c === GREY) return [176, 176, 176];
  const h = (c * 137.508) % 360, s = 0.6, l = 0.52;
  const f = (n) => { const k = (n + h / 30) % 12; return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1)); };
  return [f(0) * 255, f(8) * 255, f(4) * 255].map(Math.round);
}

export const hex = (rgb) => '#' + rgb.map((v) => v.toString(16).padStart(2, '0')).join('');

export class Palette {
  // nameOf(c): the context's name; store: localStorage or an object with its getItem and setItem
  constructor(nameOf, store) {
    this.nameOf = nameOf; this.store = store;
    try { this.chosen = JSON.parse(store.getItem(KEY) || '{}'); } catch (e) { this.chosen = {}; }
    if (typeof this.chosen !== 'object' || this.chosen === null) this.chosen = {};
    this.known = new Map(); // context -> its colour, worked out once: a tile asks it for each of ~10^6 cells
  }
  rgb(c) {
    let rgb = this.known.get(c);
    if (rgb) return rgb;
    const mine = c !== EMPTY && c !== GREY ? this.chosen[this.nameOf(c)] : undefined;
    if (typeof mine === 'string' && /^#[0-9a-f]{6}$/i.test(mine)) rgb = [1, 3, 5].map((i) => parseInt(mine.slice(i, i + 2), 16));
    else rgb = hueOf(c);
    this.known.set(c, rgb);
    return rgb;
  }
  choose(c, colour) {
    this.known.clear();
    this.chosen[this.nameOf(c)] = colour;
    this.store.setItem(KEY, JSON.stringify(this.chosen));
  }
}
