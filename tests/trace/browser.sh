#!/bin/sh
# The trace view in Debian's chromium, driven by playwright-core (npm ci in
# tests/trace). Skips, saying why, when a piece is missing.
# Usage: browser.sh TRACE_SERVE HPCDB ASSETS DB OUTDIR
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -x /usr/bin/chromium ] || { echo "skipped: /usr/bin/chromium is not installed (scripts/deps.sh --browser)"; exit 77; }
[ -d "$here/node_modules/playwright-core" ] || { echo "skipped: playwright-core is not installed (npm ci in tests/trace)"; exit 77; }
mkdir -p "$5"
exec node "$here/browser.mjs" "$@"
