#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Are the browser tests able to run? `make check` installs chromium, Node.js and
# playwright-core itself (scripts/deps.sh --browser) and sets HPCDB_REQUIRE_BROWSER=1,
# so there a missing piece is a failure; a plain ctest run skips, saying which piece.
here=$(cd "$(dirname "$0")" && pwd)
missing=
command -v node >/dev/null || missing="$missing node"
[ -x /usr/bin/chromium ] || missing="$missing /usr/bin/chromium"
[ -d "$here/node_modules/playwright-core" ] || missing="$missing playwright-core(tests/view/node_modules)"
[ -z "$missing" ] && { echo "browser tests can run: node, /usr/bin/chromium, playwright-core"; exit 0; }
echo "missing for the browser tests:$missing (scripts/deps.sh --browser installs them)"
[ "${HPCDB_REQUIRE_BROWSER:-0}" = 1 ] && exit 1
exit 77
