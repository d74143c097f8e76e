"""Runs one pytest file of the binding's tests for ctest; exit 77 (skip) without pytest."""
import os
import sys

try:
    import pytest
except ImportError:
    print("skip: pytest is not installed for %s (Debian: python3-pytest)" % sys.executable)
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", here] + sys.argv[1:]))
