# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures of the Python binding's tests (run by ctest: tests/python/tests.cmake).

Environment: PYTHONPATH finds the built package; HPCDB_SAMPLE_DATA the sample files; HPCDB_CLI the
hpcdb command (for `hpcdb dump --json`); HPCDB_TEST_OUT a scratch directory; HPCDB_SANITIZED=1 when
the extension is built with AddressSanitizer (memory figures mean nothing then)."""
import os
import subprocess

import pytest

import hpcdb

SAMPLES = os.environ.get("HPCDB_SAMPLE_DATA", os.path.join(os.path.dirname(__file__), "../../../shared/data"))
SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def sample(rel):
    path = os.path.join(SAMPLES, rel)
    if not os.path.exists(path):
        pytest.skip("%s is absent" % path)
    return path


def readable_samples():
    """Every file or directory of the sample data that hpcdb detects as a format it reads."""
    found = []
    if not os.path.isdir(SAMPLES):
        return found
    for top in sorted(os.listdir(SAMPLES)):
        base = os.path.join(SAMPLES, top)
        if not os.path.isdir(base):
            continue
        entries = [os.path.join(top, e) for e in sorted(os.listdir(base))]
        if top == "hpcrun":
            entries += [os.path.join(top, "expected", e) for e in sorted(os.listdir(os.path.join(base, "expected")))]
        for rel in entries:
            try:
                hpcdb.detect(os.path.join(SAMPLES, rel))
            except hpcdb.Error:
                continue
            found.append(rel)
    return found


@pytest.fixture
def cli():
    path = os.environ.get("HPCDB_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("HPCDB_CLI (the hpcdb command) is not set")
    return lambda *args: subprocess.run([path] + list(args), check=True, capture_output=True, text=True).stdout


@pytest.fixture
def scratch(tmp_path):
    return tmp_path
