#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The trace view in Debian's chromium, driven by playwright-core (npm ci in
# tests/trace, or tests/view by scripts/deps.sh --browser). Skips, saying why, when a piece is missing.
# Usage: browser.sh TRACE_SERVE HPCDB ASSETS DB OUTDIR
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -x /usr/bin/chromium ] || { echo "skipped: /usr/bin/chromium is not installed (scripts/deps.sh --browser)"; exit 77; }
# playwright-core (the same pinned version) from npm ci here, or the one scripts/deps.sh --browser puts in tests/view
for d in "$here" "$here/../view"; do
  [ -d "$d/node_modules/playwright-core" ] && { PLAYWRIGHT_DIR=$(cd "$d" && pwd); export PLAYWRIGHT_DIR; break; }
done
[ -n "${PLAYWRIGHT_DIR:-}" ] || { echo "skipped: playwright-core is not installed (npm ci in tests/trace, or scripts/deps.sh --browser)"; exit 77; }
mkdir -p "$5"
exec node "$here/${HPCDB_BROWSER_SCRIPT:-browser.mjs}" "$@"
