#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A .cubex that hpcdb writes, read as the strict Cube readers read it.

check_strict_reader.py HPCDB SOURCE OUTDIR

Converts SOURCE (a Cube file or a database) with `hpcdb convert --to cube`
(plain and --compress) and reads the result the way pycubexr does (Python's
tarfile, whose header checksums are strict; anchor.xml by name; per metric
<id>.index and <id>.data looked up by name): every index is CUBEX.INDEX with
the endian word 1, lists at least one cnode (pycubexr asserts it) and exactly
as many 4-byte entries as it says, each a position below the number of cnodes;
every metric with an index has its data, sized for the listed rows; no member
twice; no member for a metric anchor.xml does not declare. When SOURCE is a
Cube file, each of its members that hpcdb does not interpret comes through
byte for byte."""
import os, re, struct, subprocess, sys, tarfile, zlib
import xml.etree.ElementTree as ET

hpcdb, src, out = sys.argv[1:4]
if not os.path.exists(src):
    print(f"sample data not found ({src}): skipped")
    sys.exit(77)
os.makedirs(out, exist_ok=True)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


SIZES = {"DOUBLE": 8, "MINDOUBLE": 8, "MAXDOUBLE": 8, "UINT64": 8, "INT64": 8}


def check(path):
    with tarfile.open(path) as tar:  # raises on a bad header checksum
        names = tar.getnames()
        for n in set(names):
            if names.count(n) > 1:
                fail(f"{path}: member {n} appears {names.count(n)} times")
        root = ET.parse(tar.extractfile("anchor.xml")).getroot()
        metrics = {int(m.get("id")): m for m in root.iter("metric")}
        n_cnodes = sum(1 for _ in root.iter("cnode"))
        n_locations = sum(1 for _ in root.iter("location"))
        for n in names:
            m = re.fullmatch(r"(\d+)\.(index|data)", n)
            if m and int(m.group(1)) not in metrics:
                fail(f"{path}: {n}: no metric {m.group(1)} in anchor.xml")
        listed = 0
        for mid, metric in metrics.items():
            ix, dt = f"{mid}.index", f"{mid}.data"
            if ix not in names:
                if dt in names:
                    fail(f"{path}: {dt} without {ix}")
                continue
            if dt not in names:
                fail(f"{path}: {ix} without {dt}")
                continue
            b = tar.extractfile(ix).read()
            if b[:11] != b"CUBEX.INDEX" or len(b) < 22:
                fail(f"{path}: {ix}: not a CUBEX.INDEX")
                continue
            e = "<" if struct.unpack("<i", b[11:15])[0] == 1 else ">"
            if struct.unpack(e + "i", b[11:15])[0] != 1:
                fail(f"{path}: {ix}: endian word is not 1")
            n = struct.unpack(e + "i", b[18:22])[0]
            raw = b[22:]
            if len(raw) != 4 * n:
                fail(f"{path}: {ix}: {n} entries but {len(raw)} bytes")
                continue
            if n < 1:
                fail(f"{path}: {ix}: lists no cnode (pycubexr: assert len(tree_indices) > 0)")
                continue
            pos = struct.unpack(f"{e}{n}i", raw)
            if any(p < 0 or p >= n_cnodes for p in pos):
                fail(f"{path}: {ix}: an entry outside the {n_cnodes} cnodes")
            size = SIZES.get(metric.findtext("dtype"), 0)
            d = tar.extractfile(dt).read()
            if d[:10] == b"CUBEX.DATA":
                if size and len(d) - 10 != n * n_locations * size:
                    fail(f"{path}: {dt}: {len(d) - 10} bytes for {n} rows of {n_locations} values")
            elif d[:11] == b"ZCUBEX.DATA":
                rows = struct.unpack(e + "q", d[11:19])[0]
                heads = [struct.unpack(e + "3q", d[19 + 24 * k:43 + 24 * k]) for k in range(rows)]
                at = 19 + 24 * rows
                raw = b"".join(zlib.decompress(d[at + h[1]:at + h[1] + h[2]]) for h in heads if h[2])
                if rows != n or (size and len(raw) != n * n_locations * size):
                    fail(f"{path}: {dt}: {rows} compressed rows, {len(raw)} bytes for {n} rows")
            else:
                fail(f"{path}: {dt}: not CUBEX.DATA or ZCUBEX.DATA")
            listed += 1
        return names, listed


def carried(src_names):
    return [n for n in src_names if n != "anchor.xml" and not re.fullmatch(r"\d+\.(index|data)", n)]


for flags in ([], ["--compress"]):
    dst = os.path.join(out, "strict" + "".join(flags).replace("-", "_") + ".cubex")
    r = subprocess.run([hpcdb, "convert", "--quiet", "--force", "--to", "cube", *flags, src, dst])
    if r.returncode != 0:
        fail(f"convert --to cube {' '.join(flags)} exited {r.returncode}")
        continue
    names, listed = check(dst)
    print(f"{dst}: {len(names)} members, {listed} metrics with data")
    if os.path.isfile(src) and tarfile.is_tarfile(src):
        with tarfile.open(src) as a, tarfile.open(dst) as b:
            for n in carried(a.getnames()):
                if n not in names:
                    fail(f"{dst}: member {n} of the source was not carried through")
                elif a.extractfile(n).read() != b.extractfile(n).read():
                    fail(f"{dst}: member {n} differs from the source's")
print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
