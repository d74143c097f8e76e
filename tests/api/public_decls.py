# SPDX-License-Identifier: BSD-3-Clause
"""The function declarations of the public headers (include/hpcdb/*.h), read
the way a compiler's first pass sees them: comments, preprocessor lines and
the bodies of braces left out, top-level statements split at ';'."""
import glob
import os
import re


def statements(text):
    """Each top-level statement of a header, white space folded."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
    text = re.sub(r'extern\s+"C"\s*\{', " ", text)
    out, depth, current = [], 0, []
    for c in text:
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
        if c == ";" and depth == 0:
            out.append(" ".join("".join(current).split()))
            current = []
        elif depth == 0 or c in "{}":
            current.append(c)
    return out


def declarations(include_dir):
    """{function name: (header, whether it carries HPCDB_API)} of every
    top-level function declaration."""
    found = {}
    for path in sorted(glob.glob(os.path.join(include_dir, "hpcdb", "*.h"))):
        for st in statements(open(path, encoding="utf-8").read()):
            if st.startswith(("typedef", "struct", "enum", "union")) or "(" not in st:
                continue
            m = re.search(r"(\w+)\s*\(", st)
            if m:
                found[m.group(1)] = (os.path.relpath(path, include_dir), st.startswith("HPCDB_API "))
    return found
