/* SPDX-License-Identifier: BSD-3-Clause */
// The metric columns: a header pair (inclusive, exclusive) per metric shown,
// a row's cells (absolute, or % of the metric's total), and the chooser of
// the metrics shown besides the selected one.
import { value, percent } from './format.js';

export const MAX_COLUMNS = 8; // what /api/children takes at once

// The metrics to ask for: the selected one first, then the others shown.
export function shown(state) {
  return [state.metric, ...state.cols.filter((m) => m && m !== state.metric)].slice(0, MAX_COLUMNS);
}

export function header(tr, metrics, state) {
  const sortName = state.sortm || state.metric;
  const ths = [document.createElement('th')];
  ths[0].className = 'name';
  ths[0].textContent = 'Name';
  metrics.forEach((m, i) => {
    for (const flavour of ['inclusive', 'exclusive']) {
      const th = document.createElement('th');
      th.className = 'num';
      th.dataset.sort = flavour;
      th.dataset.m = i;
      th.title = `${m.name}, ${flavour} (click: sort)`;
      if (m.name === sortName && state.sort === flavour) th.classList.add('sorted', state.order);
      const label = document.createElement('span');
      label.className = 'mname';
      label.textContent = metrics.length > 1 ? m.name : '';
      th.append(label, flavour === 'inclusive' ? 'Inclusive' : 'Exclusive');
      ths.push(th);
    }
  });
  tr.replaceChildren(...ths);
}

export function cells(values, metrics, pct) {
  const out = [];
  metrics.forEach((m, i) => {
    for (const v of values[i]) {
      const td = document.createElement('td');
      td.className = 'num';
      td.textContent = pct ? percent(v, m.total) : value(v, m.seconds);
      out.push(td);
    }
  });
  return out;
}

// One checkbox per metric; the selected metric is always shown.
export function chooser(el, names, state, onChange) {
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
    el.append(label);
  }
  limit();
}
