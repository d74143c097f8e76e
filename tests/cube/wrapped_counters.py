#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Cube files with wrapped hardware counters, as CubeW writes Score-P's.

wrapped_counters.py OUT.cubex [SEED]   writes one (the test makes its own)

An OpenMP-like call tree (two roots: main, and a worker's parallel region;
main -> parallel -> loop bodies, a barrier, a leaf called twice) on 2
processes x 2 threads, and three metrics as Score-P stores them:
PAPI_TOT_CYC, a UINT64 counter stored INCLUSIVE; PAPI_L2_DCM, a UINT64
counter stored EXCLUSIVE; time, a DOUBLE stored INCLUSIVE. The counters are
what PAPI gives when a counter went "negative": values near 2^64, parents
storing 0 where their children's stored values are larger, children larger
than their parents; one cnode without a row (0 everywhere), the exclusive
counter compressed (ZCUBEX.DATA). `reference` computes what every reader
must give, independently of hpcdb: for a metric stored inclusive, the
stored value is the inclusive one and exclusive = inclusive - sum of the
children's inclusive; for one stored exclusive, inclusive = exclusive + sum
of the children's inclusive; sums over locations; all modulo 2^64, as
CubeLib's UnsignedLongValue and pycubexr add them."""
import os, random, struct, sys, zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bad", "cube"))
import check_bad  # noqa: E402  (its tar writer)

W = 2**64
# (name, parent index or None); document order is pre-order
CNODES = [("main", None), ("!$omp parallel @a.c:10", 0), ("!$omp for @a.c:12", 1), ("compute", 2),
          ("leaf", 3), ("leaf", 2), ("!$omp implicit barrier @a.c:20", 1), ("finalize", 0),
          ("!$omp parallel @a.c:30", None), ("compute", 8)]
NO_ROW = 6  # the barrier has no row in the index: 0 at every location
LOCATIONS = 4
METRICS = [("PAPI_TOT_CYC", "INCLUSIVE", "UINT64"), ("PAPI_L2_DCM", "EXCLUSIVE", "UINT64"), ("time", "INCLUSIVE", "DOUBLE")]


def kids(c):
    return [k for k, (_, p) in enumerate(CNODES) if p == c]


def path(c):
    """The names from the root down to cnode c."""
    names = ()
    while c is not None:
        names = (CNODES[c][0],) + names
        c = CNODES[c][1]
    return names


def anchor():
    regions = sorted({n for n, _ in CNODES})
    rid = {n: i for i, n in enumerate(regions)}
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<cube version="4.7">\n'
           '<attr key="CUBE_CT_AGGR" value="SUM"/>\n<attr key="Creator" value="wrapped_counters.py (CubeW-like)"/>\n<metrics>\n']
    for i, (name, kind, dtype) in enumerate(METRICS):
        out.append(f'<metric id="{i}" type="{kind}"><disp_name>{name}</disp_name><uniq_name>{name}</uniq_name>'
                   f'<dtype>{dtype}</dtype><uom>{"sec" if dtype == "DOUBLE" else "#"}</uom><url></url><descr></descr></metric>\n')
    out.append("</metrics>\n<program>\n")
    for n in regions:
        out.append(f'<region id="{rid[n]}" mod="a.c" begin="1" end="99"><name>{n.replace("&", "&amp;")}</name></region>\n')

    def cnode(c, depth):
        out.append("  " * depth + f'<cnode id="{c}" calleeId="{rid[CNODES[c][0]]}">\n')
        for k in kids(c):
            cnode(k, depth + 1)
        out.append("  " * depth + "</cnode>\n")

    for c, (_, p) in enumerate(CNODES):
        if p is None:
            cnode(c, 0)
    out.append('</program>\n<system>\n<systemtreenode Id="0"><name>machine</name><class>machine</class>\n'
               '<systemtreenode Id="1"><name>node</name><class>node</class>\n')
    for g in range(2):
        out.append(f'<locationgroup Id="{g}"><name>rank {g}</name><rank>{g}</rank><type>process</type>\n')
        for t in range(2):
            out.append(f'<location Id="{2 * g + t}"><name>thread {t}</name><rank>{t}</rank><type>thread</type></location>\n')
        out.append("</locationgroup>\n")
    out.append("</systemtreenode>\n</systemtreenode>\n</system>\n</cube>\n")
    return "".join(out)


