# SPDX-License-Identifier: BSD-3-Clause
"""One source handle: outside the format modules, only src/lib/query/source*.c
chooses how a path is held (hpcdb_hpctk4_read_lazy, hpcdb_cube_open), and
neither the comparison nor the viewer reaches into the v4.0 accessor
(hpcdb_db_*): they read values through the source. Prints each offending
call as file:line: name, exits 1 when there is one."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
opening = re.compile(r"\b(hpcdb_hpctk4_read_lazy|hpcdb_cube_open)\s*\(")
accessor = re.compile(r"\b(hpcdb_db_\w+)\s*\(")
formats = ("src/lib/hpctk4/", "src/lib/cube/", "src/lib/core/")
bad = []
for path in sorted(root.glob("src/**/*.c")):
    rel = path.relative_to(root).as_posix()
    if rel.startswith(formats) or re.match(r"src/lib/query/source\w*\.c$", rel):
        continue
    no_accessor = rel.startswith(("src/lib/query/compare", "src/lib/report/", "src/view/", "src/cli/compare"))
    for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        for m in opening.finditer(line):
            bad.append(f"{rel}:{n}: {m.group(1)} (open the path with hpcdb_source_open)")
        for m in accessor.finditer(line) if no_accessor else ():
            bad.append(f"{rel}:{n}: {m.group(1)} (read values through the source)")
print("\n".join(bad) if bad else "one source handle: no other call site opens a path lazily")
sys.exit(1 if bad else 0)
