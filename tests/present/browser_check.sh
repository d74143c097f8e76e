#!/usr/bin/env bash
# Opens hpcdb's html and flamegraph exports from disk in headless Chromium:
# the page's script must run without errors and render the expected number of
# tree nodes / flame-graph frames; screenshots go to OUTDIR.
# usage: browser_check.sh HPCDB DB OUTDIR    (skips, exit 77, without chromium)
set -u
hpcdb=$1 db=$2 out=$3
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed (scripts/deps.sh --browser): skipped"; exit 77; }
[ -d "$db" ] || { echo "sample data not found at $db: skipped"; exit 77; }
rm -rf "$out" && mkdir -p "$out/profile"
fail() { echo "FAIL: $*"; exit 1; }
run() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$out/profile" "$@" 2>/dev/null; }

"$hpcdb" export --format html "$db" -o "$out/page.html" || fail "export html"
"$hpcdb" export --format flamegraph "$db" -o "$out/flame.svg" || fail "export flamegraph"
body=$(run --dump-dom "file://$out/page.html" | grep -o '<body[^>]*>')
[ -n "$body" ] || fail "chromium rendered no page"
tree=$(grep -c '<details' "$out/page.html")
frames=$(grep -o 'data-frames="[0-9]*"' "$out/page.html" | head -1 | tr -dc 0-9)
case $body in *'data-errors="0"'*) ;; *) fail "script errors: $body" ;; esac
case $body in *"data-tree-nodes=\"$tree\""*) ;; *) fail "tree: expected $tree nodes, page says $body" ;; esac
case $body in *"data-flame-frames=\"$frames\""*) ;; *) fail "flame graph: expected $frames frames, page says $body" ;; esac
svg=$(run --dump-dom "file://$out/flame.svg" | grep -o '<svg[^>]*>' | head -1)
frames=$(grep -o 'data-frames="[0-9]*"' "$out/flame.svg" | head -1 | tr -dc 0-9)
case $svg in *"data-rendered=\"$frames\""*) ;; *) fail "flame graph SVG: expected $frames frames, got $svg" ;; esac
run --window-size=1300,1400 --screenshot="$out/page.png" "file://$out/page.html" >/dev/null
run --window-size=1250,700 --screenshot="$out/flame.png" "file://$out/flame.svg" >/dev/null
[ -s "$out/page.png" ] && [ -s "$out/flame.png" ] || fail "no screenshots"
echo "screenshots: $out/page.png $out/flame.png"
echo "1 passed, 0 failed"
