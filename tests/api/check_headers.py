# SPDX-License-Identifier: BSD-3-Clause
"""Each public header compiles alone: as C11 with -pedantic -Werror, and as C++
(the headers promise extern "C" and nothing a C++ compiler rejects).

usage: check_headers.py CC CXX INCLUDE_DIR (CXX may be "" when there is none:
the C++ half is then skipped with a message)"""
import glob
import os
import subprocess
import sys

WARN = ["-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only"]


def compiles(cmd, source):
    r = subprocess.run(cmd, input=source, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def main():
    cc, cxx, include_dir = sys.argv[1:4]
    headers = sorted(glob.glob(os.path.join(include_dir, "hpcdb", "*.h")))
    langs = [("C11", [cc, "-std=c11", "-x", "c"])]
    if cxx:
        langs.append(("C++", [cxx, "-std=c++11", "-x", "c++"]))
    else:
        print("no C++ compiler found: the C++ half is skipped")
    failed = 0
    for h in headers:
        name = os.path.relpath(h, include_dir)
        # twice: the include guard must hold
        source = f'#include "{name}"\n#include "{name}"\nint hpcdb_header_check_;\n'
        for lang, cmd in langs:
            ok, err = compiles(cmd + WARN + ["-I", include_dir, "-"], source)
            if not ok:
                failed += 1
                print(f"{name}: does not compile alone as {lang}:\n{err}")
    print(f"{len(headers)} headers, {len(langs)} languages, {failed} failures")
    return 1 if failed or not headers else 0


if __name__ == "__main__":
    sys.exit(main())
