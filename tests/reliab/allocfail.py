#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Allocation-failure injection: each command runs once to count its
allocations, then once per N (every N, or --step) with the Nth allocation
failing (failmalloc.so, LD_PRELOAD). Each run must end with exit 0 and the
output of the run without failures, or exit 2, a message saying out of
memory, and nothing under the output's name; never a crash.

  allocfail.py HPCDB FAILMALLOC_SO DATA WORK [--step K] [--only NAME]"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz"))
from crash_campaign import MARK, tree  # noqa: E402


def commands(data, record_lib):
    v4, run = f"{data}/hpctoolkit-v4", f"{data}/hpcrun"
    cs = [("convert-v4", ["convert", "--quiet", f"{v4}/cpi-mpi", "{out}"], "db"),
          ("convert-cube", ["convert", "--quiet", "--to", "cube", f"{v4}/cpi-mpi", "{out}"], "c.cubex"),
          ("cube-to-v4", ["convert", "--quiet", f"{data}/cube/time.p4.cubex", "{out}"], "db"),
          ("analyze", ["analyze", "--quiet", "-j", "1", f"{run}/small.m", "-o", "{out}"], "db"),
          ("struct", ["struct", "--no-cache", record_lib, "-o", "{out}"], "s.hpcstruct")]
    for fmt in ["folded", "csv", "speedscope", "chrome-trace", "flamegraph", "html"]:
        cs.append((f"export-{fmt}", ["export", "--quiet", "--format", fmt, f"{v4}/ping-pong-mpi", "-o", "{out}"],
                   "out"))
    return cs


def remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hpcdb")
    ap.add_argument("failmalloc")
    ap.add_argument("data")
    ap.add_argument("work")
    ap.add_argument("--step", type=int, default=1)
    ap.add_argument("--only", action="append", help="commands whose name starts with this")
    a = ap.parse_args()
    if not os.path.isdir(f"{a.data}/hpctoolkit-v4/cpi-mpi"):
        print(f"SKIP: the sample data is not in {a.data}")
        return 77
    hpcdb = os.path.abspath(a.hpcdb)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    record_lib = os.path.join(os.path.dirname(hpcdb), "libhpcdb_record.so")
    findings, total = [], 0
    for name, args, o in commands(a.data, record_lib):
        if a.only and not any(name.startswith(o) for o in a.only):
            continue
        out = os.path.join(a.work, o)
        cmd = [hpcdb] + [x.format(out=out) for x in args]
        count = os.path.join(a.work, "count")
        remove(count)
        env = dict(os.environ, LD_PRELOAD=os.path.abspath(a.failmalloc), HPCDB_FAILMALLOC_COUNT=count)
        p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode != 0:
            sys.exit(f"{name}: the run without failures failed: {p.stderr.decode()}")
        ref, n = tree(out), max(int(x) for x in open(count).read().split())  # struct's child counts on
        remove(out)
        env.pop("HPCDB_FAILMALLOC_COUNT")
        refused = complete = contained = 0
        for k in range(1, n + 1, a.step):
            env["HPCDB_FAILMALLOC"] = str(k)
            p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            err = p.stderr.decode(errors="replace").strip()
            left = [e for e in os.listdir(a.work) if MARK in e]
            why = None
            if p.returncode == 0:
                complete += 1
                if tree(out) != ref:
                    why = "exit 0 with a different output"
            elif p.returncode == 2 and ("out of memory" in err or "cannot be opened" in err or
                                        "Cannot allocate memory" in err or "allocate" in err):
                refused += 1
                contained += "inside a library" in err or "ended the work itself" in err  # struct's child
                if os.path.lexists(out) or left:
                    why = f"refused but left {o if os.path.lexists(out) else ''} {left}"
            else:
                why = f"exit {p.returncode}: {err[:300]}"
            if why:
                findings.append(f"{name} allocation {k} of {n}: {why}")
                print("FINDING:", findings[-1])
            remove(out)
            for e in left:
                remove(os.path.join(a.work, e))
        total += len(range(1, n + 1, a.step))
        print(f"{name:20} allocations {n:5}  runs {len(range(1, n + 1, a.step)):5}  complete {complete:5}  "
              f"refused {refused:5}" + (f" (of them {contained} ended inside a library, contained)" if contained else ""))
        sys.stdout.flush()
    print(f"{total} runs, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
