# SPDX-License-Identifier: BSD-3-Clause
"""Runs one pytest file of the binding's tests for ctest; exit 77 (skip) without pytest."""
import os
import sys

try:
    import pytest
except ImportError:
    print("skip: pytest is not installed for %s (Debian: python3-pytest)" % sys.executable)
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
for arg in sys.argv[1:]:
    if arg.startswith("--basetemp="):  # pytest makes the directory, not its parents
        os.makedirs(os.path.dirname(arg.split("=", 1)[1]), exist_ok=True)
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", here] + sys.argv[1:]))
