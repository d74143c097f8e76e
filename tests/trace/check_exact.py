# SPDX-License-Identifier: BSD-3-Clause
"""Random viewports of one database: the trace query's tiles, statistics and
calling paths (through trace_probe) against reference.py's brute force.
Usage: check_exact.py PROBE DB CACHE_DIR [--viewports N] [--gpu-check] [--wide N]
--wide: N more tiles of 1 to 6 columns over most of the run, so that cells
span many of the index's blocks (their histograms) and their edges fall
inside buckets, at several depths.
Run twice over the same cache directory, the second run reads the index
from the cache; both must agree with the reference."""
import os
import random
import sys

from probe import Probe
from reference import EMPTY, FINE, Reference, bucket_events, parse_trace_db


def load(probe_exe, db, cache):
    pr = Probe(probe_exe, db, '--cache', cache)
    first = pr.ask('info')
    if first and first[0].startswith('error'):
        raise SystemExit('%s: %s' % (db, first[0]))
    info = pr.info()
    ctxs = pr.ctxs()
    rows = pr.rows()
    if info['in_place']:
        lines = parse_trace_db(os.path.join(db, 'trace.db'))
    else:
        lines = []
        for r, prof, _ in rows:
            evs = [tuple(map(int, l.split()[1:])) for l in pr.ask('events %d' % r)]
            lines.append((prof, evs))
    ref = Reference(ctxs, lines)
    got = [(p, n) for _, p, n in rows]
    want = [(p, len(e)) for p, e in ref.rows]
    if got != want:
        raise SystemExit('%s: rows differ: %s vs %s' % (db, got, want))
    return pr, info, ref


def parse_cells(lines):
    head = lines[0].split()
    return int(head[1]), [tuple(int(x) for x in l.split()) for l in lines[1:]]


def row_levels(lines):
    """The level the tile states for each of its rows (FINE: exact per column)."""
    return [int(x) for x in lines[0].split()[2:]]


def tile_differs(ans, ref, sel, first, count, t0, t1, width, height, depth, keep):
    """None when the tile equals the reference: every row at the level the
    rule gives it (computed here), every coarse cell the sum of exactly the
    buckets it claims, every fine cell the per-column brute force."""
    if not ans or ans[0].startswith('error'):
        return ans[:1]
    levels = row_levels(ans)
    want_levels = [ref.level_for(sel[m], t0, t1, width) for m in range(first, first + count)]
    if levels != want_levels:
        return 'levels %s, want %s' % (levels, want_levels)
    h, want = ref.tile(sel, first, count, t0, t1, width, height, depth, keep, levels)
    if parse_cells(ans) != (h, want):
        return 'got %s\n  want %s' % (ans[:6], [h] + want[:5])
    return None


