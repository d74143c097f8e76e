/* SPDX-License-Identifier: BSD-3-Clause */
// Which metric of B goes with a metric of A when B has none of that name (an
// HPCToolkit database against a Score-P file: `CPUTIME (sec)` and `time`):
// B's metrics ranked by unit (both times, or both not), then by meaning (one
// name holds the other's word, units left out), then B's default metric first.
const words = (name) => name.toLowerCase().replace(/\(.*?\)/g, ' ').split(/[^a-z0-9]+/).filter(Boolean);

function related(a, b) {
  const wa = words(a), wb = words(b);
  return wa.some((x) => wb.some((y) => x.includes(y) || y.includes(x)));
}

// [{metric, why}] best first: metric an entry of /api/info's metrics of B.
export function suggest(a, bMetrics, bDefault) {
  const scored = bMetrics.filter(Boolean).map((m) => {
    const unit = (a.seconds !== 0) === (m.seconds !== 0), alike = related(a.name, m.name);
    const why = [unit ? (a.seconds ? 'both times' : 'neither a time') : '', alike ? 'names alike' : ''].filter(Boolean).join(', ');
    return { metric: m, why, score: 4 * unit + 2 * alike + (m.name === bDefault ? 1 : 0) };
  });
  return scored.sort((x, y) => y.score - x.score).filter((s) => s.score > 0);
}
