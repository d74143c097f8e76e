#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every `pip install` the documentation shows as a command works offline: it carries
# --no-build-isolation (without it pip fetches setuptools from the network; the install itself is
# tests/python/check_pip_install.sh). usage: check_pip_commands.sh SOURCE_DIR
cd "$1" || exit 2
bad=$(grep -n "pip install [-.a-z]" README.md docs/*.md pyproject.toml setup.py | grep -v -- "--no-build-isolation")
[ -z "$bad" ] || { echo "FAIL: pip install without --no-build-isolation:"; echo "$bad"; exit 1; }
echo "1 passed, 0 failed"
