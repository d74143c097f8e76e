/* SPDX-License-Identifier: BSD-3-Clause */
// Undo and redo of the view (window, rows, depth): a new step forgets what
// was undone, as in an editor.
export class History {
  constructor() { this.back = []; this.ahead = []; }
  push(state) { this.back.push(state); this.ahead = []; }
  // the state before `now` (now goes ahead), or null
  undo(now) { return this.step(this.back, this.ahead, now); }
  redo(now) { return this.step(this.ahead, this.back, now); }
  step(from, to, now) {
    const s = from.pop();
    if (!s) return null;
    to.push(now);
    return s;
  }
  get canUndo() { return this.back.length > 0; }
  get canRedo() { return this.ahead.length > 0; }
}
