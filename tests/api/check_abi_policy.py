# SPDX-License-Identifier: BSD-3-Clause
"""The ABI policy's rules that a header shows (docs/api-stability.md): every
options struct and every ops table begins with `unsigned version`, and has a
HPCDB_<NAME>_VERSION macro (options structs: and an _INIT macro that sets it);
a header with any other struct says that their layouts are unstable; the
version number macro exists. New structs are checked as they appear.
usage: check_abi_policy.py INCLUDE_DIR"""
import glob
import os
import re
import sys

OTHER_STRUCT = re.compile(r"^(?:typedef )?struct (\w+) \{", re.M)
UNSTABLE = "ABI (docs/api-stability.md): the layouts of this header's structs"
STRUCT = re.compile(r"typedef struct (hpcdb_(\w+)_(options|ops)) \{\n(.*?)\n\}", re.S)


def first_field(body):
    for line in body.splitlines():
        line = line.split("/*")[0].strip()
        if line:
            return line
    return ""


def main(include):
    problems, seen = [], 0
    text = ""
    for path in sorted(glob.glob(os.path.join(include, "hpcdb", "*.h"))):
        src = open(path, encoding="utf-8").read()
        text += src
        for m in STRUCT.finditer(src):
            seen += 1
            name, stem, kind = m.group(1), m.group(2).upper(), m.group(3).upper()
            where = "%s: %s" % (os.path.basename(path), name)
            if first_field(m.group(4)) != "unsigned version;":
                problems.append(where + ": the first field is not `unsigned version;`")
            if not re.search(r"#define HPCDB_%s_%s_VERSION \d+" % (stem, kind), src):
                problems.append(where + ": no HPCDB_%s_%s_VERSION" % (stem, kind))
            if kind == "OPTIONS" and not re.search(
                    r"#define HPCDB_%s_OPTIONS_INIT\s*\\?\s*\{\s*\.version = HPCDB_%s_OPTIONS_VERSION\s*\}" % (stem, stem),
                    src):
                problems.append(where + ": no HPCDB_%s_OPTIONS_INIT setting the version" % stem)
        others = [n for n in OTHER_STRUCT.findall(src) if not re.search(r"_(options|ops)$", n)]
        if others and UNSTABLE not in src:
            problems.append("%s: %s without the unstable-layout note" % (os.path.basename(path), ", ".join(others)))
    if "#define HPCDB_VERSION_NUMBER" not in text:
        problems.append("common.h: no HPCDB_VERSION_NUMBER")
    header = re.search(r'#define HPCDB_VERSION_STRING "([^"]+)"', text)
    pyproject = open(os.path.join(include, os.pardir, "pyproject.toml"), encoding="utf-8").read()
    package = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    if not header or not package or header.group(1) != package.group(1):
        problems.append("pyproject.toml's version is not common.h's HPCDB_VERSION_STRING")
    for p in problems:
        print(p)
    print("%d options structs and ops tables checked, %d problems" % (seen, len(problems)))
    return 1 if problems or seen == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
