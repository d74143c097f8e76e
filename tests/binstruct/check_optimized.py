#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb struct of optimized code, against an independent oracle.

usage: check_optimized.py HPCDB OUTDIR SOURCE [record]

Builds SOURCE (programs/inline_loops.c: main's loop, marked /* LOOP main */,
calls two static functions with loops of their own, /* LOOP heavy */ and
/* LOOP medium */) with each of gcc and clang found, at -O0, -g, -O2, -O2 -g
and -O3 -g, and for each binary checks:
  - every instruction of every statement (objdump -d) against `addr2line
    -f -i` (binutils): the chain of functions and inlined callees around it,
    innermost first, and, with -g, its line and its file (the innermost
    guard alien's, loop's or inlined callee's f, else its procedure's file);
  - with -g, the calling structure: main's loop in main, inside no inlined
    call; each callee (inlined or not) holding its own loop; no callee
    holding main's loop or the other callee; where a callee is inlined, an
    inlined copy of it inside main's loop.
With `record`, the -O2 -g builds are also recorded and analyzed (the binary
read directly) and `hpcdb report`'s top-down tree must show the same: the
callees below main, neither below the other."""
import bisect
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

FLAGS = ["-O0", "-g", "-O2", "-O2 -g", "-O3 -g"]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def marks(source):
    lines = {}
    with open(source) as f:
        for n, text in enumerate(f, 1):
            m = re.search(r"/\* LOOP (\w+) \*/", text)
            if m:
                lines[m.group(1)] = n
    return lines


def oracle(binary, addrs, tool="addr2line"):
    """{addr: [(function, line or 0, file), ...]} innermost first, from addr2line (or a tool that
    prints as it does)."""
    r = subprocess.run([tool, "-a", "-f", "-i", "-e", binary], input="".join(f"{a:#x}\n" for a in addrs),
                       capture_output=True, text=True, check=True)
    out, cur = {}, None
    lines = r.stdout.splitlines()
    i = 0
    while i < len(lines):
        if re.fullmatch(r"0x[0-9a-f]+", lines[i]):
            cur = int(lines[i], 16)
            out[cur] = []
            i += 1
            continue
        name, where = lines[i], lines[i + 1] if i + 1 < len(lines) else "??:?"
        m = re.match(r"(.*):(\d+)", where)
        out[cur].append((name, int(m.group(2)) if m else 0, m.group(1) if m else None))  # "?": no line, as struct's 0
        i += 2
    return out


def ranges(v):
    return [(int(a, 16), int(b, 16)) for a, b in re.findall(r"\[(0x[0-9a-f]+)-(0x[0-9a-f]+)\)", v or "")]


def is_guard(el):
    """hpcstruct's guard alien: a file's lines inside a scope of another file, no scope itself."""
    return el.tag == "A" and el.get("n") == "<inline>"


def walk(el, chain, visit, file=None):
    """visit(element, chain, file): chain = enclosing P/A(named)/L elements, outermost first (guard
    aliens are none); file = the file of el's lines (the innermost f= around them)."""
    file = el.get("f") or file
    visit(el, chain, file)
    inner = chain + [el] if el.tag in ("P", "L") or (el.tag == "A" and el.get("n") and not is_guard(el)) else chain
    for kid in el:
        walk(kid, inner, visit, file)


def procedures(root):
    """(P, its file's name) of each procedure."""
    return [(p, f.get("n")) for f in root.iter("F") for p in f.iter("P")]


