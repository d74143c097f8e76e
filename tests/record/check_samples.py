#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a measurement written by `hpcdb record` (a directory or one .hpcrun
file) against the symbols of the binaries it sampled: the samples of each
expected function must exist, found by load module and offset within the
function's [start, start + size) from `nm -S`.

usage: check_samples.py HPCDB PATH [--metric NAME|SCOPE] [--expect MODULE:FUNC]... [--ratio MODULE:A MODULE:B R TOL]
                        [--profiles N] [--in-profiles KIND=VALUE,...:MODULE:FUNC]
                        [--max-partial FRACTION] [--min-depth MODULE:FUNC:N]
                        [--named FUNC] [--named-ratio A B R TOL]
--named: a database analyzed with structure files has the function by name;
--named-ratio compares the values at the two functions' contexts (give an
inclusive metric, e.g. "CPUTIME (sec)|execution").
PATH may also be a database from analyze (then --metric picks the values, e.g.
"CPUTIME (sec)|point"; NAME|self is each context's execution value less its children's).
Inclusive samples: a calling path counts once for every function on it."""
import json
import os
import struct
import re
import subprocess
import sys

FRAME = re.compile(r"\[(.+)\+0x([0-9a-f]+)\]")
FUNCTION = re.compile(r"function (\S+) in ")


def functions(module, cache={}):
    if module not in cache:
        out = subprocess.run(["nm", "-S", "--defined-only", module], capture_output=True, text=True).stdout
        syms = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[2] in "tTwW":
                syms[parts[3]] = (int(parts[0], 16), int(parts[0], 16) + int(parts[1], 16))
        cache[module] = syms
    return cache[module]


def own_value(node, profile, metric):
    """The node's value; for NAME|self, its execution value less its children's: every
    sample at the node, also those of a hidden instruction below it (a function named
    from the vdso's or the kernel's symbols holds no point value of its own)."""
    vals = node.get("values", {}).get(profile, {})
    if not metric:
        return sum(vals.values())
    if metric.endswith("|self"):
        inclusive = metric[:-len("self")] + "execution"
        return vals.get(inclusive, 0) - sum(c.get("values", {}).get(profile, {}).get(inclusive, 0)
                                            for c in node.get("children", []))
    return vals.get(metric, 0)


def paths(node, prefix, out, metric):
    m, f = FRAME.search(node["context"]), FUNCTION.search(node["context"])
    here = prefix + [(m.group(1), int(m.group(2), 16))] if m else prefix
    here = here + [("function", f.group(1))] if f else here
    for profile in node.get("values", {}):
        if profile != "SUMMARY":
            out.append((profile, here, own_value(node, profile, metric), f.group(1) if f else None))
    for child in node.get("children", []):
        paths(child, here, out, metric)


def inclusive(samples, module, func, profile=None):
    lo, hi = functions(module)[func]
    return sum(v for p, path, v, _ in samples
               if (profile is None or profile(p)) and any(m == module and lo <= off < hi for m, off in path))


def by_name(samples, func):
    return sum(v for _, path, v, _ in samples if ("function", func) in path)


def at_function(samples, func):
    """The values at the function's own contexts (use an inclusive metric)."""
    return sum(v for _, _, v, own in samples if own == func)


def max_depth(samples, module, func):
    lo, hi = functions(module)[func]
    return max([sum(1 for m, off in path if m == module and lo <= off < hi) for _, path, _, _ in samples] + [0])


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_lm_names(path):
    """Every load-module name's length field counts no NUL (as hpcrun writes them)."""
    files = [os.path.join(path, f) for f in os.listdir(path) if f.endswith(".hpcrun")] if os.path.isdir(path) else []
    for f in files:
        b = open(f, "rb").read()
        for m in re.finditer(rb"/[^\0:]{3,}\0", b):
            s, name = m.start(), m.group()[:-1]
            if s >= 4 and struct.unpack(">I", b[s - 4:s])[0] == len(name) + 1:
                fail(f"{f}: load-module name {name!r} counts a NUL")


