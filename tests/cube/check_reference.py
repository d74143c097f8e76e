#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compares hpcdb's values of a .cubex with CubeLib's own dumps (run by ctest):
  check_reference.py HPCDB CUBEX INCL_CSV EXCL_CSV
every (cnode, location, metric) inclusive and exclusive value of the
reference must match within relative 1e-5 (the dumps print ~6 digits)."""
import csv, subprocess, sys

hpcdb, cube, incl, excl = sys.argv[1:5]
try:
    open(cube).close()
except OSError:
    print(f"sample data not found ({cube}): skipped")
    sys.exit(77)
r = subprocess.run([hpcdb, "export", "--format", "csv", cube, "-o", "-"], capture_output=True, text=True)
if r.returncode != 0:
    print("FAIL: export:", r.stderr)
    sys.exit(1)
ours = {}
for row in csv.DictReader(r.stdout.splitlines()):
    key = (int(row["context"]), int(row["profile"]), row["metric"])
    if key in ours:
        print("FAIL: the export lists context %d, profile %d, metric %s twice" % key)
        sys.exit(1)
    ours[key] = (float(row["inclusive"]), float(row["exclusive"]))

def close(a, b):
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-12

bad = checked = 0
for which, path in ((0, incl), (1, excl)):
    with open(path) as f:
        rows = csv.reader(f)
        header = [h.strip() for h in next(rows)]
        for row in rows:
            cnode, thread = int(row[0]), int(row[1])
            for name, text in zip(header[2:], row[2:]):
                want = float(text)
                got = ours.get((cnode, thread, name), (0.0, 0.0))[which]
                checked += 1
                if not close(got, want):
                    bad += 1
                    if bad <= 10:
                        print(f"FAIL: cnode {cnode} location {thread} {name} {'inclusive' if which == 0 else 'exclusive'}: {got} vs CubeLib {want}")
print(f"{checked - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
