/* SPDX-License-Identifier: BSD-3-Clause */
// The Metric list as the database describes it (/api/info: metrics/default.yaml's
// order, descriptions and groups): a run of metrics of one group under its
// heading, each metric's description on hover.
export function fillMetrics(sel, metrics) {
  let at = sel, group = null;
  for (const m of metrics) {
    if (!m) continue;
    if ((m.group || null) !== group) {
      group = m.group || null;
      at = group ? sel.appendChild(Object.assign(document.createElement('optgroup'), { label: group })) : sel;
    }
    const o = new Option(m.name, m.name);
    if (m.description && m.description !== m.name) o.title = m.description;
    at.append(o);
  }
}

// name -> description, for the Columns chooser
export const descriptions = (metrics) => new Map(metrics.filter((m) => m && m.description).map((m) => [m.name, m.description]));
