#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Wrapped UINT64 counters stored inclusive and exclusive, exact everywhere.

check_wrapped_counters.py HPCDB OUTDIR [PYTHON]

For Cube files of wrapped_counters.py (several seeds), every output gives
the values its `reference` computes without hpcdb: each (cnode, location)'s
inclusive and exclusive value (`export --format csv`; hpcdb.open_cube's
matrices and Experiment.values with PYTHON, when its numpy imports), each
cnode's sum over locations (`report --json`, top-down), each location's
total (`report --view profiles --json`), `hpcdb view`'s tree and spread
(each an unsigned integer, as CubeLib shows them), and the same again from the file
`convert --to cube` writes (read back with `export --format csv`)."""
import csv, io, json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrapped_counters as wc  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "view"))
from server import Server  # noqa: E402

hpcdb, out = sys.argv[1:3]
python = sys.argv[3] if len(sys.argv) > 3 else None
os.makedirs(out, exist_ok=True)
failures = []
COUNTERS = [name for name, _, dtype in wc.METRICS if dtype != "DOUBLE"]


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(*args):
    r = subprocess.run([hpcdb, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def check_csv(path, per, offset):
    """Every counter value at every (cnode, location); offset: the cnode ids a writer added above."""
    got = {}
    for row in csv.DictReader(io.StringIO(run("export", "--format", "csv", path, "-o", "-"))):
        if row["metric"] in COUNTERS:
            got[(row["metric"], int(row["context"]) - offset, int(row["profile"]))] = (int(row["inclusive"]), int(row["exclusive"]))
    for key, want in per.items():
        if key[0] in COUNTERS and got.get(key, (0, 0)) != want:
            fail(f"{path}: csv {key}: {got.get(key)} want (inclusive, exclusive) {want}")


def check_summary(path, summary):
    """report's top-down sums over locations, by cnode (contexts are cnode ids + 1; time first,
    which is non-zero everywhere, so that no row is left out for a counter's sum of 0)."""
    for name in COUNTERS:
        doc = json.loads(run("report", "--json", "--metric", "time", "--metric", name, "--threshold", "0", path) or "{}")
        got = {r["context"] - 1: (r["values"][1]["inclusive"], r["values"][1]["exclusive"])
               for r in doc.get("rows", []) if r["context"] and 1 <= r["context"] <= len(wc.CNODES)}
        for c in range(len(wc.CNODES)):
            want = summary[(name, c)]
            if got.get(c, (0, 0) if want == (0, 0) else None) != want:  # a row of zeros may be left out
                fail(f"{path}: report {name} at cnode {c} {wc.CNODES[c][0]}: {got.get(c)} want {want}")


def check_profiles(path, per):
    """Each location's total: the roots' inclusive values added modulo 2^64."""
    roots = [c for c, (_, p) in enumerate(wc.CNODES) if p is None]
    for name in COUNTERS:
        doc = json.loads(run("report", "--json", "--view", "profiles", "--metric", name, path) or "{}")
        got = {}
        for r in doc.get("rows", []):
            words = r["name"].split()
            if r["depth"] == 1 and len(words) == 6:  # NODE 1 RANK r THREAD t
                got[2 * int(words[3]) + int(words[5])] = r["values"][0]["inclusive"]
        want = {loc: sum(per[(name, c, loc)][0] for c in roots) % wc.W for loc in range(wc.LOCATIONS)}
        got.update({loc: 0 for loc in want if loc not in got and want[loc] == 0})  # a total of 0 may be left out
        if got != want:
            fail(f"{path}: profiles {name}: {got} want {want}")


