/* SPDX-License-Identifier: BSD-3-Clause */
// The tree-table's column widths: fixed (the virtualised rows do not move
// them as they scroll by), each resizable by dragging its header's right
// edge; a width given stays for that column (metric and flavour) until the
// page is reloaded. The name column takes what the others leave.
const widths = new Map(); // 'name', or 'metric\ninclusive' -> px
const NAME = 300, VALUE = 110, WITH_PCT = 185, MIN = 40;

export function sizeColumns(table, metrics, pct) {
  const keys = ['name', ...metrics.flatMap((m) => [`${m.name}\ninclusive`, `${m.name}\nexclusive`])];
  let group = table.querySelector('colgroup');
  if (!group) table.prepend(group = document.createElement('colgroup'));
  group.replaceChildren(...keys.map(() => document.createElement('col')));
  const width = (k) => widths.get(k) || (k === 'name' ? NAME : pct ? WITH_PCT : VALUE);
  const apply = () => {
    keys.forEach((k, i) => { group.children[i].style.width = i === 0 && !widths.has(k) ? '' : `${width(k)}px`; });
    table.style.minWidth = `${keys.reduce((sum, k) => sum + width(k), 0)}px`;
  };
  apply();
  [...table.tHead.rows[0].cells].forEach((th, i) => {
    const grip = document.createElement('span');
    grip.className = 'grip';
    grip.title = 'drag: resize the column';
    grip.addEventListener('click', (ev) => ev.stopPropagation()); // not a sort
    grip.addEventListener('pointerdown', (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      grip.setPointerCapture(ev.pointerId);
      const x0 = ev.clientX, w0 = th.getBoundingClientRect().width;
      const move = (e) => { widths.set(keys[i], Math.max(MIN, Math.round(w0 + e.clientX - x0))); apply(); };
      grip.addEventListener('pointermove', move);
      grip.addEventListener('pointerup', () => grip.removeEventListener('pointermove', move), { once: true });
    });
    th.append(grip);
  });
}
