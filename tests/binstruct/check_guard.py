#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""hpcstruct's guard aliens in hpcdb struct's output, against an independent oracle.

usage: check_guard.py HPCDB OUTDIR SOURCE

Builds SOURCE (programs/guard_lines.c: sum_squares' loop #included into its
body from guard_body.inc; tail_generated's body under `#line 700
"generated.y"`) with each of gcc and clang found, at -O0 -g and -O2 -g, and
checks:
  - every instruction of every statement against `addr2line -f -i`: the
    chain of functions and inlined callees (guard aliens are no scope), the
    line, and the file (check_optimized.check_addresses). clang's builds are
    checked with llvm-addr2line where it is installed: binutils 2.40's
    addr2line does not follow the DWARF 5 range lists (DW_FORM_rnglistx) of
    clang -O2's inlined calls, and names the caller where the DIE says the
    callee;
  - the guards: <A n="<inline>" v="{}"> with a file and a line, holding only
    statements and loops, of the scope's own file only for lines before the
    scope's line; lines of guard_body.inc in a guard inside sum_squares (or
    its inlined copy, which hpcstruct's locateTree places in guard_body.inc,
    the file of its first loop, when it has no inlined call), its loop at
    guard_body.inc:2 in sum_squares; lines of generated.y in a guard inside
    tail_generated (clang -O2 places that loop's header in main's code, so
    the loop is main's there);
  - hpcdb's own reader: `hpcdb info` of the structure file counts as many
    inlined scopes and loops as the file has named <A> and <L> (a guard is
    no scope); the -O2 -g builds are recorded and analyzed once from
    the binary and once with the structure file (--struct): report's trees
    are the same, and show the lines of both files, by their files' names,
    below their functions.
A guard is what hpcstruct writes for these lines (Struct-Output.cpp,
doTreeNode); without it a reader places them in the scope's file."""
import csv
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_optimized as opt  # noqa: E402

FLAGS = ["-O0 -g", "-O2 -g"]
WANT = {"sum_squares": "guard_body.inc", "tail_generated": "generated.y"}  # the other file in each function
LOOP = ("sum_squares", "guard_body.inc", 2)  # the #included loop, in the guard


def check_guards(tag, root):
    found, before = set(), len(opt.failures)

    def scope_of(chain):
        """The innermost named scope (P, or an inlined callee's A) and its file."""
        named = [e for e in chain if e.tag != "L"]
        return named[-1], (named[-1].get("f") or proc_file[0]) if named[-1].tag == "A" else proc_file[0]

    def visit(el, chain, file):
        if not chain:
            return
        scope, scope_file = scope_of(chain)
        fn = scope.get("n")
        for want_fn, where in WANT.items():  # the callee placed in the other file (hpcstruct's locateTree)
            if el.tag == "A" and el.get("n") == want_fn and os.path.basename(el.get("f", "")) == where:
                found.add(want_fn)
        if el.tag == "L" and os.path.basename(file) == LOOP[1] and int(el.get("l")) == LOOP[2] and fn == LOOP[0]:
            found.add("loop")
        if not opt.is_guard(el):
            return
        if el.get("v") != "{}" or not el.get("f") or not el.get("l", "").isdigit():
            opt.fail(f"{tag}: a guard without its file and line: {el.attrib}")
        if any(k.tag not in ("S", "L") for k in el):
            opt.fail(f"{tag}: a guard holds {[k.tag for k in el]}, not only statements and loops")
        if os.path.basename(el.get("f")) == os.path.basename(scope_file):  # only lines before the scope's own
            late = [int(k.get("l")) for k in el if int(k.get("l")) >= int(scope.get("l"))]
            if late:
                opt.fail(f"{tag}: a guard of its scope's file ({scope_file}) holds lines {late}, not before {scope.get('l')}")
        base = os.path.basename(el.get("f"))
        for want_fn, where in WANT.items():
            if base == where:
                if fn != want_fn:
                    opt.fail(f"{tag}: a guard of {where} in {fn}, not in {want_fn}")
                found.add(want_fn)

    proc_file = [None]
    for p, file in opt.procedures(root):
        proc_file[0] = file
        opt.walk(p, [], lambda el, chain, f: visit(el, chain if el.tag != "P" else [el], f), file)
    for fn, where in WANT.items():
        if fn not in found:
            opt.fail(f"{tag}: no guard of {where} in {fn}, nor {fn} placed in {where}")
    if "loop" not in found:
        opt.fail(f"{tag}: no loop at {LOOP[1]}:{LOOP[2]} in {LOOP[0]}")
    if len(opt.failures) == before:
        print(f"{tag}: guards of {sorted(WANT.values())} in place")


def check_info(tag, hpcdb, xml, root):
    r = subprocess.run([hpcdb, "info", xml], capture_output=True, text=True)
    got = dict(re.findall(r"^ *(inlined|loops): +(\d+)", r.stdout, re.M))
    want = {"inlined": str(sum(1 for a in root.iter("A") if a.get("n") not in ("", "<inline>"))),
            "loops": str(sum(1 for _ in root.iter("L")))}
    if r.returncode != 0 or got != want:
        opt.fail(f"{tag}: hpcdb info {xml}: {got or r.stderr.strip()}, want {want} (guards are no scopes)")


def report_tree(tag, hpcdb, meas, db, extra):
    shutil.rmtree(db, ignore_errors=True)
    r = subprocess.run([hpcdb, "analyze", "--quiet", *extra, meas, "-o", db], capture_output=True, text=True)
    if r.returncode != 0:
        return opt.fail(f"{tag}: analyze {' '.join(extra)}: {r.stderr.strip()}")
    r = subprocess.run([hpcdb, "report", "--csv", db], capture_output=True, text=True)
    if r.returncode != 0:
        return opt.fail(f"{tag}: report: {r.stderr.strip()}")
    return [(int(row[0]), row[2]) for row in csv.reader(r.stdout.splitlines()[1:])]


def check_reader(tag, hpcdb, binary, xml, work):
    meas = os.path.join(work, "m")
    shutil.rmtree(meas, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    r = subprocess.run([hpcdb, "record", "-o", meas, "--", binary, "200000", "1200"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"{tag}: record did not run here ({r.stderr.strip()}): the reader not checked")
        return
    direct = report_tree(tag, hpcdb, meas, os.path.join(work, "db-binary"), [])
    read = report_tree(tag, hpcdb, meas, os.path.join(work, "db-struct"), ["--struct", xml])
    if direct is None or read is None:
        return
    if direct != read:
        opt.fail(f"{tag}: report with the structure file differs from report with the binary:\n{read}\n{direct}")
    before = len(opt.failures)
    stack = []
    seen = set()
    for depth, name in read:
        del stack[depth:]
        stack.append(name)
        for fn, where in WANT.items():
            if re.fullmatch(rf"(loop at )?{re.escape(where)}:\d+", name):
                if not any(s.split()[0] == fn for s in stack[:-1]):
                    opt.fail(f"{tag}: report: {name} is not below {fn}: {stack}")
                seen.add(fn)
    if f"loop at {LOOP[1]}:{LOOP[2]}" not in {n for _, n in read}:
        opt.fail(f"{tag}: report shows no loop at {LOOP[1]}:{LOOP[2]}: {read}")
    for fn, where in WANT.items():
        if fn not in seen:
            opt.fail(f"{tag}: report shows no line of {where}: {read}")
    if len(opt.failures) == before:
        print(f"{tag}: report's trees the same from the binary and from the structure file")


def main():
    hpcdb, out, source = sys.argv[1:4]
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
            r = subprocess.run([hpcdb, "struct", "--force", "--no-cache", binary, "-o", xml], capture_output=True,
                               text=True)
            if r.returncode != 0:
                opt.fail(f"{tag}: struct exited {r.returncode}: {r.stderr.strip()}")
                continue
            root = ET.parse(xml).getroot()
            tool = "llvm-addr2line" if cc == "clang" and shutil.which("llvm-addr2line") else "addr2line"
            opt.check_addresses(tag, binary, root, True, tool)
            check_guards(tag, root)
            check_info(tag, hpcdb, xml, root)
            if flags == "-O2 -g":
                check_reader(tag, hpcdb, binary, xml, os.path.join(out, f"run-{cc}"))
    print(f"{0 if opt.failures else 1} passed, {len(opt.failures)} failed")
    sys.exit(1 if opt.failures else 0)


main()
