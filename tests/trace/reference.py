# SPDX-License-Identifier: BSD-3-Clause
"""Test-only reference for the trace query, written from the rules in
docs/trace.md and not from the C code: trace.db parsed here, every answer
computed by brute force from the elements (no index, no cursors).

An element k of a line lasts [t_k, t_{k+1}); the last one lasts no time.
Depth 0 is the entry point; at depth D an element counts as its ancestor at
depth D, or itself when its path is shorter. Context 0 is idle."""
import bisect
import fnmatch
import struct

GREY = -2
EMPTY = -1
GREY_ORDER = 2**32 - 2  # HPCDB_TRACE_GREY: the highest index, for ties
FINE = 255  # HPCDB_TILE_FINE


def bucket_events(level):
    """Elements in a bucket of the index's level L: 64 * 4^L."""
    return 64 << (2 * level)


def parse_trace_db(path):
    """[(profile, [(ts, ctx_id), ...])] in file order."""
    data = open(path, 'rb').read()
    assert data[:10] == b'HPCTOOLKIT' and data[10:14] == b'trce' and data[-8:] == b'trace.db'
    sec = struct.unpack_from('<Q', data, 24)[0]
    p_traces, n_traces, sz = struct.unpack_from('<QIB', data, sec)
    lines = []
    for i in range(n_traces):
        prof, start, end = struct.unpack_from('<I4xQQ', data, p_traces + i * sz)
        evs = [struct.unpack_from('<QI', data, start + 12 * k) for k in range((end - start) // 12)]
        lines.append((prof, evs))
    return lines


class Reference:
    def __init__(self, ctxs, lines):
        """ctxs: {index: (id, parent index or -1, name, procedure frame?)}; lines: [(profile, events)]."""
        self.ctxs = ctxs
        self.index_of_id = {c[0]: i for i, c in ctxs.items()}
        order = sorted(range(len(lines)), key=lambda i: lines[i][0])  # stable: file order among equals
        self.rows = [lines[i] for i in order]
        self.depth = {}
        for i in sorted(ctxs):
            parent = ctxs[i][1]
            self.depth[i] = 0 if i == 0 or parent <= 0 else self.depth[parent] + 1
        # per row: starts, ends, context index of each element that lasts
        self.spans = []
        for _, evs in self.rows:
            s = [evs[k][0] for k in range(len(evs) - 1)]
            e = [evs[k + 1][0] for k in range(len(evs) - 1)]
            c = [self.index_of_id[evs[k][1]] for k in range(len(evs) - 1)]
            self.spans.append((s, e, c))

    def path(self, idx):
        """Contexts from the entry point down to idx (the global one left out)."""
        out = []
        while idx > 0:
            out.append(idx)
            idx = self.ctxs[idx][1]
        return out[::-1]

    def key(self, idx, depth, keep):
        """depth: None (leaf), D (procedure frames: the path's frames, the
        entry point at 0; fewer: the innermost) or 'aD' (every scope a
        level; a shorter path: the context itself)."""
        k = idx
        if idx != 0 and isinstance(depth, str):
            d = int(depth[1:])
            while self.depth[k] > d:
                k = self.ctxs[k][1]
        elif idx != 0 and depth is not None:
            frames = [c for c in self.path(idx) if self.ctxs[c][3]]
            k = frames[min(depth, len(frames) - 1)] if frames else idx
        if keep is not None and k != 0 and not keep[k]:
            return GREY
        return k

    def keep_for(self, glob):
        if glob is None:
            return None
        return {i: (i == 0 or (c[2] != '-' and fnmatch.fnmatchcase(c[2], glob))) for i, c in self.ctxs.items()}

    def times(self, row, a, b, depth, keep, into):
        s, e, c = self.spans[row]
        # elements ending after a and starting before b overlap [a, b)
        for k in range(bisect.bisect_right(e, a), bisect.bisect_left(s, b)):
            lo, hi = max(s[k], a), min(e[k], b)
            if hi > lo:
                kk = self.key(c[k], depth, keep)
                into[kk] = into.get(kk, 0) + hi - lo

    def level_for(self, row, t0, t1, width):
        """docs/trace.md's rule: the coarsest level L whose buckets of
        64 * 4^L elements fit width times in the row's elements with a
        timestamp in [t0, t1); FINE when even level 0's do not."""
        ts = [e[0] for e in self.rows[row][1]]
        n, count = len(ts), bisect.bisect_left(ts, t1) - bisect.bisect_left(ts, t0)
        level = FINE
        for L in range(14):
            if L > 0 and n <= bucket_events(L - 1):
                break
            if width * bucket_events(L) > count:
                break
            level = L
        return level

    def buckets(self, row, level, a, b, depth, keep, into):
        """Whole buckets of the level whose first element's timestamp is in
        [a, b): every element of them with its whole time."""
        evs, s, e, c = self.rows[row][1], *self.spans[row]
        size = bucket_events(level)
        for j in range((len(evs) + size - 1) // size):
            if a <= evs[j * size][0] < b:
                for k in range(j * size, min((j + 1) * size, len(evs) - 1)):
                    if e[k] > s[k]:
                        kk = self.key(c[k], depth, keep)
                        into[kk] = into.get(kk, 0) + e[k] - s[k]

    def tile(self, sel, first, count, t0, t1, width, height, depth, keep, levels=None):
        """levels: per row of the tile its level (FINE: exact per column), as
        the tile states them; None: every row fine."""
        h = min(height, count)
        cols = [t0 + (t1 - t0) * c // width for c in range(width + 1)]
        out = []
        for r in range(h):
            members = list(range(first + count * r // h, first + count * (r + 1) // h))
            for c in range(width):
                acc = {}
                for m in members:
                    level = FINE if levels is None else levels[m - first]
                    if level == FINE:
                        self.times(sel[m], cols[c], cols[c + 1], depth, keep, acc)
                    else:
                        self.buckets(sel[m], level, cols[c], cols[c + 1], depth, keep, acc)
                acc = {k: v for k, v in acc.items() if v > 0}
                total = sum(acc.values())
                busy = {k: v for k, v in acc.items() if k != 0}
                pool = busy or acc
                if not pool:
                    out.append((EMPTY, 0, 0, 0))
                    continue
                best = min(pool, key=lambda k: (-pool[k], GREY_ORDER if k == GREY else k))
                out.append((best, len(acc), pool[best], total))
        return h, out

    def stats(self, sel, t0, t1, depth, keep):
        acc = {}
        for m in sel:
            self.times(m, t0, t1, depth, keep, acc)
        acc = {k: v for k, v in acc.items() if v > 0}
        order = sorted(acc, key=lambda k: (-acc[k], GREY_ORDER if k == GREY else k))
        return sum(acc.values()), [(k, acc[k]) for k in order]

    def path_at(self, row, ts):
        evs = self.rows[row][1]
        k = bisect.bisect_right([x[0] for x in evs], ts) - 1
        if k < 0:
            return None
        idx = self.index_of_id[evs[k][1]]
        path = []
        i = idx
        while i > 0:
            path.append(i)
            i = self.ctxs[i][1]
        return idx, path[::-1]


def gpu_idleness(ref, ids, t0, t1, wait_names):
    """Per GPU stream row (an identity with a GPU level), brute force over every nanosecond boundary:
    [row, host row or None, covered, idle, idle while the host's context or an ancestor has a name in
    wait_names]. The host: the rows with the stream's levels before its first GPU level and one more,
    not a GPU one; the lowest id."""
    levels = [list(zip(i.split(' ')[0::2], i.split(' ')[1::2])) for i in ids]
    gpu = [next((k for k, (kind, _) in enumerate(lv) if kind.startswith('GPU')), None) for lv in levels]
    waiting = {}
    for i in ref.ctxs:
        c, w = i, False
        while c > 0:
            w = w or ref.ctxs[c][2] in wait_names
            c = ref.ctxs[c][1]
        waiting[i] = w

    def state(row, t):  # context index of the element in effect at t, None outside the line's span
        s, e, c = ref.spans[row]
        for a, b, x in zip(s, e, c):
            if a <= t < b:
                return x
        return None

    out = []
    for r, k in enumerate(gpu):
        if k is None:
            continue
        hosts = [h for h, lv in enumerate(levels) if gpu[h] is None and len(lv) == k + 1 and lv[:k] == levels[r][:k]]
        host = min(hosts, key=lambda h: int(levels[h][k][1], 0)) if hosts else None
        s, e, _ = ref.spans[r]
        cuts = sorted({t0, t1} | {x for x in s + e if t0 < x < t1} |
                      ({x for x in ref.spans[host][0] + ref.spans[host][1] if t0 < x < t1} if host is not None else set()))
        span = idle = idle_wait = 0
        for a, b in zip(cuts, cuts[1:]):
            here = state(r, a)
            if here is None:
                continue
            span += b - a
            if here == 0:
                idle += b - a
                h = state(host, a) if host is not None else None
                if h is not None and waiting[h]:
                    idle_wait += b - a
        out.append([r, host, span, idle, idle_wait])
    return out
