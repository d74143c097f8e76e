# SPDX-License-Identifier: BSD-3-Clause
"""Each file of the library (src/lib) is compiled once (compile_commands.json
of the build folder): no program compiles the library's files by path. In a
sanitized build the files the recorder shares with the library are compiled
twice, once checked for the library and once unsanitized for the recorder,
and nothing else is. The recorder (libhpcdb_record.so, preloaded into other
programs) uses no sanitizer runtime. Prints each offence; exits 1 when there
is one. Usage: check_compiled_once.py BUILD_DIR SOURCE_DIR NM RECORDER_SO"""
import collections
import json
import pathlib
import shlex
import subprocess
import sys

build, nm, recorder = pathlib.Path(sys.argv[1]), sys.argv[3], sys.argv[4]
library = str(pathlib.Path(sys.argv[2]).resolve() / "src" / "lib") + "/"
commands = json.loads((build / "compile_commands.json").read_text())
by_file = collections.defaultdict(list)
for entry in commands:
    if entry["file"].startswith(library):
        by_file[entry["file"]].append(shlex.split(entry["command"]) if "command" in entry else entry["arguments"])


def sanitized(args):
    """Whether the last -fsanitize/-fno-sanitize option of a command turns a sanitizer on."""
    last = [a for a in args if a.startswith(("-fsanitize=", "-fno-sanitize="))]
    return bool(last) and last[-1].startswith("-fsanitize=")


bad = []
for path, runs in sorted(by_file.items()):
    checked = [sanitized(r) for r in runs]
    if len(runs) > 2 or (len(runs) == 2 and checked.count(True) != 1):
        bad.append(f"{path}: compiled {len(runs)} times")
undefined = subprocess.run([nm, "-D", "--undefined-only", recorder], capture_output=True, text=True, check=True).stdout
bad += [f"{recorder}: uses {line.split()[-1]}" for line in undefined.splitlines()
        if line.split()[-1].startswith(("__asan", "__ubsan", "__sanitizer"))]
print("\n".join(bad) if bad else f"{len(by_file)} files of src/lib, each compiled once (twice: sanitized and not)")
sys.exit(1 if bad else 0)