def instructions(binary):
    """Every instruction address objdump decodes, sorted."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True,
                         check=True).stdout
    return sorted(int(m.group(1), 16) for m in re.finditer(r"^ +([0-9a-f]+):\t", out, re.M))


def check_addresses(tag, binary, root, debug, tool="addr2line"):
    stmts = []
    insns = instructions(binary)

    def visit(el, chain, file):
        if el.tag == "S" and chain:
            names = [e.get("n") for e in reversed(chain) if e.tag != "L"]
            for lo, hi in ranges(el.get("v")):
                at = bisect.bisect_left(insns, lo)
                inside = [lo] + [a for a in insns[at:bisect.bisect_left(insns, hi)] if a != lo]
                stmts.extend((a, int(el.get("l")), names, file) for a in inside)

    for p, file in procedures(root):
        walk(p, [], visit, file)
    if not stmts:
        fail(f"{tag}: no statements")
        return
    want = oracle(binary, [s[0] for s in stmts], tool)
    bad = 0
    for lo, line, names, file in stmts:
        frames = want.get(lo, [])
        if frames and frames[-1][0] == "??" or names[-1].endswith("@plt"):
            continue  # PLT stubs: no symbol (llvm-addr2line: the one before), named by struct's own convention
        names = [re.sub(r" \[[^]]*\]$", "", n) for n in names]  # symbols-only procedures: "name [binary]"
        if debug:  # files by name: addr2line may join the compilation directory differently
            ok = [f[0] for f in frames] == names and frames and frames[0][1] == line
            ok = ok and (line == 0 or os.path.basename(frames[0][2] or "") == os.path.basename(file or ""))
        else:  # symbols only: the function
            ok = frames and frames[-1][0] == names[-1]
        if not ok:
            bad += 1
            if bad <= 5:
                fail(f"{tag}: {lo:#x}: struct says {names} line {line} of {file}, addr2line says {frames}")
    print(f"{tag}: {len(stmts)} instructions of the statements against {tool}, {bad} differ")


def check_calls(tag, root, mark):
    procs = {p.get("n"): p for p in root.iter("P")}
    main = procs.get("main")
    if main is None:
        return fail(f"{tag}: no procedure main")
    found = {"main": [], "heavy": [], "medium": []}
    callee = {"compute_heavy": "heavy", "compute_medium": "medium"}

    def visit(el, chain, file):
        if el.tag == "L":
            named = [e.get("n") for e in chain if e.tag != "L"]
            found_loop = [k for k, v in mark.items() if int(el.get("l")) == v]
            for k in found_loop:
                found[k].append((named, [e for e in chain]))

    for p in root.iter("P"):
        walk(p, [], visit)
    if not any(names == ["main"] for names, _ in found["main"]):
        fail(f"{tag}: main's loop (line {mark['main']}) is not in main outside inlined calls: "
             f"{[names for names, _ in found['main']]}")
    for names, _ in found["main"]:
        if names != ["main"]:
            fail(f"{tag}: main's loop inside {names}")
    for fn, key in callee.items():
        for names, _ in found[key]:
            if names[-1] != fn:
                fail(f"{tag}: the loop of {fn} (line {mark[key]}) inside {names}")
        if not found[key]:
            fail(f"{tag}: no loop of {fn} (line {mark[key]})")
    inlined = {a.get("n") for a in main.iter("A")}
    for fn in callee:
        for a in main.iter("A"):
            if a.get("n") != fn:
                continue
            for inner in a.iter("A"):
                if inner.get("n") in callee and inner.get("n") != fn:
                    fail(f"{tag}: {inner.get('n')} is inside inlined {fn}")
            for loop in a.iter("L"):
                if int(loop.get("l")) == mark["main"]:
                    fail(f"{tag}: main's loop is inside inlined {fn}")
        if fn in inlined:
            in_loop = any(a.get("n") == fn for loop in main.iter("L") if int(loop.get("l")) == mark["main"]
                          for a in loop.iter("A"))
            if not in_loop:
                fail(f"{tag}: no inlined {fn} inside main's loop")


def check_report(tag, hpcdb, binary, work):
    meas, db = os.path.join(work, "m"), os.path.join(work, "db")
    shutil.rmtree(meas, ignore_errors=True)
    shutil.rmtree(db, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    r = subprocess.run([hpcdb, "record", "-o", meas, "--", binary, "200000", "1200"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"{tag}: record did not run here ({r.stderr.strip()}): report not checked")
        return
    r = subprocess.run([hpcdb, "analyze", "--quiet", meas, "-o", db], capture_output=True, text=True)
    if r.returncode != 0:
        return fail(f"{tag}: analyze: {r.stderr.strip()}")
    r = subprocess.run([hpcdb, "report", "--top", "60", db], capture_output=True, text=True)
    if r.returncode != 0:
        return fail(f"{tag}: report: {r.stderr.strip()}")
    stack, seen, before = [], set(), len(failures)
    for text in r.stdout.splitlines():
        m = re.match(r"^( *)(\S.*?)\s{2,}[-\d.]", text)
        if not m:
            continue
        depth, name = len(m.group(1)), m.group(2)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        words = name.split()
        fn = next((w for w in words if w in ("compute_heavy", "compute_medium", "main")), None)
        if fn:
            seen.add(fn)
            above = [s[1] for s in stack]
            if fn != "main" and "main" not in above:
                fail(f"{tag}: report: {fn} is not below main: {above}")
            other = "compute_medium" if fn == "compute_heavy" else "compute_heavy"
            if fn != "main" and other in above:
                fail(f"{tag}: report: {fn} is below {other}")
        stack.append((depth, fn or name))
    for fn in ("main", "compute_heavy", "compute_medium"):
        if fn not in seen:
            fail(f"{tag}: report does not show {fn}:\n{r.stdout}")
    if len(failures) == before:
        print(f"{tag}: report's tree: {sorted(seen)} placed right")


def main():
    hpcdb, out, source = sys.argv[1:4]
    record = sys.argv[4:] == ["record"]
    mark = marks(source)
    shutil.rmtree(out, ignore_errors=True)  # struct refuses to replace an earlier run's files
    os.makedirs(out)
    compilers = [cc for cc in ("gcc", "clang") if shutil.which(cc)]
    if not compilers or not shutil.which("addr2line") or not shutil.which("objdump"):
        print("skipped: no gcc/clang or no addr2line/objdump (binutils)")
        sys.exit(77)
    for cc in compilers:
        for flags in FLAGS:
            tag = f"{cc} {flags}"
            binary = os.path.join(out, f"{cc}{flags.replace(' ', '')}")
            subprocess.run([cc, *flags.split(), "-o", binary, source], check=True)
            xml = binary + ".hpcstruct"
            r = subprocess.run([hpcdb, "struct", "--force", "--no-cache", binary, "-o", xml], capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"{tag}: struct exited {r.returncode}: {r.stderr.strip()}")
                continue
            root = ET.parse(xml).getroot()
            debug = "-g" in flags.split()
            check_addresses(tag, binary, root, debug)
            if debug:
                check_calls(tag, root, mark)
            if record and flags == "-O2 -g":
                check_report(tag, hpcdb, binary, os.path.join(out, f"run-{cc}"))
    print(f"{0 if failures else 1} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
