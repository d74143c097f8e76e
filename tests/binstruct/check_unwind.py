#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Functions of code without symbols, from the unwind tables (and call targets).

usage: check_unwind.py HPCDB OUTDIR CASE ARGS...
  fdes BINARY...   stripped binaries (missing ones skipped, saying so): every function
                   readelf lists in .eh_frame lies whole in one procedure of struct's
                   output, for at least 95 % of the FDEs of each binary
  stripped SOURCE  SOURCE built with g++ -O2 -g, then stripped: every procedure DWARF
                   describes has the same entry and the same extent (its cold part
                   included) in the stripped binary's structure; the stripped program
                   recorded and analyzed from the binary: each function one row, none
                   named by address
  names SOURCE...  each SOURCE (.cpp: g++, .f90: gfortran, .rs: rustc, legacy and v0 mangling)
                   built -O2 -g (OpenMP where the compiler has it): every procedure has the same name from DWARF as from
                   the symbol table (a copy without DWARF), and the names NAMES lists are
                   there, demangled as c++filt and gdb print them
"""
import bisect
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def struct(hpcdb, binary, out):
    r = subprocess.run([hpcdb, "struct", "--force", binary, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"struct {binary}: {r.stderr.strip()}")
        return None
    return ET.parse(out).getroot()


def ranges(v):
    return [(int(a, 16), int(b, 16)) for a, b in re.findall(r"\[0x([0-9a-f]+)-0x([0-9a-f]+)\)", v)]


def merged(rs):
    out = []
    for lo, hi in sorted(rs):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return [tuple(r) for r in out]


def procedures(root):
    """(name, file, entry, merged extent) of every procedure: the addresses of its statements."""
    out = []
    for f in root.iter("F"):
        for p in f.findall("P"):
            rs = [r for el in p.iter() if el.tag == "S" for r in ranges(el.get("v", ""))]
            out.append((p.get("n"), f.get("n"), ranges(p.get("v"))[0][0], merged(rs)))
    return out


def fdes(binary):
    r = subprocess.run(["readelf", "--debug-dump=frames", binary], capture_output=True, text=True)
    return [(int(a, 16), int(b, 16)) for a, b in re.findall(r" FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", r.stdout)]


def case_fdes(hpcdb, out, *binaries):
    os.makedirs(out, exist_ok=True)
    for binary in binaries:
        if not os.path.exists(binary):
            print(f"skipped {binary}: not installed (scripts/deps.sh installs it)")
            continue
        root = struct(hpcdb, binary, os.path.join(out, os.path.basename(binary) + ".hpcstruct"))
        if root is None:
            continue
        spans = sorted((lo, hi, name) for name, _, _, ext in procedures(root) for lo, hi in ext)
        starts = [s[0] for s in spans]
        frames = [f for f in fdes(binary) if f[1] > f[0]]
        whole = 0
        for lo, hi in frames:
            i = bisect.bisect_right(starts, lo) - 1
            names = set()
            while 0 <= i < len(spans) and spans[i][0] < hi:
                if spans[i][1] > lo:
                    names.add(spans[i][2])
                i += 1
            covered = sum(min(hi, s[1]) - max(lo, s[0]) for s in spans[bisect.bisect_right(starts, lo) - 1:]
                          if s[0] < hi and s[1] > lo) if names else 0
            whole += len(names) == 1 and covered == hi - lo
        share = whole / len(frames) if frames else 1
        print(f"{binary}: {whole} of {len(frames)} FDEs lie whole in one procedure ({100 * share:.1f} %)")
        if share < 0.95:
            fail(f"{binary}: only {100 * share:.1f} % of the FDEs lie whole in one procedure")


def build(source, out):
    binary = os.path.join(out, "unwind_funcs")
    for flags in (["-fopenmp"], []):
        r = subprocess.run(["g++", "-O2", "-g", *flags, source, "-o", binary], capture_output=True, text=True)
        if r.returncode == 0:
            break
    else:
        print(f"skipped: g++ cannot build {source}: {r.stderr.strip()}")
        sys.exit(77)
    subprocess.run(["strip", "-o", binary + ".stripped", binary], check=True)
    return binary, binary + ".stripped"


def check_report(hpcdb, binary, entries, out):
    meas, db = os.path.join(out, "m"), os.path.join(out, "db")
    shutil.rmtree(meas, ignore_errors=True)
    shutil.rmtree(db, ignore_errors=True)
    r = subprocess.run([hpcdb, "record", "-o", meas, "--", binary, "30000000"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"record did not run here ({r.stderr.strip()}): analyze not checked")
        return
    r = subprocess.run([hpcdb, "analyze", "--quiet", meas, "-o", db], capture_output=True, text=True)
    if r.returncode != 0:
        return fail(f"analyze: {r.stderr.strip()}")
    r = subprocess.run([hpcdb, "report", "--view", "flat", "--top", "200", db], capture_output=True, text=True)
    if r.returncode != 0:
        return fail(f"report: {r.stderr.strip()}")
    base = os.path.basename(binary)
    rows = [line for line in r.stdout.splitlines() if base in line]
    by_address = [line for line in rows if re.search(re.escape(base) + r"\+0x", line)]
    if by_address:
        fail("rows named by address:\n" + "\n".join(by_address))
    spin = f"<unknown procedure> 0x{entries['spin']:x} [{base}]"
    count = sum(spin in line for line in rows)
    if count != 1:
        fail(f"{spin}: {count} rows in the flat view, not one:\n{r.stdout}")
    else:
        print(f"flat view: the hot function is one row: {spin}")


def case_stripped(hpcdb, out, source):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    debug, stripped = build(source, out)
    with_dwarf = struct(hpcdb, debug, os.path.join(out, "debug.hpcstruct"))
    without = struct(hpcdb, stripped, os.path.join(out, "stripped.hpcstruct"))
    if with_dwarf is None or without is None:
        return
    found = {entry: (name, ext) for name, _, entry, ext in procedures(without)}
    entries = {}
    for name, file, entry, ext in procedures(with_dwarf):
        if file.startswith("["):
            continue  # crt files and PLT stubs: symbols, not DWARF
        entries[name.split("(")[0]] = entry
        other = found.get(entry)
        if other is None:
            fail(f"{name} at 0x{entry:x}: no procedure there in the stripped binary")
        elif other[1] != ext:
            fail(f"{name} at 0x{entry:x}: extent {ext} with DWARF, {other[1]} stripped ({other[0]})")
        elif name.startswith("main") and not other[0].startswith("main ["):
            fail(f"{name} at 0x{entry:x}: named {other[0]} in the stripped binary, not main (from the entry point)")
        elif not name.startswith("main") and not other[0].startswith(f"<unknown procedure> 0x{entry:x} ["):
            fail(f"{name} at 0x{entry:x}: named {other[0]} in the stripped binary")
    print(f"{len(entries)} functions DWARF describes: the same entries and extents stripped")
    if "spin" not in entries:
        return fail("no procedure spin in the -g build")
    check_report(hpcdb, stripped, entries, out)


# What each program's procedures must be called, DWARF or not.
NAMES = {
    "unwind_funcs.cpp": ["spin(long)", "checked(int)", "relax(Grid&, double, int) [clone ._omp_fn.0]",
                         "relax(Grid&, double, int) [clone .constprop.0]",
                         "double accumulate_squares<double>(std::vector<double, std::allocator<double> > const&)"],
    "heat_mod.f90": ["heat::relax", "heat::relax [clone ._omp_fn.0]"],
    "rust_kernels.rs": ["rust_kernels::kernels::relax"],
}


def compile_commands(source, binary):
    """Ways to build source at -O2 -g, each with the binary it writes: OpenMP where the compiler has
    it (else without); Rust with its legacy and its v0 mangling."""
    if source.endswith(".rs"):
        rustc = ["rustc", "-C", "opt-level=2", "-g", source]
        return "rustc", [[rustc + ["-o", binary]],
                         [rustc + ["-C", "symbol-mangling-version=v0", "-o", binary + "-v0"]]]
    compiler = "gfortran" if source.endswith(".f90") else "g++"
    return compiler, [[[compiler, "-O2", "-g", "-fopenmp", source, "-o", binary],
                       [compiler, "-O2", "-g", source, "-o", binary]]]


def case_names(hpcdb, out, *sources):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for source in sources:
        base = os.path.basename(source)
        compiler, builds = compile_commands(source, os.path.join(out, base.split(".")[0]))
        if not shutil.which(compiler):
            print(f"skipped {base}: no {compiler} (scripts/deps.sh installs it)")
            continue
        for attempts in builds:
            for command in attempts:
                r = subprocess.run(command, capture_output=True, text=True)
                if r.returncode == 0:
                    break
            else:
                fail(f"{compiler} cannot build {source}: {r.stderr.strip()}")
                continue
            check_names(hpcdb, base, command[command.index("-o") + 1])


def check_names(hpcdb, base, binary):
    """binary and a copy of it without DWARF name every procedure alike."""
    subprocess.run(["objcopy", "--strip-debug", binary, binary + ".nodwarf"], check=True)
    with_dwarf = struct(hpcdb, binary, binary + ".hpcstruct")
    without = struct(hpcdb, binary + ".nodwarf", binary + ".nodwarf.hpcstruct")
    if with_dwarf is None or without is None:
        return
    suffix = f" [{os.path.basename(binary)}.nodwarf]"
    symbols = {entry: name[:-len(suffix)] if name.endswith(suffix) else name
               for name, _, entry, _ in procedures(without)}
    dwarf = {entry: name for name, file, entry, _ in procedures(with_dwarf) if not file.startswith("[")}
    for entry, name in sorted(dwarf.items()):
        if symbols.get(entry) != name:
            fail(f"{base}: 0x{entry:x} is {name} from DWARF, {symbols.get(entry)} from the symbol table")
    for name in NAMES.get(base, []):
        if name not in dwarf.values():
            fail(f"{base}: no procedure {name}: {sorted(dwarf.values())}")
    shown = sorted(n for n in dwarf.values() if n in NAMES.get(base, []))
    print(f"{os.path.basename(binary)}: {len(dwarf)} procedures named alike from DWARF and symbols, {shown} among them")


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    hpcdb, out, case, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    {"fdes": case_fdes, "stripped": case_stripped, "names": case_names}[case](hpcdb, out, *args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
