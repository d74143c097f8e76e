# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb/hpcdb.h is the programs' umbrella over the public headers: no file
of the library (src/lib) and no other public header includes it; they include
the headers they use (hpcdb/common.h for the version, the status codes and the
errors), so which part uses which stays visible. Prints each such include as
file:line, exits 1 when there is one. Usage: check_umbrella.py SOURCE_DIR"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
umbrella = re.compile(r'^\s*#\s*include\s*[<"]hpcdb/hpcdb\.h[>"]')
files = sorted(root.glob("src/lib/**/*.[ch]")) + sorted(root.glob("include/hpcdb/*.h"))
bad = [f"{path.relative_to(root)}:{n}: includes hpcdb/hpcdb.h"
       for path in files if path.name != "hpcdb.h" or path.parent.name != "hpcdb"
       for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1) if umbrella.match(line)]
print("\n".join(bad) if bad else f"{len(files)} files of src/lib and include/hpcdb: none includes the umbrella")
sys.exit(1 if bad or not files else 0)
