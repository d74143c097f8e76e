#!/usr/bin/env python3
"""Packs real samples into directory images (fuzz/cmd_image.h) as seeds of
the command-level fuzz targets: one image per sample, its top-level data
files only (no sources, notes or structure files).

make_cmd_seeds.py SAMPLES CORPUS_DIR"""
import os
import struct
import sys

PIPELINE = ["hpctoolkit-v4/ping-pong-mpi", "hpctoolkit-2022/empty-trace", "hpctoolkit-legacy/cpi-mpi",
            "cube/threaded-example1.cubex", "cube/zcubex-mm.x100.cubex", "cube/cube-4.0-legacy-system.cubex",
            "hpcrun/small.m"]
ANALYZE = ["hpcrun/small.m", "hpcrun/loops-cputime-t.m"]
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
