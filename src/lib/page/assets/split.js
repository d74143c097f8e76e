/* SPDX-License-Identifier: BSD-3-Clause */
// The divider between the table and the side panes: dragged, it gives the
// panes the width left of the pointer's travel (kept in the state: `side`).
export function splitter(bar, aside, state, save) {
  const set = (px) => { aside.style.flex = `0 0 ${px}px`; };
  if (Number(state.side) > 0) set(Number(state.side));
  bar.addEventListener('pointerdown', (ev) => {
    ev.preventDefault();
    bar.setPointerCapture(ev.pointerId);
    const x0 = ev.clientX, w0 = aside.getBoundingClientRect().width, max = bar.parentElement.clientWidth - 200;
    const move = (e) => set(Math.max(120, Math.min(max, Math.round(w0 - (e.clientX - x0)))));
    bar.addEventListener('pointermove', move);
    bar.addEventListener('pointerup', () => {
      bar.removeEventListener('pointermove', move);
      state.side = String(Math.round(aside.getBoundingClientRect().width));
      save(state);
    }, { once: true });
  });
}
