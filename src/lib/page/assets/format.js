/* SPDX-License-Identifier: BSD-3-Clause */
// Numbers as hpcdb report prints them: times with their unit, others with an SI prefix.
export function value(v, seconds) { return unsignZero(magnitude(v, seconds)); }

// "-0.000 us": a value that rounds to zero is shown without a sign.
function unsignZero(text) { return /^-[0.]+(?![0-9.])/.test(text) ? text.slice(1) : text; }

function magnitude(v, seconds) {
  if (v === 0) return '0';
  if (seconds) {
    const s = v * seconds, a = Math.abs(s);
    if (a >= 100) return `${s.toFixed(1)} s`;
    if (a >= 1) return `${s.toFixed(3)} s`;
    if (a >= 1e-3) return `${(s * 1e3).toFixed(3)} ms`;
    return `${(s * 1e6).toFixed(3)} us`;
  }
  const suffix = ['', 'k', 'M', 'G', 'T', 'P'];
  let a = Math.abs(v), k = 0;
  while (a >= 1000 && k < 5) { a /= 1000; v /= 1000; k++; }
  if (k === 0 && Number.isInteger(v)) return String(v);
  return `${Number(v.toPrecision(3))}${suffix[k]}`;
}

// A share with the digits it needs: three significant ones (never 0.0% for a share that is not zero).
export function percent(v, total) {
  if (!total || v === 0) return '0%';
  return `${Number((100 * v / total).toPrecision(3))}%`;
}
