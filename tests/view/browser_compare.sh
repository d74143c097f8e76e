#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb view A B in Debian's chromium (browser_compare.mjs), with playwright-core
# from scripts/deps.sh --browser. Skips, saying why, when a piece is missing.
# Usage: browser_compare.sh HPCDB OUTDIR GEN_RUNS
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -x /usr/bin/chromium ] || { echo "skipped: /usr/bin/chromium is not installed (scripts/deps.sh --browser)"; exit 77; }
[ -d "$here/node_modules/playwright-core" ] || { echo "skipped: playwright-core is not installed (scripts/deps.sh --browser runs npm ci in tests/view)"; exit 77; }
mkdir -p "$2"
exec node "$here/browser_compare.mjs" "$@"
