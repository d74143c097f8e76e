# SPDX-License-Identifier: BSD-3-Clause
"""The trace routes over HTTP (trace_serve): tiles decoded and compared with
the brute-force reference, the other routes' answers, and bad requests
(each a 4xx with a JSON error). Usage: check_routes.py SERVE ASSETS DB"""
import json
import os
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request

from reference import EMPTY, FINE, GREY, Reference, gpu_idleness, parse_trace_db

failures = []


def expect(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)


def get(base, path):
    """One request; asked again while the server says the index is being built (503)."""
    for _ in range(3000):
        try:
            with urllib.request.urlopen(base + path, timeout=30) as r:
                return r.status, r.headers.get('Content-Type'), r.read()
        except urllib.error.HTTPError as e:
            body = e.read()
            if e.code == 503 and 'building' in json.loads(body):
                time.sleep(0.1)
                continue
            return e.code, e.headers.get('Content-Type'), body
    raise RuntimeError('the index was still being built after 300 s')


def decode(body):
    assert body[:4] == b'HTL2'
    w, h, runs = struct.unpack_from('<III', body, 4)
    cells = []
    for i in range(runs):
        n, share, count, ctx = struct.unpack_from('<HBBI', body, 56 + 8 * i)
        cells += [(ctx, share, count)] * n
    assert len(cells) == w * h and len(body) == 56 + 8 * runs
    return w, h, cells


def scale(body):
    """The tile's scale: coarse rows, level min, max, events per bucket min, max, bucket ns."""
    coarse, lmin, lmax, _, emin, emax, ns = struct.unpack_from('<IIIIQQQ', body, 16)
    return coarse, lmin, lmax, emin, emax, ns


