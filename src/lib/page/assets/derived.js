/* SPDX-License-Identifier: BSD-3-Clause */
// Derived metrics with a name and a format (hpcviewer's): the formula box
// takes "NAME = FORMULA" (the name is optional), the Format box a printf
// format for its values (%.2f, %.3e, %.3g, with text around it: "%.1f GB/s").
// They live in the state (the URL's `derived`: [[name, formula, format], ...]);
// the server is asked for the formula, the page shows the name.

// "NAME = FORMULA" or "FORMULA" -> {name, expr}; a name holds no formula operator
export function parseDefinition(text) {
  const m = text.match(/^\s*([^=$"()+*/]+?)\s*=\s*(.+)$/);
  return m ? { name: m[1], expr: m[2].trim() } : { name: text.trim(), expr: text.trim() };
}

const FORMAT = /^([^%]*)%(?:\.(\d{1,2}))?([feg])(.*)$/; // text after the number may hold a % sign

export function checkFormat(format) {
  if (format && !FORMAT.test(format)) throw new Error(`format "${format}": expected %.Nf, %.Ne or %.Ng, with text around it`);
  return format;
}

export function formatValue(v, format) {
  const [, before, digits, kind, after] = format.match(FORMAT);
  const n = digits === undefined ? 6 : Number(digits), x = v === 0 ? 0 : v; // never -0
  const text = kind === 'f' ? x.toFixed(n) : kind === 'e' ? x.toExponential(n) : String(Number(x.toPrecision(Math.max(1, n))));
  return `${before}${text}${after}`;
}

export function derivedList(state) {
  try { return state.derived ? JSON.parse(state.derived) : []; } catch (e) { return []; }
}

// The derived metric of that name: [name, formula, format], or undefined.
export const derivedOf = (state, name) => derivedList(state).find((d) => d[0] === name);

// What the server is asked for a metric shown under that name.
export function specOf(state, name) {
  const d = derivedOf(state, name);
  return d ? d[1] : name;
}

// A metric of an answer as the page shows it: under the name asked, with its derived format if any.
export function shownAs(state, metric, name) {
  const d = derivedOf(state, name);
  return { ...metric, name, format: d ? d[2] : '' };
}

export function addDerived(state, name, expr, format) {
  state.derived = JSON.stringify([...derivedList(state).filter((d) => d[0] !== name), [name, expr, format]]);
}
