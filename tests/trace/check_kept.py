# SPDX-License-Identifier: BSD-3-Clause
"""Whole-run tiles kept in the cache (trace_tile_kept.c): after the index is
built the first tile a viewer asks (2000 x min(rows, 1000) cells, depth 3,
rows in identity order) is in the cache; a whole-run tile asked again is read
from its file (a cell altered in the file, with the checksum made right, shows
in the answer), equals the tile computed without a cache, and a damaged,
foreign or stale file is computed again. At most three are kept per index.
The size a page asks is remembered and is the tile kept after the next index
built (hpcdb_trace_keep_first_tile, as hpcdb view calls it);
a damaged record gives the default size.
Usage: check_kept.py TRACE_PROBE DB WORK_DIR"""
import glob
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe import Probe  # noqa: E402

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print('FAIL: ' + what)


def checksum(data):
    """A kept tile's checksum (src/lib/query/trace_checksum.c): four FNV-1a lanes over 8-byte words."""
    mask = (1 << 64) - 1
    h = [(0xcbf29ce484222325 + i) & mask for i in range(4)]
    n = len(data) // 8
    for i in range(n):
        w = struct.unpack_from('<Q', data, 8 * i)[0]
        h[i & 3] = ((h[i & 3] ^ w) * 0x100000001b3) & mask
    words = n
    if len(data) % 8:
        part = data[8 * n:] + b'\0' * (8 - len(data) % 8)
        w = struct.unpack_from('<Q', part)[0] ^ (len(data) % 8)
        h[n & 3] = ((h[n & 3] ^ w) * 0x100000001b3) & mask
        words += 1
    return (h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7) ^ words) & mask


def tile(probe, db, cache, cmd, rowlist=None):
    pr = Probe(probe, db, *(['--cache', cache] if cache else ['--no-cache']))
    if rowlist is not None:
        pr.ask('rowlist ' + ' '.join(map(str, rowlist)))
    out = pr.ask(cmd)
    info = pr.info()
    pr.close()
    return out, info


def first_kept(probe, db, cache):
    """The index built again (the kept tiles and index gone, the record kept): the tiles it kept."""
    for p in glob.glob(os.path.join(cache, 'trace-*')):
        os.remove(p)
    pr = Probe(probe, db, '--cache', cache)
    built = pr.info()['from_cache'] == 0
    pr.close()
    check(built, 'the index was built again')
    return sorted(os.path.basename(p).split('-', 2)[2] for p in glob.glob(os.path.join(cache, '*.tile')))


def remembered(probe, db, work, n, t0, t1):
    """The size a page asks for the whole run is remembered beside the indexes
    (trace_first_tile.c), and the tile kept after the next index built is that one."""
    cache = os.path.join(work, 'first')
    os.makedirs(cache)
    record = os.path.join(cache, 'viewer-first-tile')
    pr = Probe(probe, db, '--cache', cache)
    check(pr.ask('remember 0 %d %d %d 300 7 2' % (n, t0, t1 - 1)) == [] and not os.path.exists(record),
          'a tile of part of the run is not remembered')
    check(pr.ask('remember 0 %d %d %d 300 7 2' % (n, t0, t1)) == [], 'the whole run remembered')
    pr.close()
    check(os.path.exists(record) and open(record, 'rb').read() == b'HPCDBFT1' + struct.pack('<III', 300, 7, 2),
          'the record holds the width, height and depth')
    h = min(n, 7)
    check(first_kept(probe, db, cache) == ['300x%d-2.tile' % h], 'the index pass kept the remembered size')
    default = ['2000x%d-3.tile' % min(n, 1000)]
    for bad in (b'HPCDBFT1' + struct.pack('<II', 300, 7), b'HPCDBFT1' + struct.pack('<III', 8192, 4096, 2),
                b'HPCDBFT0' + struct.pack('<III', 300, 7, 2)):
        open(record, 'wb').write(bad)
        check(first_kept(probe, db, cache) == default, 'a damaged record (%r): the default size kept' % bad)


def main():
    probe, db, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    cache = os.path.join(work, 'cache')
    os.makedirs(cache)
    pr = Probe(probe, db, '--cache', cache)
    info = pr.info()
    rows = pr.rows()
    pr.close()
    n, t0, t1 = info['rows'], info['tmin'], info['tmax'] + 1
    h = min(n, 1000)
    first = glob.glob(os.path.join(cache, 'trace-*-2000x%d-3.tile' % h))
    check(len(first) == 1, 'the index pass kept the first tile: %s' % os.listdir(cache))

    whole = 'tile 0 %d %d %d 2000 %d 3' % (n, t0, t1, h)
    computed, _ = tile(probe, db, None, whole)
    kept, i2 = tile(probe, db, cache, whole)  # rows in their own order: computed, then kept in place of the first
    check(i2['from_cache'] == 1, 'the index was read from the cache')
    check(kept == computed, 'a whole-run tile with the cache equals the one without')
    again, _ = tile(probe, db, cache, whole)
    check(again == computed, 'the kept tile read back equals the computed one')

    # the answer comes from the file: a cell altered there (checksum made right) shows
    path = glob.glob(os.path.join(cache, 'trace-*-2000x%d-3.tile' % h))[0]
    data = bytearray(open(path, 'rb').read())
    count = struct.unpack_from('<I', data, 12)[0]
    cells_at = 176 + 4 * count + (count + 7) // 8 * 8
    ctx, n_ctx, ctx_ns, total_ns = struct.unpack_from('<IIQQ', data, cells_at)
    struct.pack_into('<IIQQ', data, cells_at, ctx, n_ctx, ctx_ns // 2, total_ns)
    struct.pack_into('<Q', data, len(data) - 8, checksum(bytes(data[:-8])))
    open(path, 'wb').write(bytes(data))
    read, _ = tile(probe, db, cache, whole)
    check(read[1].split()[2] == str(ctx_ns // 2) and read[2:] == computed[2:],
          'the tile was read from the kept file: first cell %s, altered ctx_ns %d' % (read[1], ctx_ns // 2))

    # damaged: computed again (and kept again, right)
    data[cells_at + 8] ^= 0xff
    open(path, 'wb').write(bytes(data))
    fixed, _ = tile(probe, db, cache, whole)
    check(fixed == computed, 'a damaged kept tile is computed again')
    after, _ = tile(probe, db, cache, whole)
    check(after == computed, 'and kept again')

    # other rows (reversed order) with the same size: not the kept one
    order = [r[0] for r in rows][::-1]
    rev_computed, _ = tile(probe, db, None, whole, order)
    rev, _ = tile(probe, db, cache, whole, order)
    check(rev == rev_computed and rev != computed, 'a tile of the rows in another order is its own')

    # a window that is not the whole run is never kept; at most three kept per index
    tile(probe, db, cache, 'tile 0 %d %d %d 2000 %d 3' % (n, t0, t1 - 1, h))
    for w in (100, 200, 300, 400):
        tile(probe, db, cache, 'tile 0 %d %d %d %d %d 3' % (n, t0, t1, w, h))
    kept_files = glob.glob(os.path.join(cache, '*.tile'))
    check(len(kept_files) == 3, 'three kept tiles: %s' % sorted(os.path.basename(p) for p in kept_files))
    remembered(probe, db, work, n, t0, t1)
    print('ok' if not failed else '%d failed' % failed)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
