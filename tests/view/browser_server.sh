#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# browser_server.mjs in Debian's chromium (playwright-core from tests/view's
# npm ci). Skips, saying why, when a piece is missing.
# Usage: browser_server.sh HPCDB SAMPLES OUTDIR
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -x /usr/bin/chromium ] || { echo "skipped: /usr/bin/chromium is not installed (scripts/deps.sh --browser)"; exit 77; }
[ -d "$here/node_modules/playwright-core" ] || { echo "skipped: playwright-core is not installed (scripts/deps.sh --browser runs npm ci in tests/view)"; exit 77; }
[ -d "$2/hpctoolkit-v4/cpi-mpi" ] || { echo "skipped: no sample data at $2"; exit 77; }
mkdir -p "$3"
exec node "$here/browser_server.mjs" "$@"
