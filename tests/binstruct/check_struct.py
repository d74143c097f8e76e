#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks hpcdb struct's output: well-formed, shaped as HPCToolkit's structure
DTD says (validated by xmllint when present), every address in one statement,
and, for the bundled programs, every function, inlined call and loop their
source marks (/* FUNC name */, /* INLINE name */, /* LOOP */) by line.

usage: check_struct.py HPCDB OUTDIR CASE ARGS...
  marks BINARY SOURCE...   structure of BINARY holds every mark of SOURCEs
  symbols BINARY           a binary without DWARF: procedures from symbols
  shape BINARY             any binary: only the file's shape (DTD, one procedure per entry,
                           each address in one statement)
  jobs BINARY              -j 1 and -j 2 write the same file
  cache BINARY             a second run with --cache copies the first's result
  measurements MEAS        struct MEAS (a copy) writes structs/ for the binaries that
                           exist; the vdso's equals hpcstruct's own file for it (but for the functions only
                           its FDEs know: hpcstruct finds none of them); a GPU
                           binary's procedures (symbols only) start where hpcstruct's do
  analyze MEAS EXPECTED    MEAS (a copy) with our file for its vdso in place of hpcstruct's:
                           hpcdb analyze gives hpcprof's database EXPECTED (hpcdb diff)
