#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb's html and flamegraph exports opened from disk in Debian's chromium,
# driven by playwright-core (tests/view's install, npm ci by scripts/deps.sh
# --browser): browser_check.mjs says what is checked. Skips, saying why, when
# a piece is missing.
# usage: browser_check.sh HPCDB DB OUTDIR
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -x /usr/bin/chromium ] || { echo "skipped: /usr/bin/chromium is not installed (scripts/deps.sh --browser)"; exit 77; }
[ -d "$here/../view/node_modules/playwright-core" ] || { echo "skipped: playwright-core is not installed (scripts/deps.sh --browser runs npm ci in tests/view)"; exit 77; }
[ -e "$2" ] || { echo "skipped: sample data not found at $2"; exit 77; }
rm -rf "$3" && mkdir -p "$3"
exec node "$here/browser_check.mjs" "$@"
