/* SPDX-License-Identifier: BSD-3-Clause */
// The page's requests to the trace routes: a newer request of a kind aborts
// the one in flight (and, by its slot, the server stops its work); a 503
// while the index is built says how far and asks again; root.dataset.busy
// is 0 when nothing is in flight (tests wait for it).
export class Requests {
  constructor(base, root, status) {
    this.base = base; this.root = root; this.status = status; this.pending = {}; this.inFlight = 0;
    this.page = Math.random().toString(36).slice(2, 10); // with the kind of request: the server cancels a superseded one
  }

  async get(path, params, kind, binary) {
    if (this.pending[kind]) this.pending[kind].abort(); // a newer request supersedes it
    const ac = new AbortController(); this.pending[kind] = ac;
    const q = new URLSearchParams({ ...params, slot: this.page + '.' + kind }).toString();
    this.inFlight++;
    this.root.dataset.busy = '1';
    try {
      const resp = await fetch(this.base + path + (q ? '?' + q : ''), { signal: ac.signal });
      if (resp.status === 503) { // the index is being built: say how far, ask again
        const j = await resp.json();
        if (j.building !== undefined) { // asked again at once: the server holds each ask until the index is built or 100 ms
          this.status(j.error + '…');
          if (ac.signal.aborted) throw new DOMException('superseded', 'AbortError');
          return await this.get(path, params, kind, binary);
        }
        throw new Error(j.error);
      }
      if (!resp.ok) throw new Error((await resp.json()).error);
      return await (binary ? resp.arrayBuffer() : resp.json());
    } finally {
      if (--this.inFlight === 0) this.root.dataset.busy = '0'; // tests wait for quiet
    }
  }
}