"""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

CHILDREN = {
    "HPCToolkitStructure": {"LM"},
    "LM": {"F", "P"},
    "F": {"P", "L", "S"},
    "P": {"P", "A", "L", "S", "C"},
    "A": {"A", "L", "S", "C"},
    "L": {"A", "L", "S", "C"},
    "S": set(),
    "C": {"C"},
}
REQUIRED = {
    "HPCToolkitStructure": {"version", "i"},
    "LM": {"i", "n", "has-calls"},
    "F": {"i", "n"},
    "P": {"i", "n"},
    "A": {"i"},
    "L": {"i", "l"},
    "S": {"i", "l"},
    "C": {"i", "l"},
}
RANGES = re.compile(r"^\{(\[0x[0-9a-f]+-0x[0-9a-f]+\)( \[0x[0-9a-f]+-0x[0-9a-f]+\))*)?\}$")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run_struct(hpcdb, binary, out, *extra):
    r = subprocess.run([hpcdb, "struct", "--force", *extra, binary, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"hpcdb struct {binary} exited {r.returncode}: {r.stderr.strip()}")
        return None
    return r


def parse_ranges(v):
    return [(int(a, 16), int(b, 16)) for a, b in re.findall(r"\[0x([0-9a-f]+)-0x([0-9a-f]+)\)", v)]


def check_shape(path):
    text = open(path, encoding="utf-8").read()
    if not text.startswith('<?xml version="1.0"?>\n<!DOCTYPE HPCToolkitStructure ['):
        fail(f"{path}: does not start with the XML declaration and the structure DOCTYPE")
    if shutil.which("xmllint"):
        r = subprocess.run(["xmllint", "--valid", "--noout", path], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"{path}: not valid against its DTD: {r.stderr[:500]}")
    root = ET.parse(path).getroot()
    if root.tag != "HPCToolkitStructure":
        fail(f"{path}: root is {root.tag}")
    ids, spans = set(), []

    def walk(e):
        missing = REQUIRED.get(e.tag, set()) - set(e.attrib)
        if e.tag not in CHILDREN:
            fail(f"{path}: unknown element {e.tag}")
        if missing:
            fail(f"{path}: {e.tag} i={e.get('i')} lacks {sorted(missing)}")
        i = e.get("i")
        if i is not None:
            if not i.isdigit() or i in ids:
                fail(f"{path}: id {i} not a fresh integer")
            ids.add(i)
        if "l" in e.attrib and not e.get("l").isdigit():
            fail(f"{path}: {e.tag} i={i}: line {e.get('l')!r}")
        v = e.get("v")
        if v is not None:
            if not RANGES.match(v):
                fail(f"{path}: {e.tag} i={i}: ranges {v!r}")
            for lo, hi in parse_ranges(v):
                if lo >= hi:
                    fail(f"{path}: {e.tag} i={i}: empty range {v}")
            if e.tag == "S":
                spans.extend(parse_ranges(v))
        for c in e:
            if c.tag not in CHILDREN.get(e.tag, set()):
                fail(f"{path}: {c.tag} inside {e.tag} (i={i})")
            walk(c)

    walk(root)
    entries = {}
    for p in root.iter("P"):
        entry = parse_ranges(p.get("v", ""))[:1]
        if entry and entry[0][0] in entries:
            fail(f"{path}: procedures {entries[entry[0][0]]!r} and {p.get('n')!r} share the entry {entry[0][0]:#x}")
        elif entry:
            entries[entry[0][0]] = p.get("n")
    spans.sort()
    for (a, b), (c, d) in zip(spans, spans[1:]):
        if c < b:
            fail(f"{path}: statements overlap: [{a:#x}-{b:#x}) and [{c:#x}-{d:#x})")
            break
    return root


def marks(sources):
    found = []
    for src in sources:
        for n, line in enumerate(open(src, encoding="utf-8"), 1):
            for kind, name in re.findall(r"/\* (FUNC|INLINE|LOOP)\s*(.*?)\s*\*/", line):
                found.append((kind, name, n, os.path.basename(src)))
    return found


def case_marks(hpcdb, out, binary, *sources):
    path = os.path.join(out, os.path.basename(binary) + ".hpcstruct")
    if not run_struct(hpcdb, binary, path):
        return
    root = check_shape(path)
    procs = [(p.get("n"), int(p.get("l"))) for p in root.iter("P")]
    loops = [(int(l.get("l")), os.path.basename(l.get("f", ""))) for l in root.iter("L")]
    calls = []
    for a in root.iter("A"):
        for inner in a.findall("A"):
            if a.get("n") == "":
                calls.append((inner.get("n"), int(a.get("l")), os.path.basename(a.get("f", ""))))
    want = marks(sources)
    if not want:
        fail("no marks found in " + " ".join(sources))
    for kind, name, line, src in want:
        # hpcstruct's procedure line: the line-table row at its entry, at or after the declaration,
        # before the next function's (the first statement at -O2, the declaration's line at -O0)
        after = min([m[2] for m in want if m[0] == "FUNC" and m[3] == src and m[2] > line], default=1 << 30)
        if kind == "FUNC" and not any(n == name and line <= at < after for n, at in procs):
            fail(f"{src}:{line}: no procedure {name} with a line from its declaration on in {path}")
        if kind == "LOOP" and (line, src) not in loops:
            fail(f"{src}:{line}: no loop there in {path}")
        if kind == "INLINE" and (name, line, src) not in calls:
            fail(f"{src}:{line}: no inlined call of {name} there in {path}")
    print(f"{binary}: {len(want)} marks checked, {len(procs)} procedures, {len(loops)} loops")


def case_shape(hpcdb, out, binary):
    if not os.path.exists(binary):
        print(f"skipped: {binary} not found")
        sys.exit(77)
    path = os.path.join(out, os.path.basename(binary) + ".hpcstruct")
    if run_struct(hpcdb, binary, path, "-j", "2"):
        root = check_shape(path)
        print(f"{binary}: {len(list(root.iter('P')))} procedures, {len(list(root.iter('L')))} loops")


def case_symbols(hpcdb, out, binary):
    path = os.path.join(out, os.path.basename(binary) + ".hpcstruct")
    if not run_struct(hpcdb, binary, path):
        return
    root = check_shape(path)
    base = os.path.basename(binary)
    files = [f for f in root.iter("F")]
    if [f.get("n") for f in files] != [f"[{base}]"]:
        fail(f"{path}: expected the one file [{base}], got {[f.get('n') for f in files]}")
    procs = list(root.iter("P"))
    if not procs:
        fail(f"{path}: no procedures from the symbol tables")
    for p in procs:
        if not p.get("n").endswith(f" [{base}]") or p.get("l") != "0" or not p.get("ln"):
            fail(f"{path}: procedure {p.get('n')!r} not named as hpcstruct names symbols")
            break
    print(f"{binary}: {len(procs)} procedures from symbols")


def case_jobs(hpcdb, out, binary):
    one, two = os.path.join(out, "j1.hpcstruct"), os.path.join(out, "j2.hpcstruct")
    if run_struct(hpcdb, binary, one, "-j", "1") and run_struct(hpcdb, binary, two, "-j", "2"):
        if open(one, "rb").read() != open(two, "rb").read():
            fail(f"{binary}: -j 1 and -j 2 differ")


def case_cache(hpcdb, out, binary):
    cache = os.path.join(out, "cache")
    first, second = os.path.join(out, "first.hpcstruct"), os.path.join(out, "second.hpcstruct")
    if not run_struct(hpcdb, binary, first, "--cache", cache, "--verbose"):
        return
    r = run_struct(hpcdb, binary, second, "--cache", cache, "--verbose")
    if not r:
        return
    if "from the cache" not in r.stderr:
        fail(f"second run did not use the cache: {r.stderr.strip()}")
    if open(first, "rb").read() != open(second, "rb").read():
        fail("the cached copy differs")
    leftovers = [f for f in os.listdir(out) if ".tmp-" in f]
    if leftovers:
        fail(f"temporary files left: {leftovers}")


def canonical(path, skip=()):
    """The procedures of a structure file without ids, in address order (procedures
    found only as call targets are written after the others, hpcstruct puts them
    in address order), leaving out those whose entry is in skip."""
    def text(e):
        attrs = " ".join(f"{k}={v}" for k, v in sorted(e.attrib.items()) if k != "i")
        return f"<{e.tag} {attrs}>" + "".join(text(c) for c in e) + f"</{e.tag}>"
    root = ET.parse(path).getroot()
    lm = root.find("LM")
    out = [("LM", tuple(sorted(lm.attrib.items())))]
    for f in lm:
        procs = sorted((p for p in f.findall("P") if parse_ranges(p.get("v"))[0][0] not in skip),
                       key=lambda p: parse_ranges(p.get("v"))[0])
        out.append((f.get("n"), [text(p) for p in procs]))
    return out


def case_measurements(hpcdb, out, meas):
    if not os.path.isdir(meas):
        print(f"skipped: {meas} not found")
        sys.exit(77)
    copy = os.path.join(out, "meas")
    shutil.copytree(meas, copy, ignore=shutil.ignore_patterns("structs"))
    r = subprocess.run([hpcdb, "struct", "--no-cache", copy], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"hpcdb struct {copy} exited {r.returncode}: {r.stderr.strip()}")
        return
    vdsos = [f for f in os.listdir(os.path.join(copy, "vdso"))]
    for v in vdsos:
        ours = os.path.join(copy, "structs", v + ".hpcstruct")
        theirs = os.path.join(meas, "structs", v + ".hpcstruct")
        if not os.path.exists(ours):
            if os.path.exists(theirs):  # the load maps reference it
                fail(f"no structure file for the vdso {v}")
            continue
        check_shape(ours)
        if not os.path.exists(theirs):
            continue
        # functions only the unwind tables know, no call reaches (hpcstruct finds none of them)
        entries = lambda path: {parse_ranges(p.get("v"))[0][0] for p in ET.parse(path).getroot().iter("P")}
        frames = subprocess.run(["readelf", "--debug-dump=frames", os.path.join(copy, "vdso", v)],
                                capture_output=True, text=True).stdout
        fde_only = {int(a, 16) for a in re.findall(r" FDE cie=\S+ pc=([0-9a-f]+)\.\.", frames)} - entries(theirs)
        if not fde_only <= entries(ours):
            fail(f"{ours}: the FDE-only functions {sorted(fde_only - entries(ours))} are no procedures")
        if canonical(ours, fde_only) != canonical(theirs):
            fail(f"{ours} differs from hpcstruct's {theirs}")
    gpubins = os.path.join(copy, "gpubins")
    for g in sorted(os.listdir(gpubins)) if os.path.isdir(gpubins) else []:
        ours = os.path.join(copy, "structs", g + ".hpcstruct")
        if not os.path.exists(ours):
            fail(f"no structure file for the GPU binary {g}")
            continue
        check_shape(ours)
        stem = g[:-len(".gpubin")] if g.endswith(".gpubin") else g
        refs = [f for f in os.listdir(os.path.join(meas, "structs")) if f.startswith(stem)]
        for ref in refs:
            def entries(path):
                return sorted((p.get("ln") or p.get("n"), parse_ranges(p.get("v"))[0][0])
                              for p in ET.parse(path).getroot().iter("P"))
            if entries(ours) != entries(os.path.join(meas, "structs", ref)):
                fail(f"{ours}: procedures {entries(ours)} differ from hpcstruct's {ref}")
            lm = lambda path: ET.parse(path).getroot().find("LM").get("n")
            if lm(ours) != lm(os.path.join(meas, "structs", ref)):
                fail(f"{ours}: load module {lm(ours)} is not the recorded path hpcstruct names")
    print(f"{copy}: {len(os.listdir(os.path.join(copy, 'structs')))} structure files; {r.stderr.strip().splitlines()[-1]}")


def case_analyze(hpcdb, out, meas, expected):
    if not os.path.isdir(meas) or not os.path.isdir(expected):
        print(f"skipped: {meas} or {expected} not found")
        sys.exit(77)
    copy = os.path.join(out, "meas")
    shutil.copytree(meas, copy)
    vdsos = sorted(os.listdir(os.path.join(copy, "vdso")))
    for v in vdsos:
        target = os.path.join(copy, "structs", v + ".hpcstruct")
        if os.path.exists(target):
            run_struct(hpcdb, os.path.join(copy, "vdso", v), target, "--name", "vdso/" + v)
    db = os.path.join(out, "db")
    r = subprocess.run([hpcdb, "analyze", "--quiet", "--openmp", "raw", copy, "-o", db], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"analyze exited {r.returncode}: {r.stderr.strip()}")
        return
    r = subprocess.run([hpcdb, "diff", expected, db], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"analyze with our vdso structure differs from hpcprof's {expected}: {r.stdout[-2000:]}")
    print(f"{copy}: {len(vdsos)} vdso structure files of ours; the database equals {expected}")


def main():
    hpcdb, out, case, *args = sys.argv[1:]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    {"marks": case_marks, "symbols": case_symbols, "shape": case_shape, "jobs": case_jobs, "cache": case_cache,
     "measurements": case_measurements, "analyze": case_analyze}[case](
        hpcdb, out, *args)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
