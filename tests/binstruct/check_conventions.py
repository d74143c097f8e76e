#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb struct against the conventions HPCToolkit's hpcstruct tests state.

usage: check_conventions.py HPCDB OUTDIR SOURCE

HPCToolkit checks hpcstruct on a shared library built four ways (debug
and not, -O0 and -O3: tests/hpcstruct/meson.build) against CHECK comments
in its source (tests/hpcstruct/inlines+loops.c). SOURCE (programs/
conventions.c) holds the same kinds of constructs, written here, with
markers: /* PROC f */ on a definition line and /* END f */ on its closing
line, /* INLINE f */ on an always-inline function's definition line,
/* LOOP f */ on each loop header line of f. For gcc and clang builds at -O0 -g,
-O3 -g, -O0 and -O3 (-fPIC -shared) it checks what those comments state:
  - a procedure per function, named by it ("f", or "f [...]" from symbols),
    with debug information its line within the function's lines;
  - an inlined call: a call-site scope (n="", v="{}") holding the callee
    scope (n=f, f=the source, v="{}"), whose line is the line after the
    callee's definition line;
  - with debug information, each marked loop (l=its header line, f=the
    source) inside its function, nested as in the source, a loop around an
    inlined call holding the call;
and, whatever the build, the PLT as hpcstruct writes it: no procedure for
the lazy-binding header (nor, with IBT stubs in .plt.sec, for any of .plt),
each stub NAME@plt by its relocation, a stub without one (.plt.got)
targADDR@plt, never <unknown procedure> (as in hpcstruct's own
testmeas-loops.hpcstruct of HPCToolkit's test data: .plt 0x1020-0x1080
without entries, targ1080@plt for its .plt.got stub)."""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

# HPCToolkit's four builds, and one with IBT stubs (.plt.sec) as distributions build with -fcf-protection
BUILDS = ["-O0 -g", "-O3 -g", "-O0", "-O3", "-O2 -fcf-protection=full -Wl,-z,ibtplt"]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def marks(source):
    procs, ends, inlines, loops = {}, {}, {}, {}
    with open(source) as f:
        for n, text in enumerate(f, 1):
            for kind, name in re.findall(r"/\* (PROC|END|INLINE|LOOP) (\w+) \*/", text):
                if kind == "PROC":
                    procs[name] = n
                elif kind == "END":
                    ends[name] = n
                elif kind == "INLINE":
                    inlines[name] = n
                else:
                    loops.setdefault(name, []).append(n)
    return procs, ends, inlines, loops


def sections(binary):
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    found = {}
    for m in re.finditer(r"\]\s+(\.plt(?:\.got|\.sec)?)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", out):
        found[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    return found


def entry(p):
    m = re.match(r"\{\[0x([0-9a-f]+)-", p.get("v", ""))
    return int(m.group(1), 16) if m else None


def check_plt(tag, binary, root):
    secs = sections(binary)
    if ".plt" not in secs:
        return fail(f"{tag}: no .plt section to check (the library calls malloc, strlen, strcpy, free)")
    plt_start = secs[".plt"][0]
    named = 0
    for p in root.iter("P"):
        a = entry(p)
        if a is None or not any(lo <= a < lo + size for lo, size in secs.values()):
            continue
        name = re.sub(r" \[[^]]*\]$", "", p.get("n"))
        if a == plt_start:
            fail(f"{tag}: the PLT header at {a:#x} has an entry ({name})")
        elif ".plt.sec" in secs and plt_start <= a < plt_start + secs[".plt"][1]:
            fail(f"{tag}: the lazy-binding code of .plt at {a:#x} has an entry ({name}); the stubs are in .plt.sec")
        elif "unknown procedure" in name:
            fail(f"{tag}: the PLT stub at {a:#x} is named {name}, not targ{a:x}@plt")
        elif not name.endswith("@plt") or (name.startswith("targ") and name != f"targ{a:x}@plt"):
            fail(f"{tag}: the PLT stub at {a:#x} is named {name}")
        named += name in ("malloc@plt", "strlen@plt", "strcpy@plt", "free@plt")
    if named < 3:
        fail(f"{tag}: only {named} of the stubs of malloc, strlen, strcpy, free are named by their symbol")
    if ".plt.got" in secs and not any(entry(p) == secs[".plt.got"][0] for p in root.iter("P")):
        fail(f"{tag}: no entry for the .plt.got stub at {secs['.plt.got'][0]:#x}")


def loops_in(el):
    """Loops directly below el (through statements only), in document order."""
    return [k for k in el if k.tag == "L"]


def check_debug(tag, root, source, procs, ends, inlines, loops):
    by_name = {re.sub(r" \[[^]]*\]$", "", p.get("n")): p for p in root.iter("P")}
    for name, line in procs.items():
        p = by_name.get(name)
        if p is None:
            fail(f"{tag}: no procedure {name}")
            continue
        if not line <= int(p.get("l")) <= ends[name]:
            fail(f"{tag}: procedure {name} at line {p.get('l')}, outside its lines {line}-{ends[name]}")
    for a in root.iter("A"):
        callee = a.get("n")
        for kid in a:
            if kid.tag == "A" and kid.get("n") in inlines:
                if a.get("n") != "" or a.get("v") != "{}":
                    fail(f"{tag}: the call of {kid.get('n')} is not in a call-site scope (n=\"\", v={{}})")
        if callee in inlines:
            want = inlines[callee] + 1
            if int(a.get("l")) != want or a.get("f") != source or a.get("v") != "{}":
                fail(f"{tag}: inlined {callee}: l={a.get('l')} f={a.get('f')} v={a.get('v')}, "
                     f"want l={want} (the line after its definition) f={source} v={{}}")
    for name, want in loops.items():
        scopes = [by_name[name]] if name in procs and name in by_name else \
                 [a for a in root.iter("A") if a.get("n") == name]
        if not scopes:
            fail(f"{tag}: no scope of {name} for its loops")
            continue
        for scope in scopes:
            got, level = [], loops_in(scope)
            while level:  # the marked loops are nested one in the other, outermost first
                got.append(int(level[0].get("l")))
                if level[0].get("f") != source:
                    fail(f"{tag}: loop at line {got[-1]} of {name} has f={level[0].get('f')}")
                level = loops_in(level[0])
            if got != want:
                fail(f"{tag}: loops of {name}: {got}, want {want} nested")
    for name in ("conv_loop_call", "conv_loop_loop"):
        p = by_name.get(name)
        innermost = p
        while innermost is not None and loops_in(innermost):
            innermost = loops_in(innermost)[0]
        if innermost is p or not any(k.tag == "A" and k.get("n") == "" and
                                     any(c.tag == "A" and c.get("n") in inlines for c in k) for k in innermost):
            fail(f"{tag}: {name}'s innermost loop holds no inlined call")


def main():
    hpcdb, out, source = sys.argv[1:4]
    source = os.path.abspath(source)
    procs, ends, inlines, loops = marks(source)
    compilers = [cc for cc in ("gcc", "clang") if shutil.which(cc)]
    if not compilers or not shutil.which("readelf"):
        print("skipped: no gcc/clang or no readelf (binutils)")
        sys.exit(77)
    shutil.rmtree(out, ignore_errors=True)  # struct refuses to replace an earlier run's files
    os.makedirs(out)
    for cc in compilers:
        for flags in BUILDS:
            tag = f"{cc} {flags}"
            lib = os.path.join(out, f"libconv-{cc}{flags.replace(' ', '')}.so")
            subprocess.run([cc, *flags.split(), "-fPIC", "-shared", "-o", lib, source], check=True)
            xml = lib + ".hpcstruct"
            r = subprocess.run([hpcdb, "struct", "--force", "--no-cache", lib, "-o", xml], capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"{tag}: struct exited {r.returncode}: {r.stderr.strip()}")
                continue
            root = ET.parse(xml).getroot()
            before = len(failures)
            names = {re.sub(r" \[[^]]*\]$", "", p.get("n")) for p in root.iter("P")}
            for name in procs:
                if name not in names:
                    fail(f"{tag}: no procedure {name}")
            if "-g" in flags.split():
                check_debug(tag, root, source, procs, ends, inlines, loops)
            check_plt(tag, lib, root)
            if len(failures) == before:
                print(f"{tag}: as hpcstruct's tests state")
    print(f"{0 if failures else 1} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


main()
