# SPDX-License-Identifier: BSD-3-Clause
"""Checks on a database as an analyst reads it, through `hpcdb report --json` (run_app.sh).

usage: check_tree.py HPCDB DB CHECK...
  hot=NAME[|ALT][,NAME]@N   for each NAME, a function whose name holds it (or ALT) is among the N
                            largest by exclusive value (bottom-up view, inlined calls folded)
  has=NAME[,NAME]           a function whose name holds NAME has samples (bottom-up view)
  named=NAME                a row of the top-down view is named exactly NAME
  no-address=P              no function of P% or more exclusive is named module+0xOFFSET
  no-line-zero              no row of the default top-down view is a line 0 or a loop without a line
  region=REGION@CALLER      every top-down row named REGION (an outlined OpenMP region) has CALLER on
                            its path or sits under "<omp parallel region" (not under a worker's
                            runtime frames)
  same-as=RAWDB             the same total and the same exclusive value per function as RAWDB
  demangled                 no function name is a mangled C++ symbol (_Z...)
"""
import json
import re
import subprocess
import sys

hpcdb, db, checks = sys.argv[1], sys.argv[2], sys.argv[3:]
failed = []


def rows(path, *args):
    view = list(args) if args else ["--threshold", "0"]
    out = subprocess.run([hpcdb, "report", "--json", *view, path], check=True,
                         capture_output=True, text=True).stdout
    doc = json.loads(out)
    return doc, doc["rows"]


def with_paths(rs):
    stack, out = [], []
    for r in rs:
        del stack[r["depth"]:]
        stack.append(r["name"])
        out.append((list(stack), r))
    return out


def bottom_up(path):
    doc, rs = rows(path, "--view", "bottom-up", "--scopes", "functions")
    total = doc["metrics"][0]["total"]
    funcs = {}
    for r in rs:
        if r["depth"] == 0:
            funcs[r["name"]] = funcs.get(r["name"], 0) + r["values"][0]["exclusive"]
    return total, funcs


def fail(msg):
    failed.append(msg)
    print("FAIL: " + msg)


for check in checks:
    kind, _, arg = check.partition("=")
    if kind == "hot":
        names, _, n = arg.rpartition("@")
        total, funcs = bottom_up(db)
        top = sorted(funcs, key=lambda f: -funcs[f])[: int(n)]
        print("largest %s: %s" % (n, "; ".join("%s %.1f%%" % (f, 100 * funcs[f] / total) for f in top)))
        for name in names.split(","):
            if not any(any(alt in f for alt in name.split("|")) for f in top):
                fail("%s is not among the %s largest functions" % (name, n))
    elif kind == "has":
        _, rs = rows(db, "--view", "bottom-up", "--scopes", "functions")
        names = {r["name"] for r in rs}
        for name in arg.split(","):
            if not any(name in f for f in names):
                fail("no function or caller named %s" % name)
    elif kind == "named":
        _, rs = rows(db)
        if arg not in {r["name"] for r in rs}:
            fail("no row of the top-down view is named exactly %s" % arg)
    elif kind == "no-address":
        total, funcs = bottom_up(db)
        bad = [f for f in funcs if re.fullmatch(r"\S+\+0x[0-9a-f]+", f) and funcs[f] >= float(arg) / 100 * total]
        if bad:
            fail("functions named by address with %s%% or more: %s" % (arg, ", ".join(bad)))
    elif kind == "no-line-zero":
        _, rs = rows(db)
        bad = [r["name"] for r in rs if re.search(r":0$", r["name"]) or r["name"].startswith("loop at ?")]
        if bad:
            fail("rows without a line: %s" % ", ".join(sorted(set(bad))[:10]))
    elif kind == "region":
        region, _, caller = arg.partition("@")
        _, rs = rows(db)
        seen = 0
        for path, r in with_paths(rs):
            if r["name"] != region:
                continue
            seen += 1
            if caller not in path and not any(p.startswith("<omp parallel region") for p in path):
                fail("%s not under %s: %s" % (region, caller, " > ".join(path)))
        if not seen:
            fail("no row named %s" % region)
    elif kind == "same-as":
        total, funcs = bottom_up(db)
        raw_total, raw = bottom_up(arg)
        if abs(total - raw_total) > 1e-9 * abs(raw_total):
            fail("total %r, %r in %s" % (total, raw_total, arg))
        for f in set(funcs) | set(raw):
            a, b = funcs.get(f, 0), raw.get(f, 0)
            if abs(a - b) > 1e-9 * abs(raw_total):
                fail("%s: exclusive %r, %r in %s" % (f, a, b, arg))
    elif kind == "demangled":
        _, funcs = bottom_up(db)
        bad = [f for f in funcs if re.match(r"_Z[A-Z0-9]", f)]
        if bad:
            fail("mangled names: %s" % ", ".join(bad[:10]))
    else:
        fail("unknown check %s" % check)
sys.exit(1 if failed else 0)