def check_view(path, per, summary):
    """hpcdb view's tree (summary sums) and spread (each location's inclusive value), by cnode."""
    s = Server(hpcdb, path)
    try:
        def get(route, **args):
            status, _, body = s.get(route + "?" + "&".join(f"{k}={v}" for k, v in args.items()))
            if status != 200:
                fail(f"{path}: view {route} {args}: status {status}")
                return {}
            return json.loads(body)

        for name in COUNTERS:
            stack = [(0, ())]  # (node, names from the first cnode down)
            while stack:
                node, names = stack.pop()
                for row in get("/api/children", db=0, metric=name, node=node, limit=100).get("rows", []):
                    here = names + (row["name"],) if names or not row["name"].startswith("<") else ()
                    c = next((k for k in range(len(wc.CNODES)) if wc.path(k) == here), None)
                    if c is not None:
                        got = tuple(row["values"][0])
                        if got != summary[(name, c)]:
                            fail(f"{path}: view {name} at cnode {c}: {got} want {summary[(name, c)]}")
                        sp = get("/api/spread", db=0, metric=name, node=row["node"])
                        points = {p[1]: p[0] for p in sp.get("points", [])}
                        spread = [points.get(pr) for pr in sorted(points)]
                        want = [per[(name, c, loc)][0] for loc in range(wc.LOCATIONS)]
                        if spread != want or (sp.get("min"), sp.get("max")) != (min(want), max(want)):
                            fail(f"{path}: view spread {name} at cnode {c}: {spread}, min {sp.get('min')}, "
                                 f"max {sp.get('max')} want {want} (unsigned)")
                    stack.append((row["node"], here))
    finally:
        s.stop()


PY_CHECK = r"""
import json, sys
import hpcdb
path, want = sys.argv[1], json.loads(sys.argv[2])
c = hpcdb.open_cube(path)
bad = []
for name, cells in want.items():
    inc, exc = c.matrix(name, inclusive=True), c.matrix(name, inclusive=False)
    for k, (i, e) in cells.items():
        cn, loc = map(int, k.split(","))
        if (int(inc[cn][loc]), int(exc[cn][loc])) != (i, e):
            bad.append(f"open_cube {name} cnode {cn} location {loc}: {int(inc[cn][loc])}, {int(exc[cn][loc])} want {i}, {e}")
x = hpcdb.open(path)
ctx_of = {int(i): int(ctx) for ctx, i in x.contexts["id"].items()}
for name, cells in want.items():
    for scope, pick in (("execution", 0), ("point", 1)):
        df = x.values(metric=name, scope=scope)
        col = df.columns[0]
        have = {(int(ctx), int(p)): int(v) for (ctx, p), v in df[col].items()}
        for k, ie in cells.items():
            cn, loc = map(int, k.split(","))
            ctx = ctx_of.get(cn + 1)
            v = have.get((ctx, int(x.thread_profiles[loc])), 0) if ctx is not None else None
            if v != ie[pick]:
                bad.append(f"Experiment.values {name}|{scope} cnode {cn} location {loc}: {v} want {ie[pick]}")
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
"""


def check_python(path, per):
    want = {name: {f"{c},{loc}": list(per[(name, c, loc)]) for c in range(len(wc.CNODES)) for loc in range(wc.LOCATIONS)}
            for name in COUNTERS}
    r = subprocess.run([python, "-c", PY_CHECK, path, json.dumps(want)], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{path}: python: {r.stdout.strip()} {r.stderr.strip()[-600:]}")


def python_usable():
    if not python:
        return False
    r = subprocess.run([python, "-c", "import hpcdb"], capture_output=True, text=True)
    if r.returncode != 0:
        print("python checks skipped: import hpcdb failed:", r.stderr.strip().splitlines()[-1:])
    return r.returncode == 0


use_python = python_usable()
SEEDS = (1, 2, 3)
for seed in SEEDS:
    src = os.path.join(out, f"wrapped-{seed}.cubex")
    wc.write(src, seed)
    per, summary = wc.reference(seed)
    check_csv(src, per, 0)
    check_summary(src, summary)
    check_profiles(src, per)
    check_view(src, per, summary)
    if use_python:
        check_python(src, per)
    back = os.path.join(out, f"wrapped-{seed}.rewritten.cubex")
    if os.path.exists(back):
        os.remove(back)
    run("convert", "--to", "cube", src, back)
    check_csv(back, per, 1)  # the writer puts the entry point above the two roots: cnode ids + 1

failed_files = {f.split(":")[0].split(" ")[0] for f in failures}
print(f"{len(SEEDS) - len({s for s in SEEDS if any(f'wrapped-{s}.' in f for f in failed_files)})} passed, "
      f"{len({s for s in SEEDS if any(f'wrapped-{s}.' in f for f in failed_files)})} failed")
sys.exit(1 if failures else 0)
