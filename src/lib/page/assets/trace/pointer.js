/* SPDX-License-Identifier: BSD-3-Clause */
// The mouse on a lane of the shared time axis (the timeline, the depth view,
// the summary): a drag pans, a shift-drag selects a region, the wheel zooms
// at the pointer or pans with shift, a click is the lane's own. Every lane
// moves the same window, so the three stay aligned.
export function timeLane(el, view, { click, hover, band }) {
  let down = null;
  el.addEventListener('mousedown', (e) => { down = { x: e.clientX, y: e.clientY, v0: view.v0, v1: view.v1, shift: e.shiftKey }; });
  el.addEventListener('mousemove', (e) => {
    if (!down) { if (hover) hover(e); return; }
    if (down.shift && band) band(down, e);
  });
  el.addEventListener('mouseup', (e) => {
    const rect = el.getBoundingClientRect(), d = down;
    down = null;
    if (!d) return;
    const dx = e.clientX - d.x, dy = e.clientY - d.y, per = (d.v1 - d.v0) / rect.width;
    if (Math.abs(dx) < 3 && Math.abs(dy) < 3) { if (band) band(null); return click && click(e); }
    if (d.shift) { // the region's time, and on the timeline its rows when the drag went down or up
      const a = d.v0 + (Math.min(d.x, e.clientX) - rect.left) * per, b = d.v0 + (Math.max(d.x, e.clientX) - rect.left) * per;
      const y0 = (Math.min(d.y, e.clientY) - rect.top) / rect.height, y1 = (Math.max(d.y, e.clientY) - rect.top) / rect.height;
      view.zoomTo(a, b, band && Math.abs(dy) >= 8 ? [y0, y1] : null);
    } else view.moveTo(d.v0 - dx * per, d.v1 - dx * per);
  });
  el.addEventListener('wheel', (e) => {
    e.preventDefault();
    const rect = el.getBoundingClientRect();
    const at = view.v0 + (e.clientX - rect.left) / rect.width * (view.v1 - view.v0);
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) view.panBy((e.deltaX || e.deltaY) / rect.width, true);
    else view.zoomBy(e.deltaY > 0 ? 1.25 : 0.8, at, true);
  });
}