def main():
    hpcdb, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    metric = None
    if args[:1] == ["--metric"]:
        metric, args = args[1], args[2:]
    dump = json.loads(subprocess.run([hpcdb, "dump", "--json", path], capture_output=True, text=True,
                                     check=True).stdout)
    check_lm_names(path)
    samples = []
    paths(dump["tree"], [], samples, metric)
    total = sum(v for _, _, v, _ in samples)
    print(f"{len(dump['profiles'])} profiles, total {total:.6g}")
    text = subprocess.run([hpcdb, "dump", path], capture_output=True, text=True, check=True).stdout
    counts = {k: sum(int(v) for v in re.findall(rf"hpcdb-record-{k} = (\d+)", text))
              for k in ("samples", "samples-partial", "samples-dropped", "unwind-failures")}
    print("counts:", counts)
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--expect":
            module, func = args[i + 1].rsplit(":", 1)
            v = inclusive(samples, module, func)
            print(f"{func}: {v:.6g}")
            if v <= 0:
                fail(f"no samples in {func} ({module})")
            i += 2
        elif a == "--ratio":
            (ma, fa), (mb, fb) = args[i + 1].rsplit(":", 1), args[i + 2].rsplit(":", 1)
            want, tol = float(args[i + 3]), float(args[i + 4])
            va, vb = inclusive(samples, ma, fa), inclusive(samples, mb, fb)
            got = va / vb if vb else float("inf")
            print(f"{fa}/{fb} = {va:.6g}/{vb:.6g} = {got:.4f} (want {want} within {tol:.0%})")
            if abs(got - want) > tol * want:
                fail(f"ratio {got:.4f} is not {want} within {tol:.0%}")
            i += 5
        elif a == "--named":
            v = by_name(samples, args[i + 1])
            print(f"function {args[i + 1]} (by name): {v:.6g}")
            if v <= 0:
                fail(f"no function named {args[i + 1]} with samples")
            i += 2
        elif a == "--named-ratio":
            fa, fb, want, tol = args[i + 1], args[i + 2], float(args[i + 3]), float(args[i + 4])
            va, vb = at_function(samples, fa), at_function(samples, fb)
            got = va / vb if vb else float("inf")
            print(f"by name {fa}/{fb} = {va:.6g}/{vb:.6g} = {got:.4f} (want {want} within {tol:.0%})")
            if abs(got - want) > tol * want:
                fail(f"ratio {got:.4f} is not {want} within {tol:.0%}")
            i += 5
        elif a == "--profiles":
            if len(dump["profiles"]) != int(args[i + 1]):
                fail(f"{len(dump['profiles'])} profiles, expected {args[i + 1]}: {dump['profiles']}")
            i += 2
        elif a == "--in-profiles":
            want, module, func = args[i + 1].split(":", 2)
            for ident in want.split(","):
                v = inclusive(samples, module, func, lambda p: (" " + p + " ").find(" " + ident.replace("=", " ") + " ") >= 0)
                print(f"{func} in {ident}: {v:.6g}")
                if v <= 0:
                    fail(f"no samples in {func} in the profile with {ident}")
            i += 2
        elif a == "--min-depth":
            module, func, n = args[i + 1].rsplit(":", 2)
            d = max_depth(samples, module, func)
            print(f"deepest {func} recursion sampled: {d}")
            if d < int(n):
                fail(f"{func} recursion sampled {d} deep, expected at least {n}")
            i += 2
        elif a == "--max-partial":
            frac = counts["samples-partial"] / max(counts["samples"], 1)
            if frac > float(args[i + 1]):
                fail(f"{frac:.2%} of the samples are partial unwinds")
            i += 2
        else:
            fail("unknown argument " + a)
    print("OK")


main()
