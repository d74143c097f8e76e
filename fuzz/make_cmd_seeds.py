#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Packs real samples into directory images (fuzz/cmd_image.h) as seeds of
the command-level fuzz targets: one image per sample (for the random-access
targets, after the ids each seed reads), its top-level data
files only (no sources, notes or structure files).

make_cmd_seeds.py SAMPLES CORPUS_DIR"""
import os
import struct
import sys

PIPELINE = ["hpctoolkit-v4/ping-pong-mpi", "hpctoolkit-2022/empty-trace", "hpctoolkit-legacy/cpi-mpi",
            "cube/threaded-example1.cubex", "cube/zcubex-mm.x100.cubex", "cube/cube-4.0-legacy-system.cubex",
            "hpcrun/small.m"]
ANALYZE = ["hpcrun/small.m", "hpcrun/loops-cputime-t.m"]
# The random-access targets: ids (fuzz/access_ids.h, four little-endian words) before the image.
DB_ACCESS = {"hpctoolkit-v4/loop-fork-cycles": [(0, 0, 0, 0), (1, 5, 1, 0), (7, 4000000000, 65535, 3),
                                                (0, 2, 0x10000, 4)]}
CUBE_ACCESS = {"cube/threaded-example1.cubex": [(0, 0, 0, 0), (3, 1, 4, 0)], "cube/zcubex-mm.x100.cubex": [(1, 0, 4, 0)],
               "cube/all-dtypes.cubex": [(2, 0, 0, 0), (5, 0, 4, 0), (99, 0, 1, 0)]}
# fuzz_trace_tiles: first row, row count, window start and end (fractions of 2^32), width, height, depth, flags
TRACE_TILES = {"hpctoolkit-v4/loop-fork-cycles": [(0, 2, 0, 0xffffffff, 64, 2, 0, 0), (0, 1, 1 << 30, 1 << 31, 7, 1, 1, 1),
                                                  (1, 1, 0, 0xffffffff, 512, 64, 0, 32 | 4 | 8), (3, 9, 5, 4, 0, 0, 2, 64 | 16)]}
SKIP = (".md", ".c", ".yaml", ".ex", ".csv")


def image(path):
    files = [path] if os.path.isfile(path) else [
        os.path.join(path, n) for n in sorted(os.listdir(path))
        if os.path.isfile(os.path.join(path, n)) and not n.endswith(SKIP) and n != "original-path"]
    out = b""
    for f in files:
        name = os.path.basename(f).encode()
        data = open(f, "rb").read()
        out += bytes([len(name)]) + name + struct.pack("<I", len(data)) + data
    return out


def main():
    samples, corpus = sys.argv[1:3]
    for target, names in (("cmd_pipeline", PIPELINE), ("cmd_analyze", ANALYZE)):
        d = os.path.join(corpus, target)
        os.makedirs(d, exist_ok=True)
        for n in names:
            seed = os.path.join(d, n.replace("/", "-"))
            open(seed, "wb").write(image(os.path.join(samples, n)))
    for target, seeds in (("db_access", DB_ACCESS), ("cube_access", CUBE_ACCESS), ("trace_tiles", TRACE_TILES)):
        d = os.path.join(corpus, target)
        os.makedirs(d, exist_ok=True)
        for n, ids in seeds.items():
            for i in ids:
                seed = os.path.join(d, n.replace("/", "-") + "-" + "-".join(map(str, i)))
                open(seed, "wb").write(struct.pack(f"<{len(i)}I", *i) + image(os.path.join(samples, n)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
