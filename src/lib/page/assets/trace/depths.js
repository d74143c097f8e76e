/* SPDX-License-Identifier: BSD-3-Clause */
// The depth of each context (docs/trace.md): in scopes, every context of the
// path a level (the entry points at 0); in procedure frames, only the entry
// points and procedures count, a loop or a line being at its procedure's.
// contexts: [parent, name, is a frame] by id, parents before children, 0 the root.
export function depthsOf(contexts) {
  const n = contexts.length, scope = new Array(n).fill(0), frame = new Array(n).fill(0), frameOf = new Array(n).fill(-1);
  contexts.forEach(([p, , isFrame], i) => {
    if (i === 0) return;
    if (p > 0) scope[i] = scope[p] + 1;
    const outer = p >= 0 ? frameOf[p] : -1;
    frameOf[i] = isFrame ? i : outer;
    frame[i] = isFrame ? (outer >= 0 ? frame[outer] + 1 : 0) : (outer >= 0 ? frame[outer] : 0);
  });
  return [scope, frame];
}
