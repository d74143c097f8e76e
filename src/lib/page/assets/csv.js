/* SPDX-License-Identifier: BSD-3-Clause */
// The CSV button: every row of the view (from the zoomed node down), as the
// server writes it (/api/csv: hpcdb report --csv's columns), in the page's
// metrics and sort, whatever rows the page has loaded.
import { getText } from './api.js';
import { shown, sortIndex } from './columns.js';
import { specOf } from './derived.js';

export async function downloadCsv(state) {
  const metrics = shown(state).map((c) => specOf(state, c)).join('\n');
  const text = await getText('csv', { view: state.view, node: state.zoom, metrics, sort: state.sort,
    order: state.order, sort_col: sortIndex(state), profile: state.profile, group: state.group });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  a.download = `hpcdb-${state.view}.csv`;
  a.click();
  return text.split('\n').length - 2; // rows, without the header
}