def main():
    serve, assets, db = sys.argv[1:4]
    p = subprocess.Popen([serve, assets, db], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    base = p.stdout.readline().strip().rstrip('/')
    try:
        st, ct, body = get(base, '/api/trace/info')
        info = json.loads(body)
        expect(st == 200 and ct == 'application/json' and len(info['rows']) == 13, 'info: 13 rows')
        lines = parse_trace_db(os.path.join(db, 'trace.db'))
        # the reference needs ids: take them from trace_probe's view of the tree
        probe = subprocess.run([os.path.join(os.path.dirname(serve), 'trace_probe'), '--no-cache', db], input='ctxs\n',
                               capture_output=True, text=True).stdout.splitlines()
        tree = {}
        for line in probe:
            if line.startswith('ctx '):
                _, i, cid, parent, frame, name = line.split(' ', 5)
                tree[int(i)] = (int(cid), int(parent), name, frame == '1')
        ref = Reference(tree, lines)
        t0, t1 = int(info['t_min']), int(info['t_max']) + 1
        for (w, h, depth, extra) in ((300, 13, '2', ''), (97, 5, 'leaf', ''), (50, 4, '3', '&ctx=MPI_*'), (60, 13, '2', '&scopes=all'),
                                     (40, 13, '1', '&first=3&count=6')):
            st, ct, body = get(base, '/api/trace/tile?t0=%d&t1=%d&w=%d&h=%d&depth=%s%s' % (t0, t1, w, h, depth, extra))
            gw, gh, cells = decode(body)
            first, count = 0, 13
            if 'first' in extra:
                first, count = 3, 6
            keep = ref.keep_for('MPI_*' if 'ctx' in extra else None)
            hh, want = ref.tile(list(range(13)), first, count, t0, t1, w, h, None if depth == 'leaf' else 'a' + depth if 'scopes=all' in extra else int(depth), keep)
            want = [((2**32 - 1) if c == EMPTY else (2**32 - 2) if c == GREY else c,
                     (ns * 255 + tot // 2) // tot if tot else 0, min(n, 255)) for c, n, ns, tot in want]
            expect(st == 200 and ct == 'application/octet-stream' and (gw, gh) == (w, hh) and cells == want,
                   'tile %dx%d depth %s%s equals the reference (%d bytes for %d cells)' % (w, h, depth, extra, len(body), w * hh))
        # the page's timeline tells its size with remember=1: kept for the next index pass (trace_first_tile.c)
        record = os.path.join(os.environ['XDG_CACHE_HOME'], 'hpcdb', 'viewer-first-tile')
        if os.path.exists(record):
            os.remove(record)
        st, _, _ = get(base, '/api/trace/tile?t0=%d&t1=%d&w=90&h=600&depth=2&remember=1&first=3&count=6' % (t0, t1))
        expect(st == 200 and not os.path.exists(record), 'remember=1 on some rows only: not remembered')
        st, _, body = get(base, '/api/trace/tile?t0=%d&t1=%d&w=90&h=600&depth=2&remember=1' % (t0, t1))
        expect(st == 200 and decode(body)[:2] == (90, 13) and os.path.exists(record) and
               open(record, 'rb').read() == b'HPCDBFT1' + struct.pack('<III', 90, 600, 2),
               'remember=1 on the whole run: its size remembered (90 x 600, not the 13 rows)')
        st, _, _ = get(base, '/api/trace/tile?t0=%d&t1=%d&w=90&h=13&depth=2&remember=2' % (t0, t1))
        expect(st == 400, 'remember takes 0 or 1')
        # two columns of the whole run: every row of >= 128 elements sums whole buckets of 64 elements
        st, _, body = get(base, '/api/trace/tile?t0=%d&t1=%d&w=2&h=13&depth=2' % (t0, t1))
        levels = [ref.level_for(r, t0, t1, 2) for r in range(13)]
        coarse = [l for l in levels if l != FINE]
        hh, want = ref.tile(list(range(13)), 0, 13, t0, t1, 2, 13, 2, None, levels)
        want = [((2**32 - 1) if c == EMPTY else c, (ns * 255 + tot // 2) // tot if tot else 0, min(n, 255))
                for c, n, ns, tot in want]
        expect(st == 200 and coarse and scale(body)[:5] == (len(coarse), 0, 0, 64, 64) and decode(body)[2] == want,
               'a coarse tile states its scale %s (%d coarse rows, buckets of 64 elements) and equals the buckets it claims'
               % (scale(body), len(coarse)))
        st, _, body = get(base, '/api/trace/summary?t0=%d&t1=%d&w=2&depth=2' % (t0, t1))
        sm = json.loads(body)
        totals = [tot for _, _, _, tot in ref.tile(list(range(13)), 0, 13, t0, t1, 2, 1, 2, None, levels)[1]]
        expect(st == 200 and sm['bucket_events'] == [64, 64] and sm['coarse_rows'] == len(coarse) and
               [c['total_ns'] for c in sm['columns']] == totals,
               'the summary sums the coarse tile\'s columns over the rows: %s' % totals)
        st, _, body = get(base, '/api/trace/stats?t0=%d&t1=%d&depth=2' % (t0, t1))
        s = json.loads(body)
        total, shares = ref.stats(list(range(13)), t0, t1, 2, None)
        expect(st == 200 and s['total_ns'] == total and [tuple(x) for x in s['shares']] == shares, 'stats equal the reference')
        # the page's vertical zoom: statistics and summary of rows 3..8 only
        st, _, body = get(base, '/api/trace/stats?t0=%d&t1=%d&depth=2&first=3&count=6' % (t0, t1))
        s = json.loads(body)
        total, shares = ref.stats(list(range(3, 9)), t0, t1, 2, None)
        expect(st == 200 and s['total_ns'] == total and [tuple(x) for x in s['shares']] == shares,
               'stats of rows 3..8 (first=3&count=6) equal the reference')
        st, _, body = get(base, '/api/trace/summary?t0=%d&t1=%d&w=10&depth=2&first=3&count=6' % (t0, t1))
        cols = json.loads(body)['columns']
        col0 = ref.stats(list(range(3, 9)), t0, t0 + (t1 - t0) // 10, 2, None)
        expect(st == 200 and len(cols) == 10 and cols[0]['total_ns'] == col0[0], 'summary of rows 3..8: exact totals')
        st, _, body = get(base, '/api/trace/stats?t0=%d&t1=%d&first=3&count=0' % (t0, t1))
        expect(st == 400 and 'count' in json.loads(body)['error'], 'stats of no rows: 400')
        # GPU idleness: every GPU stream's idle time while its host thread waits, against a brute force
        ids = [row['id'] for row in info['rows']]
        for wait, names, (a, b) in (('MPI_Wait,MPI_Allreduce', {'MPI_Wait', 'MPI_Allreduce'}, (t0, t1)),
                                    ('MPI_*', {n for _, _, n, _ in tree.values() if n.startswith('MPI_')}, (t0 + 77777, t0 + 250001))):
            st, _, body = get(base, '/api/trace/gpu?t0=%d&t1=%d&wait=%s' % (a, b, wait))
            got = [[x['row'], x['host'], x['span_ns'], x['idle_ns'], x['idle_wait_ns']] for x in json.loads(body)['streams']]
            want = gpu_idleness(ref, ids, a, b, names)
            expect(st == 200 and got == want and all(x[4] > 0 for x in got),
                   'gpu idleness (wait=%s) equals the brute force: %s' % (wait, got))
        st, _, body = get(base, '/api/trace/gpu?t0=%d&t1=%d&wait=a,,b' % (t0, t1))
        expect(st == 400, 'gpu: an empty glob in wait is refused')
        st, _, body = get(base, '/api/trace/at?row=2&t=%d' % (t0 + 5000))
        a = json.loads(body)
        idx, path = ref.path_at(2, t0 + 5000)
        expect(st == 200 and [x[0] for x in a['path']] == path and a['ctx'] == idx, 'at: the calling path')
        st, _, body = get(base, '/api/trace/summary?t0=%d&t1=%d&w=10&depth=2' % (t0, t1))
        cols = json.loads(body)['columns']
        col0 = ref.stats(list(range(13)), t0, t0 + (t1 - t0) // 10, 2, None)
        expect(st == 200 and len(cols) == 10 and cols[0]['total_ns'] == col0[0], 'summary: 10 columns, exact totals')
        st, _, body = get(base, '/api/trace/info?rows=GPUSTREAM')
        expect(json.loads(body).get('selected') == [3, 7, 11], 'info?rows=GPUSTREAM selects rows 3, 7, 11 (every 4th profile)')
        st, _, body = get(base, '/api/trace/info?order=identity')
        expect(json.loads(body).get('selected') == [0, 1, 2, 4, 5, 6, 3, 7, 8, 9, 10, 12, 11],
               'order=identity: each rank\'s threads, then its GPU streams')
        st, _, body = get(base, '/api/trace/info?order=name')
        expect(st == 400, 'order takes identity only')
        st, _, body = get(base, '/')
        expect(st == 200 and b'main.js' in body, 'the page')
        for path, code in (('/api/trace/tile?t1=5&w=1&h=1', 400), ('/api/trace/tile?t0=1&t1=5&w=0&h=1', 400),
                           ('/api/trace/tile?t0=1&t1=5&w=10&h=1', 400), ('/api/trace/tile?t0=1&t1=99999&w=99999&h=1', 400),
                           ('/api/trace/tile?t0=5&t1=1&w=1&h=1', 400),
                           ('/api/trace/tile?t0=1&t1=99999&w=8192&h=4096', 400), ('/api/trace/tile?t0=x&t1=5&w=1&h=1', 400),
                           ('/api/trace/tile?t0=1&t1=50&w=1&h=1&depth=-3', 400),
                           ('/api/trace/tile?t0=1&t1=50&w=1&h=1&depth=3&scopes=some', 400),
                           ('/api/trace/tile?t0=1&t1=50&w=1&h=1&first=14', 400),
                           ('/api/trace/tile?t0=1&t1=50&w=1&h=1&rows=RANK%3D', 400),
                           ('/api/trace/at?row=13&t=5', 400), ('/api/trace/at?row=0&t=5', 404),
                           ('/api/trace/at?row=0&t=99999999999999999999999', 400),
                           ('/api/trace/stats?t0=9&t1=1', 400), ('/api/trace/nothing', 404), ('/../../etc/passwd', 404)):
            st, ct, body = get(base, path)
            ok = st == code and ct == 'application/json' and 'error' in json.loads(body)
            expect(ok, '%s -> %d (%s)' % (path, st, body[:80]))
    finally:
        p.stdin.close()
        p.wait(timeout=10)
    # a database without traces: the trace routes say so, the server lives on
    nodb = os.path.join(os.environ.get('HPCDB_SAMPLE_DATA', ''), 'hpctoolkit-v4', 'cpi-mpi')
    if os.path.isdir(nodb):
        p = subprocess.Popen([serve, assets, nodb], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        base = p.stdout.readline().strip().rstrip('/')
        try:
            for _ in range(2):
                st, _, body = get(base, '/api/trace/info')
                expect(st == 404 and 'no timeline' in json.loads(body)['error'], 'no traces: ' + body.decode()[:90])
        finally:
            p.stdin.close()
            p.wait(timeout=10)
    else:
        print('skip: the database without traces (%s) is absent' % nodb)
    print('%d failures' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
