# SPDX-License-Identifier: BSD-3-Clause
"""libhpcdb.so exports its API and nothing else: every symbol it exports is a
function declared in include/hpcdb/, and every function declared there carries
HPCDB_API and is exported (a public function without the mark would be hidden
by -fvisibility=hidden, and one declared but never defined is a promise the
library does not keep).

The installed static library is held to the same rule: libhpcdb.a is one
relocatable object whose internal symbols were made local, so a program
linking it sees the API alone (no clash with its own `vec_push` or
`json_string`).

usage: check_symbols.py NM LIBHPCDB_SO|LIBHPCDB_A INCLUDE_DIR"""
import subprocess
import sys

from public_decls import declarations


def exported(nm, lib):
    if lib.endswith(".a"):
        out = subprocess.run([nm, "-g", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
        # an archive's listing has member headers ("x.o:") and blank lines between the symbols
        return {line.split()[-1] for line in out.splitlines() if len(line.split()) == 3}
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    nm, lib, include_dir = sys.argv[1:4]
    decls = declarations(include_dir)
    syms = exported(nm, lib)
    problems = []
    for s in sorted(syms - set(decls)):
        problems.append(f"{lib}: exports {s}, which include/hpcdb/ does not declare (hidden visibility lost?)")
    for name, (header, marked) in sorted(decls.items()):
        if not marked:
            problems.append(f"{header}: {name} is declared without HPCDB_API")
        elif name not in syms:
            problems.append(f"{header}: {name} is declared but {lib} does not export it")
    for p in problems:
        print(p)
    print(f"{len(syms)} exported symbols, {len(decls)} public declarations, {len(problems)} problems")
    return 1 if problems or not decls else 0


if __name__ == "__main__":
    sys.exit(main())
