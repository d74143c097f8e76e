# SPDX-License-Identifier: BSD-3-Clause
"""Every C file of the build compiles without a warning under the project's
warning set. Reads compile_commands.json of the build folder, checks that each
command carries the warnings the project requires, and compiles each file again
with -fsyntax-only -Werror (the front end only: these warnings need no code
generation). Prints each failing file with the compiler's messages; exits 1
when there is one."""
import json
import pathlib
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

REQUIRED = ["-Wall", "-Wextra", "-Wshadow", "-Wcast-qual", "-Wswitch-enum", "-Wconversion"]

build = pathlib.Path(sys.argv[1])
commands = json.loads((build / "compile_commands.json").read_text())


def syntax_only(args):
    """The command without its launcher and output, checking syntax with -Werror."""
    if pathlib.Path(args[0]).name == "ccache":
        args = args[1:]
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a != "-c":
            out.append(a)
    return out + ["-fsyntax-only", "-Werror"]


def check(entry):
    args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
    missing = [w for w in REQUIRED if w not in args]
    if missing:
        return f"{entry['file']}: compiled without {' '.join(missing)}"
    p = subprocess.run(syntax_only(args), cwd=entry["directory"], capture_output=True, text=True)
    return f"{entry['file']}:\n{p.stderr}" if p.returncode != 0 else None


mine = [e for e in commands if e["file"].endswith(".c")]
with ThreadPoolExecutor(2) as pool:
    bad = [r for r in pool.map(check, mine) if r]
print("\n".join(bad) if bad else f"warnings: {len(mine)} files compile with {' '.join(REQUIRED)} -Werror")
sys.exit(1 if bad or not mine else 0)
