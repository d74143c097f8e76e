#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The viewer in Debian's chromium, driven by playwright-core (npm ci by
# scripts/deps.sh --browser). Skips, saying why, when a piece is missing.
# Usage: browser.sh HPCDB SAMPLES OUTDIR MAKE_WIDE_DB (HPCDB_BROWSER_SCRIPT: another script of tests/view)
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -x /usr/bin/chromium ] || { echo "skipped: /usr/bin/chromium is not installed (scripts/deps.sh --browser)"; exit 77; }
[ -d "$here/node_modules/playwright-core" ] || { echo "skipped: playwright-core is not installed (scripts/deps.sh --browser runs npm ci in tests/view)"; exit 77; }
[ -d "$2/hpctoolkit-v4/cpi-mpi" ] || { echo "skipped: no sample data at $2"; exit 77; }
mkdir -p "$3"
exec node "$here/${HPCDB_BROWSER_SCRIPT:-browser.mjs}" "$@" # browser_ui.mjs takes the first three
