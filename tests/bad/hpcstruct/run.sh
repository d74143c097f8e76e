#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Broken structure files (cases.txt: NAME RULE LINE): `hpcdb validate` exits 1
# with one error of RULE at LINE naming the file; `hpcdb info` exits 2 with
# "FILE: line LINE: RULE: ..."; analyze with the broken file among a
# measurement's structs warns naming it and falls back.
set -u
hpcdb=$1 dir=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
failed=0 passed=0
while read -r name rule line; do
  case $name in '#'*|'') continue ;; esac
  f=$dir/$name.hpcstruct
  "$hpcdb" validate "$f" > "$out/$name.validate" 2>&1
  rc=$?
  if [ $rc -ne 1 ] || ! grep -q "^$f: offset 0x[0-9a-f]*: $rule: line $line: " "$out/$name.validate"; then
    echo "FAIL $name: validate exited $rc, expected rule $rule at line $line:"; cat "$out/$name.validate"
    failed=$((failed + 1)); continue
  fi
  "$hpcdb" info "$f" > /dev/null 2> "$out/$name.info"
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q "$f: line $line: $rule: " "$out/$name.info"; then
    echo "FAIL $name: info exited $rc, expected '$f: line $line: $rule':"; cat "$out/$name.info"
    failed=$((failed + 1)); continue
  fi
  sed -n 1p "$out/$name.validate"
  passed=$((passed + 1))
done < "$dir/cases.txt"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -ge 15 ]
