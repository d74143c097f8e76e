/* SPDX-License-Identifier: BSD-3-Clause */
// The metric columns: a header pair (inclusive, exclusive) per metric shown,
// in the order the person dragged them to; a row's cells (the value, and its
// % of the metric's total beside it); and the chooser of the metrics shown.
import { value, percent } from './format.js';
import { sizeColumns } from './colsize.js';
import { formatValue } from './derived.js';

export const MAX_COLUMNS = 64; // what /api/children takes at once

// The metrics to ask for, in the order shown: state.cols's order, the selected one first unless it was moved.
export function shown(state) {
  const list = state.cols.filter(Boolean);
  return [...new Set(list.includes(state.metric) ? list : [state.metric, ...list])].slice(0, MAX_COLUMNS);
}

// The index among them of the column sorted by.
export const sortIndex = (state) => Math.max(0, shown(state).indexOf(state.sortm || state.metric));

// onMove(order): a metric's headers dropped on another's: the metrics shown in their new order.
export function header(table, metrics, state, onMove) {
  const tr = table.tHead.rows[0], sortName = state.sortm || state.metric;
  const ths = [document.createElement('th')];
  ths[0].className = 'name';
  ths[0].textContent = 'Name';
  metrics.forEach((m, i) => {
    for (const flavour of ['inclusive', 'exclusive']) {
      const th = document.createElement('th');
      th.className = 'num';
      th.dataset.sort = flavour;
      th.dataset.m = i;
      th.draggable = true;
      th.title = `${m.name}, ${flavour} (click: sort; drag: move the metric)`;
      if (m.name === sortName && state.sort === flavour) th.classList.add('sorted', state.order);
      const label = document.createElement('span');
      label.className = 'mname';
      label.textContent = metrics.length > 1 ? m.name : '';
      th.append(label, flavour === 'inclusive' ? 'Inclusive' : 'Exclusive');
      th.addEventListener('dragstart', (ev) => ev.dataTransfer.setData('text/x-hpcdb-metric', String(i)));
      th.addEventListener('dragover', (ev) => ev.preventDefault());
      th.addEventListener('drop', (ev) => {
        ev.preventDefault();
        const from = Number(ev.dataTransfer.getData('text/x-hpcdb-metric'));
        if (Number.isNaN(from) || from === i) return;
        const names = metrics.map((x) => x.name), [moved] = names.splice(from, 1);
        names.splice(i, 0, moved);
        onMove(names);
      });
      ths.push(th);
    }
  });
  tr.replaceChildren(...ths);
  sizeColumns(table, metrics, state.pct === '1');
}

export function cells(values, metrics, pct) {
  const out = [];
  metrics.forEach((m, i) => {
    for (const v of values[i]) {
      const td = document.createElement('td');
      td.className = 'num';
      td.textContent = m.format ? formatValue(v, m.format) : value(v, m.seconds);
      if (pct) { // beside the value, not in its place
        const p = document.createElement('span');
        p.className = 'pct';
        p.textContent = percent(v, m.total);
        td.append(p);
      }
      out.push(td);
    }
  });
  return out;
}

// One checkbox per metric (its description on hover); the selected metric is always shown.
export function chooser(el, names, state, onChange, titles = new Map()) {
  el.replaceChildren();
  const limit = () => { // at most MAX_COLUMNS shown
    for (const b of el.querySelectorAll('input'))
      b.disabled = b.value === state.metric || (!b.checked && shown(state).length >= MAX_COLUMNS);
  };
  for (const name of names) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = name;
    box.checked = name === state.metric || state.cols.includes(name);
    box.addEventListener('change', () => {
      state.cols = box.checked ? [...state.cols, name] : state.cols.filter((m) => m !== name);
      limit();
      onChange();
    });
    label.append(box, name);
    if (titles.has(name)) label.title = titles.get(name);
    el.append(label);
  }
  limit();
}