def counter(rng):
    """A counter's value: small, 0, or wrapped (2^64 - k)."""
    r = rng.random()
    return 0 if r < 0.25 else W - rng.randint(1, 40) if r < 0.55 else rng.randint(1, 60)


def stored_values(seed):
    """Each metric's stored value at each (cnode, location); the row-less cnode 0."""
    rng = random.Random(seed)
    vals = []
    for name, kind, dtype in METRICS:
        if dtype == "DOUBLE":
            v = [[0.0] * LOCATIONS for _ in CNODES]
            for c in reversed(range(len(CNODES))):  # inclusive: children first, plus a little
                for loc in range(LOCATIONS):
                    v[c][loc] = sum(v[k][loc] for k in kids(c)) + rng.randint(1, 8) / 4
        else:
            v = [[counter(rng) for _ in range(LOCATIONS)] for _ in CNODES]
            if kind == "INCLUSIVE":  # a parent storing 0 where its children are larger, at every seed
                v[0][1], v[1][1], v[7][1] = 0, 5, 0
        for loc in range(LOCATIONS):
            v[NO_ROW][loc] = 0.0 if dtype == "DOUBLE" else 0
        vals.append(v)
    return vals


def reference(seed):
    """{(metric, cnode, location): (inclusive, exclusive)} and the summary {(metric, cnode): (inc, exc)}."""
    vals, per, summary = stored_values(seed), {}, {}
    for m, (name, kind, dtype) in enumerate(METRICS):
        v, inc, exc = vals[m], {}, {}
        for c in reversed(range(len(CNODES))):
            for loc in range(LOCATIONS):
                below = sum(inc[(k, loc)] for k in kids(c))
                if kind == "INCLUSIVE":
                    inc[(c, loc)] = v[c][loc]
                    exc[(c, loc)] = v[c][loc] - below
                else:
                    exc[(c, loc)] = v[c][loc]
                    inc[(c, loc)] = v[c][loc] + below
                if dtype != "DOUBLE":
                    inc[(c, loc)] %= W
                    exc[(c, loc)] %= W
        for c in range(len(CNODES)):
            for loc in range(LOCATIONS):
                per[(name, c, loc)] = (inc[(c, loc)], exc[(c, loc)])
            si = sum(inc[(c, loc)] for loc in range(LOCATIONS))
            se = sum(exc[(c, loc)] for loc in range(LOCATIONS))
            summary[(name, c)] = (si % W, se % W) if dtype != "DOUBLE" else (si, se)
    return per, summary


def inclusive_order():
    """CubeLib's row order of a metric stored inclusive: each root, then
    every node's children listed before the first child's subtree."""
    order = []
    for r, (_, p) in enumerate(CNODES):
        if p is not None:
            continue
        order.append(r)
        stack = [r]
        while stack:
            c = stack.pop()
            order.extend(kids(c))
            stack.extend(reversed(kids(c)))
    return order


def write(path, seed):
    vals = stored_values(seed)
    members = [("anchor.xml", anchor().encode())]
    for m, (name, kind, dtype) in enumerate(METRICS):
        order = inclusive_order() if kind == "INCLUSIVE" else list(range(len(CNODES)))
        rows = [c for c in order if c != NO_ROW]
        index = b"CUBEX.INDEX" + struct.pack("<IHBI", 1, 0, 1, len(rows)) + b"".join(struct.pack("<I", order.index(c)) for c in rows)
        code = "d" if dtype == "DOUBLE" else "Q"
        packed = [struct.pack("<" + code * LOCATIONS, *vals[m][c]) for c in rows]
        if kind == "EXCLUSIVE":  # ZCUBEX.DATA: a zlib stream per row
            heads, streams, at = [], [], 0
            for k, row in enumerate(packed):
                z = zlib.compress(row)
                heads.append(struct.pack("<QQQ", len(row) * k, at, len(z)))
                streams.append(z)
                at += len(z)
            data = b"ZCUBEX.DATA" + struct.pack("<Q", len(rows)) + b"".join(heads) + b"".join(streams)
        else:
            data = b"CUBEX.DATA" + b"".join(packed)
        members += [(f"{m}.index", index), (f"{m}.data", data)]
    with open(path, "wb") as f:
        f.write(check_bad.tar(members))


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
