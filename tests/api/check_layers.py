# SPDX-License-Identifier: BSD-3-Clause
"""Layering by symbols: from `nm` of the library's object files, which module
(src/lib/<module>/) uses a symbol another defines; each module may use only
modules on a lower floor of the order docs/architecture.md draws (the block
after "<!-- module order -->", highest floor first, one floor a line).
Modules on one floor do not use each other (the formats meet in the model).
Prints every upward or sideways use as "a -> b: symbol", exits 1 when there is one.
Usage: check_layers.py NM ARCHITECTURE_MD OBJECT..."""
import collections
import re
import subprocess
import sys

nm, doc, objects = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(doc).read()
block = re.search(r"<!-- module order -->\s*```\n(.*?)```", text, re.S)
if not block:
    sys.exit(f"{doc}: no module order block (<!-- module order --> then a fenced block)")
floors = [line.split() for line in block.group(1).splitlines() if line.strip()]
floor = {m: len(floors) - i for i, line in enumerate(floors) for m in line}

defined, used = {}, collections.defaultdict(set)
for obj in objects:
    m = re.search(r"/src/lib/([^/]+)/", obj)
    if not m:
        continue
    module = m.group(1)
    if module not in floor:
        sys.exit(f"{doc}: module {module} is on no floor of the order")
    for line in subprocess.run([nm, obj], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRGSVW":
            defined[parts[2]] = module
        elif len(parts) == 2 and parts[0] == "U":
            used[module].add(parts[1])

bad = sorted(f"{user} -> {owner}: {sym}" for user, syms in used.items() for sym in syms
             if (owner := defined.get(sym)) and owner != user and floor[owner] >= floor[user])
print("\n".join(bad) if bad else f"{len(floor)} modules on {len(floors)} floors: every use goes down")
sys.exit(1 if bad else 0)
