#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs one of tests/view's browser scripts (Debian's chromium driven by
# playwright-core, npm ci by scripts/deps.sh --browser) with the script's own
# arguments; skips, saying which piece is missing, when the machine lacks one.
# Usage: browser.sh SCRIPT.mjs ARGS...
here=$(cd "$(dirname "$0")" && pwd)
script=$1
shift
missing=$(HPCDB_REQUIRE_BROWSER=0 "$here/browser_available.sh") || { echo "skipped: $missing"; exit 77; }
exec node "$here/$script" "$@"
