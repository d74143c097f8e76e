#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# dump --json of generated v4.0 databases: from cct.db (the thread values read
# per context) the same bytes as through the model (the same database without
# cct.db); a damaged cct.db is an error (exit 2) that leaves -o FILE as it
# was (absent, or the previous file) and no temporary file beside it; the
# same for export --format csv.
# Usage: dump_json_cct.sh HPCDB GEN_V4DB OUT
set -u
hpcdb=$1 gen=$2 out=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out"

# profile counts below and above one radix pass (2048), identities that sort
# apart from profile order ("RANK 10" before "RANK 2"), sparse and dense values
for args in "--profiles 40 --contexts 600 --metrics 3 --density 0.3 --seed 3" \
            "--profiles 12 --contexts 300 --metrics 2 --density 1.0 --seed 5" \
            "--profiles 2100 --contexts 40 --metrics 1 --density 0.5 --seed 7"; do
  db=$out/db
  rm -rf "$db" "$out/model"
  # shellcheck disable=SC2086
  "$gen" $args -o "$db" > /dev/null || fail "gen_v4db $args"
  mkdir -p "$out/model" && cp "$db"/meta.db "$db"/profile.db "$out/model"/
  "$hpcdb" dump --json --force "$db" -o "$out/cct.json" || fail "dump --json from cct.db ($args)"
  "$hpcdb" dump --json "$out/model" > "$out/model.json" || fail "dump --json through the model ($args)"
  cmp "$out/cct.json" "$out/model.json" || fail "the two paths differ ($args)"
done

# damaged: every context's value block points past the end of cct.db
python3 - "$db/cct.db" <<'PY' || fail "patching cct.db"
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
sec = struct.unpack_from("<Q", data, 24)[0]
p, n, stride = struct.unpack_from("<QI", data, sec) + (data[sec + 0xc],)
for i in range(n):
    struct.pack_into("<Q", data, p + i * stride + 8, 1 << 62)
open(path, "wb").write(data)
PY
"$hpcdb" dump --json "$db" -o "$out/bad.json" 2> "$out/stderr"
status=$?
[ "$status" = 2 ] || fail "damaged cct.db: exit $status, not 2"
[ ! -e "$out/bad.json" ] || fail "damaged cct.db: -o FILE was left behind"
grep -q "cct.db.*values-bounds" "$out/stderr" || { cat "$out/stderr"; fail "damaged cct.db: the message names no file and rule"; }
echo previous > "$out/kept.json"
"$hpcdb" dump --json --force "$db" -o "$out/kept.json" 2> /dev/null && fail "damaged cct.db: dump -o succeeded"
[ "$(cat "$out/kept.json")" = previous ] || fail "damaged cct.db: dump -o changed the previous FILE"
# the streamed CSV reads profile.db, not cct.db: damage profile.db's values instead
cp "$out/kept.json" "$out/kept.csv"
head -c 300 "$db/profile.db" > "$out/short" && cp "$out/short" "$db/profile.db"
"$hpcdb" export --format csv --force "$db" -o "$out/kept.csv" 2> /dev/null && fail "truncated profile.db: export succeeded"
[ "$(cat "$out/kept.csv")" = previous ] || fail "truncated profile.db: export -o changed the previous OUT"
ls "$out" | grep -q "tmp-" && fail "a temporary file was left behind: $(ls "$out")"
echo "ok"
