/* SPDX-License-Identifier: BSD-3-Clause */
// The picture saved as a file: a scene (rectangles and texts in CSS pixels)
// written as SVG, or drawn on a canvas for a PNG.

const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]);

// tile: decoded cells; rgbOf(i): the colour of cell i, or null for an empty one; box: where the tile
// goes ({ x, y, w, h }). Horizontal runs of one colour are one rectangle.
export function tileRects(tile, rgbOf, box) {
  const out = [], sx = box.w / tile.w, sy = box.h / tile.h;
  for (let r = 0; r < tile.h; r++) {
    for (let x = 0; x < tile.w;) {
      const rgb = rgbOf(r * tile.w + x);
      let len = 1;
      while (x + len < tile.w && same(rgbOf(r * tile.w + x + len), rgb)) len++;
      if (rgb) out.push({ x: box.x + x * sx, y: box.y + r * sy, w: len * sx, h: sy, fill: `rgb(${rgb.join(',')})` });
      x += len;
    }
  }
  return out;
}
const same = (a, b) => a === b || (a && b && a[0] === b[0] && a[1] === b[1] && a[2] === b[2]);

export function svg(scene) {
  const num = (v) => Math.round(v * 100) / 100;
  const rects = scene.rects.map((r) => `<rect x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}" fill="${r.fill}"/>`);
  const texts = scene.texts.map((t) => `<text x="${num(t.x)}" y="${num(t.y)}"${t.anchor ? ` text-anchor="${t.anchor}"` : ''}>${esc(t.text)}</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.w}" height="${scene.h}" viewBox="0 0 ${scene.w} ${scene.h}" ` +
    `font-family="sans-serif" font-size="11" shape-rendering="crispEdges">\n<rect width="100%" height="100%" fill="#fff"/>\n` +
    `${rects.join('\n')}\n${texts.join('\n')}\n</svg>\n`;
}

export function draw(scene, canvas) {
  canvas.width = scene.w; canvas.height = scene.h;
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, scene.w, scene.h);
  for (const r of scene.rects) { g.fillStyle = r.fill; g.fillRect(r.x, r.y, r.w, r.h); }
  g.fillStyle = '#000'; g.font = '11px sans-serif';
  for (const t of scene.texts) { g.textAlign = t.anchor === 'end' ? 'right' : t.anchor === 'middle' ? 'center' : 'left'; g.fillText(t.text, t.x, t.y); }
}

export function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob); a.download = name;
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
