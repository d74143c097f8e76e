#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A binary stored compressed (xz, gzip, bzip2, as HPCToolkit's data keeps
# vmlinux images): hpcdb struct reads the ELF inside, the same structure as
# from the plain file (the load module named --name alike, procedures
# without DWARF in [NAME] without the compressor's suffix); a damaged or
# cut-short compressed file is refused naming it (exit 2), never a crash.
hpcdb=$1 bin=$2 out=$3
rm -rf "$out" && mkdir -p "$out" || exit 1
fail=0
"$hpcdb" struct --no-cache --name /opt/bin "$bin" -o "$out/plain.hpcstruct" || { echo "FAIL: plain: exit $?"; exit 1; }
name=$(basename "$bin")
for z in xz:xz gzip:gz bzip2:bz2; do
  tool=${z%%:*} ext=${z#*:}
  command -v $tool > /dev/null || { echo "skipped: no $tool"; exit 77; }
  $tool -c "$bin" > "$out/$name.$ext" || exit 1
  "$hpcdb" struct --no-cache --name /opt/bin "$out/$name.$ext" -o "$out/$tool.hpcstruct"
  rc=$?
  if [ $rc -ne 0 ] || ! cmp -s "$out/plain.hpcstruct" "$out/$tool.hpcstruct"; then
    echo "FAIL: $tool: exit $rc, or a structure other than the plain file's"
    fail=1
  fi
  head -c 300 "$out/$name.$ext" > "$out/cut.$tool"
  "$hpcdb" struct --no-cache "$out/cut.$tool" -o "$out/cut-$tool.hpcstruct" 2> "$out/cut-$tool.err"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q "cut.$tool" "$out/cut-$tool.err" || [ -e "$out/cut-$tool.hpcstruct" ]; then
    echo "FAIL: $tool cut short: exit $rc (want 2), message: $(cat "$out/cut-$tool.err")"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo OK
exit $fail
