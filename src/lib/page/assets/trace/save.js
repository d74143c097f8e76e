/* SPDX-License-Identifier: BSD-3-Clause */
// The timeline as the page shows it, with its row labels, its time axis and
// a line saying what it shows, saved as an SVG drawing or a PNG image.
import { scaleText } from './tile.js';
import { tileRects, svg, draw, download } from './picture.js';

export function savePicture(v, kind) {
  if (!v.tile) return;
  const groups = v.groups(), n = v.rowCount();
  const L = 12 + Math.ceil(6.5 * Math.max(0, ...groups.map((g) => g.text.length))), T = 18, W = v.canvas.clientWidth, H = v.canvas.clientHeight;
  const texts = [{ x: 4, y: 12, text: `${n < v.selCount() ? `profiles ${v.r0 + 1}–${v.r1}` : `${n} profiles`}, depth ${v.depthSel.value} · ${scaleText(v.tile.scale, n)}` }];
  for (const g of groups) texts.push({ x: L - 4, y: T + (g.first + g.count / 2) / n * H + 4, text: g.text, anchor: 'end' });
  for (const [f, text] of v.axisTicks()) texts.push({ x: L + f * W, y: T + H + 14, text, anchor: f === 0 ? 'start' : f === 1 ? 'end' : 'middle' });
  const scene = { w: L + W, h: T + H + 20, rects: tileRects(v.tile, (i) => v.cellRgb(v.tile, i), { x: L, y: T, w: W, h: H }), texts };
  if (kind === 'svg') return download('trace.svg', new Blob([svg(scene)], { type: 'image/svg+xml' }));
  const c = document.createElement('canvas');
  draw(scene, c);
  c.toBlob((b) => download('trace.png', b), 'image/png');
}
