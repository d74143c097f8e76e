#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb struct against hpcstruct's conventions, rule by rule (hpcstruct cannot run here).

usage: check_hpcstruct_rules.py HPCDB OUTDIR SOURCE...

Builds each SOURCE (programs/hpcstruct_rules.c; HPCToolkit's own loops.c and
small.c from the sample data, where present) as HPCToolkit builds its test
binaries, with gcc and clang at -O0, -g, -O2 and -O2 -g, plus one gcc -O2 -g
build whose inlined calls lose their call site (its assembly's abbreviations
renamed DW_AT_call_file / DW_AT_call_line to user attributes, as a producer
that omits them), and checks each structure file against what hpcstruct's
source writes (src/tool/hpcstruct: Struct.cpp, Struct-Inline.cpp,
Struct-Output.cpp), each rule from another source than hpcdb's own:
  proc-line   a procedure's l= and file are the line-table row at its entry
              (makeSkeleton / getProcLineMap), per addr2line;
  callee      an inlined callee's scope has the file of its first inlined
              call inside, else of its first loop, else of its first
              statement, and the lowest line of those calls and loops in
              that file, else of its statements (locateTree);
  early       a procedure's or callee's statements of its own file before
              its line sit in a guard alien (doTreeNode);
  one-site    one pair of scopes per (call file, line, callee) inside a scope
              (Struct-Inline's FLPIndex keys);
  recursion   where addr2line -i shows fib inlined into fib, fib's procedure
              holds <A n="fib">;
  unknown     a call without a call site is <A f="<unknown>" l="0" n="">
              (Dyninst's InlinedFunction::getCallsite), holding its callee.
A binary is equal when every rule holds; the count is printed."""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_optimized as opt  # noqa: E402

FLAGS = ["-O0", "-g", "-O2", "-O2 -g"]


def base(path):
    return os.path.basename(path or "")


def addr2line(binary, addrs, inline=False):
    """{addr: [(function, line, file)]} innermost first (only the line-table row without inline)."""
    if not addrs:
        return {}
    if inline:
        return opt.oracle(binary, addrs)
    r = subprocess.run(["addr2line", "-a", "-e", binary], input="".join(f"{a:#x}\n" for a in addrs),
                       capture_output=True, text=True, check=True)
    out, lines = {}, r.stdout.splitlines()
    for i in range(0, len(lines) - 1, 2):
        m = re.match(r"(.*):(\d+)", lines[i + 1])
        out[int(lines[i], 16)] = [("", int(m.group(2)) if m else 0, m.group(1) if m else None)]
    return out


def callees(root):
    """(call site A, callee A, enclosing named scope) of every inlined call."""
    found = []

    def visit(el, chain, file):
        if el.tag == "A" and el.get("n") == "" and chain:
            for kid in el.findall("A"):
                found.append((el, kid, chain[-1]))

    for p, file in opt.procedures(root):
        opt.walk(p, [], visit, file)
    return found


def located(callee):
    """locateTree over the callee's own children (guards hold only statements and loops)."""
    sites = [a for a in callee.findall("A") if a.get("n") == ""]
    loops = callee.findall("L") + [loop for g in callee.findall("A") if opt.is_guard(g) for loop in g.findall("L")]
    stmts = [s for s in callee.findall("S")] + [s for g in callee.findall("A") if opt.is_guard(g) for s in g.findall("S")]
    file = next((a.get("f") for a in sites if a.get("f")), None) or next((lp.get("f") for lp in loops if lp.get("f")), None)
    if file is None and stmts:  # the lowest addressed statement's file: its own, or its guard's
        first = min(stmts, key=lambda s: opt.ranges(s.get("v"))[0][0])
        guard = next((g for g in callee.findall("A") if opt.is_guard(g) and first in list(g)), None)
        file = guard.get("f") if guard is not None else callee.get("f")
    inner = [int(e.get("l")) for e in sites + loops if int(e.get("l")) > 0 and base(e.get("f")) == base(file)]
    if inner:
        return file, min(inner)
    own = [int(s.get("l")) for s in callee.findall("S") if int(s.get("l")) > 0 and base(callee.get("f")) == base(file)]
    own += [int(s.get("l")) for g in callee.findall("A") if opt.is_guard(g) and base(g.get("f")) == base(file)
            for s in g.findall("S") if int(s.get("l")) > 0]
    return file, min(own) if own else 0


def check(tag, binary, root, broken):
    """{rule: [failures]} for one structure file."""
    bad = {r: [] for r in ("proc-line", "callee", "early", "one-site", "recursion", "unknown")}
    procs = [(p, f) for p, f in opt.procedures(root) if not f.startswith("[")]  # with DWARF
    rows = addr2line(binary, [opt.ranges(p.get("v"))[0][0] for p, _ in procs])
    for p, f in procs:
        entry = opt.ranges(p.get("v"))[0][0]
        _, line, file = rows.get(entry, [("", 0, None)])[0]
        if (int(p.get("l")), base(f)) != (line, base(file)):
            bad["proc-line"].append(f"{p.get('n')}: l={p.get('l')} in {base(f)}, entry row {base(file)}:{line}")
    for site, callee, _ in callees(root):
        file, line = located(callee)
        if (base(callee.get("f")), int(callee.get("l"))) != (base(file), line):
            bad["callee"].append(f"{callee.get('n')}: {base(callee.get('f'))}:{callee.get('l')}, located {base(file)}:{line}")
    for scope in [p for p, _ in procs] + [c for _, c, _ in callees(root)]:
        early = [s.get("l") for s in scope.findall("S") if 0 < int(s.get("l")) < int(scope.get("l"))]
        if early:
            bad["early"].append(f"{scope.get('n')} l={scope.get('l')}: unguarded lines {early}")
    for scope in root.iter():
        keys = [(a.get("f"), a.get("l"), tuple(k.get("n") for k in a.findall("A")))
                for a in scope.findall("A") if a.get("n") == ""]
        if len(keys) != len(set(keys)):
            bad["one-site"].append(f"{scope.tag} {scope.get('n')}: {len(keys) - len(set(keys))} repeated call sites")
    fib = next((p for p, _ in procs if p.get("n") == "fib"), None)
    if fib is not None:
        addrs = [lo for s in fib.iter("S") for lo, _ in opt.ranges(s.get("v"))]
        chains = addr2line(binary, addrs, inline=True)
        if any([f[0] for f in c].count("fib") > 1 for c in chains.values()) and \
                not any(a.get("n") == "fib" for a in fib.iter("A")):
            bad["recursion"].append("fib inlined into fib (addr2line -i), no <A n=\"fib\"> in its procedure")
    if broken:
        unknown = [(s, c) for s, c, _ in callees(root) if s.get("f") == "<unknown>" and s.get("l") == "0"]
        named = [c.get("n") for s, c in unknown]
        if not unknown or not all(named):
            bad["unknown"].append(f"calls without a call site: {named or 'none'} as <A f=\"<unknown>\" l=\"0\">")
        other = [s.get("f") for s, _, _ in callees(root) if s.get("f") != "<unknown>"]
        if other:
            bad["unknown"].append(f"call sites named although DWARF has none: {sorted(set(other))}")
    return bad


def without_call_sites(cc, source, out):
    """A gcc -O2 -g build whose inlined calls have no DW_AT_call_file / DW_AT_call_line."""
    asm = os.path.join(out, "nosite.s")
    subprocess.run([cc, "-O2", "-g", "-dA", "-S", "-o", asm, source], check=True)
    text = open(asm).read()
    text, n = re.subn(r"\.uleb128\s+0x58(\s+#\s*\(DW_AT_call_file\))", r".uleb128 0x3ff0\1", text)
    text, m = re.subn(r"\.uleb128\s+0x59(\s+#\s*\(DW_AT_call_line\))", r".uleb128 0x3ff1\1", text)
    if not n or not m:
        return None
    with open(asm, "w") as f:
        f.write(text)
    binary = os.path.join(out, "gcc-O2g-nosite")
    subprocess.run([cc, "-o", binary, asm], check=True)
    return binary


def builds_of(source, out, compilers):
    builds = []
    for cc in compilers:
        for flags in FLAGS:
            binary = os.path.join(out, f"{cc}{flags.replace(' ', '')}")
            subprocess.run([cc, *flags.split(), "-o", binary, source], check=True)
            builds.append((f"{base(source)} {cc} {flags}", binary, False))
    if "gcc" in compilers:
        nosite = without_call_sites("gcc", source, out)
        if nosite:
            builds.append((f"{base(source)} gcc -O2 -g, no call sites", nosite, True))
        else:
            opt.fail(f"{base(source)}: gcc -dA: no DW_AT_call_file / DW_AT_call_line abbreviations to rename")
    return builds


def main():
    hpcdb, out, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    compilers = [cc for cc in ("gcc", "clang") if shutil.which(cc)]
    if not compilers or not shutil.which("addr2line") or not shutil.which("objdump"):
        print("skipped: no gcc/clang or no addr2line/objdump (binutils)")
        sys.exit(77)
    builds = []
    for source in sources:
        if not os.path.exists(source):
            print(f"note: {source} absent, not built")
            continue
        where = os.path.join(out, base(source))
        os.makedirs(where)
        builds += builds_of(source, where, compilers)
    equal = 0
    for tag, binary, broken in builds:
        xml = binary + ".hpcstruct"
        r = subprocess.run([hpcdb, "struct", "--no-cache", binary, "-o", xml], capture_output=True, text=True)
        if r.returncode != 0:
            opt.fail(f"{tag}: struct exited {r.returncode}: {r.stderr.strip()}")
            continue
        bad = check(tag, binary, ET.parse(xml).getroot(), broken)
        for rule, msgs in bad.items():
            for msg in msgs[:3]:
                opt.fail(f"{tag}: {rule}: {msg}")
        equal += not any(bad.values())
        print(f"{tag}: {'equal' if not any(bad.values()) else 'differs in ' + ', '.join(r for r, m in bad.items() if m)}")
    print(f"{equal} of {len(builds)} builds follow every rule")
    print(f"{0 if opt.failures else 1} passed, {1 if opt.failures else 0} failed")
    sys.exit(1 if opt.failures else 0)


if __name__ == "__main__":
    main()
