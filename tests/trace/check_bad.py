# SPDX-License-Identifier: BSD-3-Clause
"""Bad inputs of the trace query: each an error or a rebuilt index, never a
crash or a wrong answer. Usage: check_bad.py PROBE HPCDB GENERATED_DB WORK_DIR [GEN_TRACE_DB]
(with gen_trace_db: also faults in each half of an index built on two threads)"""
import os
import shutil
import struct
import subprocess
import sys
import time

from probe import Probe
from reference import Reference, parse_trace_db

failures = []


def expect(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)


def fresh(src, work, name):
    dst = os.path.join(work, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    for root, dirs, files in os.walk(dst):
        for f in files + dirs:
            os.chmod(os.path.join(root, f), 0o755 if f in dirs else 0o644)
    return dst


def element_offset(db, line, k):
    data = open(os.path.join(db, 'trace.db'), 'rb').read()
    sec = struct.unpack_from('<Q', data, 24)[0]
    p_traces, _, sz = struct.unpack_from('<QIB', data, sec)
    start = struct.unpack_from('<Q', data, p_traces + line * sz + 8)[0]
    return start + 12 * k


def patch(db, off, fmt, value):
    with open(os.path.join(db, 'trace.db'), 'r+b') as f:
        f.seek(off)
        f.write(struct.pack(fmt, value))


def first_answer(probe_exe, db, *flags):
    p = subprocess.run([probe_exe, *flags, db], input='info\n', capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout.splitlines()[0] if p.stdout else ''


def cli(hpcdb, *args):
    p = subprocess.run([hpcdb, 'report', '--view', 'trace', *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def two_threads(probe_exe, gen_exe, work):
    """2 lines x 40,000 elements: the index pass runs each line on its own
    thread; a fault in either half is named, the first line's first."""
    big = os.path.join(work, 'two-halves')
    shutil.rmtree(big, ignore_errors=True)
    subprocess.run([gen_exe, '--profiles', '2', '--events', '40000', '--period', '1000', '-o', big], check=True)
    rc, out = first_answer(probe_exe, big, '--no-cache')
    expect(rc == 0, 'two halves, no fault: opened (%s)' % out)
    data = open(os.path.join(big, 'trace.db'), 'rb').read()
    ts = struct.unpack_from('<Q', data, element_offset(big, 1, 29999))[0]
    db = fresh(big, work, 'second-half')
    patch(db, element_offset(db, 1, 30000), '<Q', ts - 1)
    rc, out = first_answer(probe_exe, db, '--no-cache')
    expect(rc != 0 and 'time-order' in out and 'element 30000 ' in out, 'second half: out of order, named: ' + out)
    db = fresh(big, work, 'first-half')
    patch(db, element_offset(db, 0, 39999) + 8, '<I', 987654)
    rc, out = first_answer(probe_exe, db, '--no-cache')
    expect(rc != 0 and 'context-id' in out and 'element 39999 ' in out, 'first half: unknown context, named: ' + out)
    patch(db, element_offset(db, 1, 30000), '<Q', ts - 1)
    rc, out = first_answer(probe_exe, db, '--no-cache')
    expect(rc != 0 and 'context-id' in out and 'element 39999 ' in out, 'both halves: the first line\'s fault: ' + out)


def cache_checksum(data):
    """The cache file's checksum (src/lib/query/trace_cache.c, trace_checksum.c):
    the sum over its 8-byte words of (w ^ i * K) * M, i the word's index."""
    mask, k, m = 2**64 - 1, 0x9e3779b97f4a7c15, 0xff51afd7ed558ccd
    words = struct.unpack_from('<%dQ' % (len(data) // 8), data)
    return sum(((w ^ (i * k & mask)) * m) & mask for i, w in enumerate(words)) & mask


def main():
    probe_exe, hpcdb, gen, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    cache = os.path.join(work, 'cache')
    shutil.rmtree(cache, ignore_errors=True)

    # events out of order: element 5 of line 2 gets a timestamp before element 4's
    db = fresh(gen, work, 'order')
    ts4 = struct.unpack_from('<Q', open(os.path.join(db, 'trace.db'), 'rb').read(), element_offset(db, 2, 4))[0]
    patch(db, element_offset(db, 2, 5), '<Q', ts4 - 1)
    rc, out = first_answer(probe_exe, db, '--no-cache')
    expect(rc != 0 and 'time-order' in out, 'out-of-order elements are refused: ' + out)
    rc, _, err = cli(hpcdb, '--no-cache', db)
    expect(rc == 2 and 'time-order' in err, 'report --view trace exits 2 on them: ' + err.strip())

    # a context the tree does not have
    db = fresh(gen, work, 'context')
    patch(db, element_offset(db, 1, 7) + 8, '<I', 987654)
    rc, out = first_answer(probe_exe, db, '--no-cache')
    expect(rc != 0 and 'context-id' in out and '987654' in out, 'an unknown context is refused: ' + out)

    # trace.db cut short before opening
    db = fresh(gen, work, 'short')
    path = os.path.join(db, 'trace.db')
    os.truncate(path, os.path.getsize(path) // 2)
    rc, out = first_answer(probe_exe, db, '--no-cache')
    expect(rc != 0 and out.startswith('error'), 'a truncated trace.db is refused: ' + out)

    # damaged after opening: cut short, then rewritten in place at the same size
    db = fresh(gen, work, 'after')
    pr = Probe(probe_exe, db, '--no-cache')
    info = pr.info()
    tile = 'tile 0 %d %d %d 20 4 2' % (info['rows'], info['tmin'], info['tmax'] + 1)
    expect(pr.ask(tile)[0].startswith('tile'), 'a tile before the damage')
    path = os.path.join(db, 'trace.db')
    size = os.path.getsize(path)
    os.truncate(path, size // 3)
    for q in (tile, 'stats %d %d leaf' % (info['tmin'], info['tmax']), 'at 0 %d' % info['tmax']):
        a = pr.ask(q)
        expect(a and a[0].startswith('error') and 'changed' in a[0], 'after truncation, %s: %s' % (q.split()[0], a[:1]))
    pr.close()
    db = fresh(gen, work, 'after2')
    pr = Probe(probe_exe, db, '--no-cache')
    expect(pr.ask(tile)[0].startswith('tile'), 'a tile before the rewrite')
    time.sleep(0.05)  # mtime moves in clock ticks
    path = os.path.join(db, 'trace.db')
    other = struct.unpack_from('<I', open(path, 'rb').read(), element_offset(db, 0, 4) + 8)[0]
    patch(db, element_offset(db, 0, 3) + 8, '<I', other)
    a = pr.ask(tile)
    expect(a and a[0].startswith('error') and 'rewritten' in a[0], 'after a rewrite in place at the same size: %s' % a[:1])
    pr.close()

    # the cache: built, reused, rebuilt when stale or damaged, and then right
    db = fresh(gen, work, 'stale')
    expect(Probe(probe_exe, db, '--cache', cache).info()['from_cache'] == 0, 'first open builds the index')
    pr = Probe(probe_exe, db, '--cache', cache)
    expect(pr.info()['from_cache'] == 1, 'second open reads it from the cache')
    pr.close()
    time.sleep(0.05)
    lines = parse_trace_db(os.path.join(db, 'trace.db'))
    for k in range(0, 40, 3):  # new contexts for some elements of line 0 (valid ids)
        patch(db, element_offset(db, 0, k) + 8, '<I', lines[1][1][k][1])
    pr = Probe(probe_exe, db, '--cache', cache)
    info = pr.info()
    expect(info['from_cache'] == 0, 'a database rewritten in place gets a new index')
    ref = Reference(pr.ctxs(), parse_trace_db(os.path.join(db, 'trace.db')))
    w = (info['tmin'], info['tmin'] + (info['tmax'] - info['tmin']) // 10)
    a = pr.ask('stats %d %d leaf' % w)
    total, shares = ref.stats(list(range(len(ref.rows))), w[0], w[1], None, None)
    expect(a[0] == 'total %d' % total and [tuple(map(int, l.split()[1:])) for l in a[1:]] == shares,
           'and its answers are those of the new content')
    pr.close()
    for name in [n for n in os.listdir(cache) if n.endswith('.idx')]:  # the index, not the kept tiles
        p = os.path.join(cache, name)
        data = bytearray(open(p, 'rb').read())
        data[len(data) // 2] ^= 0x40
        open(p, 'wb').write(data)
    pr = Probe(probe_exe, db, '--cache', cache)
    expect(pr.info()['from_cache'] == 0, 'a damaged cache file is not used')
    a = pr.ask('stats %d %d leaf' % w)
    expect(a[0] == 'total %d' % total, 'and the rebuilt index answers the same')
    pr.close()
    # a hostile cache file whose checksum matches: contexts past the tree in every histogram
    for name in [n for n in os.listdir(cache) if n.endswith('.idx')]:  # the index, not the kept tiles
        p = os.path.join(cache, name)
        data = bytearray(open(p, 'rb').read())
        n_lines, = struct.unpack_from('<I', data, 12)
        n_dir, plen, _, n_slots, n_entries = struct.unpack_from('<QIIQQ', data, 112)
        at = 144 + (plen + 7) // 8 * 8 + 48 * n_lines + (4 * n_dir + 7) // 8 * 8 + 16 * n_slots
        for e in range(n_entries):
            struct.pack_into('<I', data, at + 8 * e, 0xffffffff)
        struct.pack_into('<Q', data, len(data) - 8, cache_checksum(data[:-8]))
        open(p, 'wb').write(data)
    pr = Probe(probe_exe, db, '--cache', cache)
    expect(pr.info()['from_cache'] == 1 and n_entries > 0, 'a forged cache file with a right checksum is taken')
    a = pr.ask('tile 0 1 %d %d 1 1 leaf' % (info['tmin'], info['tmax'] + 1))
    expect(a and a[0].startswith('error') and 'damaged' in a[0] and 'delete it' in a[0],
           'and a tile reading its histograms says it is damaged, naming it: %s' % a[:1])
    pr.close()
    shutil.rmtree(cache, ignore_errors=True)
    time.sleep(0.05)
    patch(db, element_offset(db, 3, 9), '<Q', 1)
    rc, out = first_answer(probe_exe, db, '--cache', cache)
    expect(rc != 0 and 'time-order' in out, 'a cached database rewritten out of order is refused: ' + out)

    # the command line
    rc, _, err = cli(hpcdb, '--at', 'x:1', gen)
    expect(rc == 2 and '--at' in err, 'a malformed --at is refused')
    rc, _, err = cli(hpcdb, '--at', '0:1', gen)
    expect(rc == 2 and 'no trace' in err, 'a profile without a trace: ' + err.strip())
    rc, _, err = cli(hpcdb, '--window', '5:1', gen)
    expect(rc == 2, 'a window ending before it starts is refused')
    rc, _, err = cli(hpcdb, '--profiles', 'RANK=9-', gen)
    expect(rc == 2 and 'KIND' in err, 'a malformed profile pattern is refused: ' + err.strip())
    if len(sys.argv) > 5:
        two_threads(probe_exe, sys.argv[5], work)
    print('%d failures' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