def check(pr, info, ref, n_viewports, rnd, db):
    rows = len(ref.rows)
    tmin, tmax = info['tmin'], info['tmax']
    span = max(tmax - tmin, 1)
    failures = 0
    depths = [None, 0, 1, 2, 3, 5, 'a0', 'a2', 'a3', 'a5']
    coarse = [0]
    globs = [None, None, 'MPI_*', '*compute*', 'main']
    for v in range(n_viewports):
        depth = rnd.choice(depths)
        glob = rnd.choice(globs)
        sel = list(range(rows))
        if rows > 1 and rnd.random() < 0.3:
            sel = sorted(rnd.sample(range(rows), rnd.randint(1, rows)))
        pr.ask('rowlist ' + ' '.join(map(str, sel)) if sel != list(range(rows)) else 'rowlist')
        pr.ask('ctxsel ' + glob if glob else 'ctxsel')
        keep = ref.keep_for(glob)
        zoom = rnd.choice([1, 1, 10, 1000, 10**6, 10**9])
        width = rnd.randint(1, 40)
        length = max(width, span // zoom + rnd.randint(0, 3))
        t0 = tmin - span // 20 + rnd.randint(0, span + span // 10)
        if zoom == 1:
            t0, length = tmin, max(span, width)
        t0 = max(t0, 0)
        t1 = t0 + length
        first = rnd.randint(0, max(len(sel) - 1, 0))
        count = rnd.randint(0, len(sel) - first)
        height = rnd.randint(1, rows + 2)
        d = 'leaf' if depth is None else str(depth)
        ans = pr.ask('tile %d %d %d %d %d %d %s' % (first, count, t0, t1, width, height, d))
        why = tile_differs(ans, ref, sel, first, count, t0, t1, width, height, depth, keep)
        coarse[0] += bool(ans and ans[0].startswith('tile') and any(l != FINE for l in row_levels(ans)))
        if why:
            failures += 1
            if failures < 4:
                print('%s: tile %s differs: %s' % (db, (first, count, t0, t1, width, height, d, glob, sel), why))
        w0 = max(0, rnd.randint(tmin - 10, tmax + 10))
        w1 = w0 + rnd.choice([0, 1, 1000, span // 3, span])
        ans = pr.ask('stats %d %d %s' % (w0, w1, d))
        total, shares = ref.stats(sel, w0, w1, depth, keep)
        got = (int(ans[0].split()[1]), [tuple(int(x) for x in l.split()[1:]) for l in ans[1:]]) if ans and ans[0].startswith('total') else ans
        if got != (total, shares):
            failures += 1
            print('%s: stats %s differ: got %s want %s' % (db, (w0, w1, d, glob), got, (total, shares)))
        if rows:
            r = rnd.randrange(rows)
            ts = max(0, rnd.randint(tmin - 5, tmax + 5)) if rnd.random() < 0.7 else rnd.choice([e[0] for e in ref.rows[r][1]] or [tmin])
            ans = pr.ask('at %d %d' % (r, ts))
            want = ref.path_at(r, ts)
            got = None if ans[0].startswith('error') else (lambda f: (f[0], f[1:]))([int(x) for x in ans[0].split()[1:]])
            if got != want:
                failures += 1
                print('%s: at %d %d: got %s want %s' % (db, r, ts, ans, want))
    pr.ask('rowlist')
    pr.ask('ctxsel')
    print('%s: %d of %d tiles had coarse rows' % (db, coarse[0], n_viewports))
    return failures


def wide_check(pr, info, ref, n_viewports, rnd, db):
    """Cells spanning many blocks: the tile adds the blocks' histograms and
    reads elements only at the cells' edges; it must equal the brute force."""
    rows = len(ref.rows)
    if not any(len(evs) >= 32 * 2 ** 7 for _, evs in ref.rows):
        print('%s: no line has blocks (4,096 elements or more): the wide check would test nothing' % db)
        return 1
    tmin, tmax = info['tmin'], info['tmax']
    span = max(tmax - tmin, 1)
    failures = 0
    for v in range(n_viewports):
        depth = rnd.choice([None, 0, 1, 3, 4, 'a1', 'a3'])
        glob = rnd.choice([None, None, '*compute*'])
        sel = list(range(rows))
        if rows > 1 and rnd.random() < 0.3:
            sel = sorted(rnd.sample(range(rows), rnd.randint(1, rows)))
        pr.ask('rowlist ' + ' '.join(map(str, sel)) if sel != list(range(rows)) else 'rowlist')
        pr.ask('ctxsel ' + glob if glob else 'ctxsel')
        keep = ref.keep_for(glob)
        width = rnd.randint(1, 6)
        if v % 4 == 0:
            t0, t1 = tmin, tmax + 1
        else:
            t0 = max(0, tmin - span // 10 + rnd.randint(0, span // 3))
            t1 = max(t0 + width, tmax - span // 4 + rnd.randint(0, span // 3))
        height = rnd.randint(1, rows + 1)
        d = 'leaf' if depth is None else str(depth)
        ans = pr.ask('tile 0 %d %d %d %d %d %s' % (len(sel), t0, t1, width, height, d))
        why = tile_differs(ans, ref, sel, 0, len(sel), t0, t1, width, height, depth, keep)
        if why:
            failures += 1
            if failures < 4:
                print('%s: wide tile %s differs: %s' % (db, (t0, t1, width, height, d, glob, sel), why))
    pr.ask('rowlist')
    pr.ask('ctxsel')
    print('%s: %d wide tiles' % (db, n_viewports))
    return failures


def gpu_check(pr, info, ref, db):
    """Every 1 ns kernel marks the column it is in, at every zoom."""
    failures = 0
    rows = len(ref.rows)
    for r in range(rows):
        evs = ref.rows[r][1]
        kernels = [(k, evs[k][0]) for k in range(len(evs) - 1) if evs[k][1] != 0 and evs[k + 1][0] - evs[k][0] == 1]
        if not kernels:
            continue
        for width in (1, 7, 2000):
            t0, t1 = info['tmin'], info['tmax'] + 1
            ans = pr.ask('tile %d 1 %d %d %d 1 leaf' % (r, t0, t1, width))
            cells, level = parse_cells(ans)[1], row_levels(ans)[0]
            for k, ts in kernels:
                if level != FINE:  # a coarse row shows it in the column of its bucket's first element
                    ts = evs[k - k % bucket_events(level)][0]
                col = next(c for c in range(width) if t0 + (t1 - t0) * c // width <= ts < t0 + (t1 - t0) * (c + 1) // width)
                if cells[col][0] in (0, EMPTY):
                    failures += 1
                    if failures < 4:
                        print('%s: row %d: the kernel at %d is not shown at width %d' % (db, r, ts, width))
        # a narrow window around one kernel, width 50
        ts = kernels[len(kernels) // 2][1]
        cells = parse_cells(pr.ask('tile %d 1 %d %d 50 1 leaf' % (r, ts - 10**6, ts + 10**6)))[1]
        if not any(c[0] not in (0, EMPTY) for c in cells):
            failures += 1
            print('%s: row %d: the kernel at %d is not shown zoomed in' % (db, r, ts))
    print('%s: gpu check over %d rows' % (db, rows))
    return failures


def main():
    args = sys.argv[1:]
    probe_exe, db, cache = args[0], args[1], args[2]
    n = int(args[args.index('--viewports') + 1]) if '--viewports' in args else 200
    if not os.path.exists(db):
        print('skip: %s is absent (set HPCDB_SAMPLE_DATA)' % db)
        return 77
    os.makedirs(cache, exist_ok=True)  # ctest may run this before any other trace test made test-output/trace
    failures = 0
    for run in (0, 1):
        pr, info, ref = load(probe_exe, db, cache)
        if run == 1 and info['in_place'] and not info['from_cache']:
            print('%s: the second open did not take the index from the cache' % db)
            failures += 1
        failures += check(pr, info, ref, n, random.Random(run * 7919 + n), db)
        if '--wide' in args:
            failures += wide_check(pr, info, ref, int(args[args.index('--wide') + 1]), random.Random(run * 31 + 5), db)
        if '--gpu-check' in args:
            failures += gpu_check(pr, info, ref, db)
        pr.close()
    print('%s: %d rows, %d viewports x 2 runs, %d failures' % (db, len(ref.rows), n, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
