#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb struct BINARY given as a relative path names the load module by its
# absolute path (what hpcrun's load maps record), so analyze can match it;
# --name still overrides it.
hpcdb=$1 bin=$2 out=$3
rm -rf "$out" && mkdir -p "$out" || exit 1
dir=$(dirname "$bin") base=$(basename "$bin")
(cd "$dir" && "$hpcdb" struct --no-cache --no-loops "./$base" -o "$out/rel.hpcstruct") || { echo "FAIL: struct exited $?"; exit 1; }
grep -q "<LM [^>]*n=\"$dir/$base\"" "$out/rel.hpcstruct" || { echo "FAIL: load module not named $dir/$base"; grep "<LM" "$out/rel.hpcstruct"; exit 1; }
(cd "$dir" && "$hpcdb" struct --no-cache --no-loops --name /opt/x "$base" -o "$out/named.hpcstruct") || exit 1
grep -q '<LM [^>]*n="/opt/x"' "$out/named.hpcstruct" || { echo "FAIL: --name not kept"; exit 1; }
echo OK
