/* SPDX-License-Identifier: BSD-3-Clause */
// A formula (docs/query.md's grammar: numbers, $N, names bare or quoted,
// + - * / with precedence, unary minus, parentheses, min max abs sqrt; a
// division by zero or a non-finite result gives 0) compiled to a function of
// a row's input values, for an exported page that has no server to ask.
// column(name) / index(n): the input's column, or an Error's message.
export function compile(text, column, index) {
  let at = 0;
  const fail = (what) => { throw new Error(`formula "${text}": offset ${at}: expected ${what}, found ${at < text.length ? `'${text.slice(at, at + 12)}'` : 'the end'}`); };
  const space = () => { while (text[at] === ' ' || text[at] === '\t') at++; };
  const fns = { min: [2, Math.min], max: [2, Math.max], abs: [1, Math.abs], sqrt: [1, (a) => (a > 0 ? Math.sqrt(a) : 0)] };
  const input = (c) => (x) => x[c];
  function primary() {
    space();
    const c = text[at];
    if (c === '(') { at++; const e = sum(); space(); if (text[at] !== ')') fail("')'"); at++; return e; }
    if (c === '-') { at++; const e = primary(); return (x) => -e(x); }
    if (c === '$') {
      const m = text.slice(at + 1).match(/^\d+/);
      if (!m) { at++; fail("a metric number after '$'"); }
      at += 1 + m[0].length;
      return input(index(Number(m[0])));
    }
    if (c === '"') {
      const end = text.indexOf('"', at + 1);
      if (end < 0) fail("a closing '\"'");
      const name = text.slice(at + 1, end);
      at = end + 1;
      return input(column(name));
    }
    const num = text.slice(at).match(/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?(?![\w.])/);
    if (num) { at += num[0].length; const v = Number(num[0]); return () => v; }
    const id = text.slice(at).match(/^[A-Za-z_][\w.:]*/);
    if (!id) fail("a number, $N, a metric name, '-' or '('");
    at += id[0].length;
    space();
    if (text[at] !== '(') return input(column(id[0]));
    const f = fns[id[0]];
    if (!f) throw new Error(`formula "${text}": unknown function "${id[0]}" (min, max, abs, sqrt)`);
    at++;
    const args = [];
    for (let k = 0; k < f[0]; k++) {
      if (k) { space(); if (text[at] !== ',') fail("',' between arguments"); at++; }
      args.push(sum());
    }
    space();
    if (text[at] !== ')') fail("')' after the arguments");
    at++;
    return (x) => f[1](...args.map((a) => a(x)));
  }
  const binary = (next, ops) => () => {
    let e = next();
    for (;;) {
      space();
      const op = text[at];
      if (!ops[op]) return e;
      at++;
      const [l, r] = [e, next()];
      e = (x) => ops[op](l(x), r(x));
    }
  };
  const product = binary(primary, { '*': (a, b) => a * b, '/': (a, b) => (b !== 0 ? a / b : 0) });
  const sum = binary(product, { '+': (a, b) => a + b, '-': (a, b) => a - b });
  const e = sum();
  space();
  if (at < text.length) fail('an operator or the end');
  return (x) => { const v = e(x); return Number.isFinite(v) ? v : 0; };
}
