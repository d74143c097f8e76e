#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The legacy cpi database against Hatchet's values for it.

usage: check_hatchet.py HPCDB DATABASE EXPECTED_CSV [OUTDIR]

With OUTDIR, DATABASE is also converted to v4.0 there and the copy's values
are checked the same way (the writer keeps the context ids). Every row (node, rank) of EXPECTED_CSV must match our values of that rank's
profile (`hpcdb export --format csv`: profile index = rank + 1, after the
summary). Inclusive values compare directly. Hatchet's exclusive value of a
node is the metric-db's exclusive value minus that of the node's <S> children
(it shows statements as nodes of their own); the same rule is applied to our
values, with the tree taken from experiment.xml."""
import csv
import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET


def check(hpcdb, db, values_db, expected):
    out = subprocess.run([hpcdb, "export", "--format", "csv", values_db, "-o", "-"], check=True,
                         capture_output=True, text=True).stdout
    inc, exc = {}, {}
    for row in csv.DictReader(io.StringIO(out)):
        key = (int(row["context"]), int(row["profile"]) - 1)
        inc[key] = float(row["inclusive"])
        exc[key] = float(row["exclusive"])
    statements = {}
    for parent in ET.parse(os.path.join(db, "experiment.xml")).iter():
        if parent.get("i") is not None:
            statements[int(parent.get("i"))] = [int(c.get("i")) for c in parent if c.tag == "S"]
    rows = failures = 0
    for row in csv.DictReader(open(expected)):
        nid, rank = int(row["nid"]), int(row["rank"])
        ours_inc = inc.get((nid, rank), 0.0)
        ours_exc = exc.get((nid, rank), 0.0) - sum(exc.get((s, rank), 0.0) for s in statements.get(nid, []))
        want_inc, want_exc = float(row["time (inc)"]), float(row["time"])
        rows += 1
        for what, got, want in (("inclusive", ours_inc, want_inc), ("exclusive", ours_exc, want_exc)):
            if abs(got - want) > 1e-9 * max(1.0, abs(want)):
                failures += 1
                print("node %d rank %d %s: ours %r, Hatchet %r" % (nid, rank, what, got, want))
    print("%s: %d rows, %d differences" % (values_db, rows, failures))
    return failures or rows == 0


def main():
    hpcdb, db, expected = sys.argv[1:4]
    if not os.path.exists(expected):
        print("skip: %s is absent" % expected)
        return 77
    failed = check(hpcdb, db, db, expected)
    if len(sys.argv) > 4:
        copy = os.path.join(sys.argv[4], "v4")
        shutil.rmtree(copy, ignore_errors=True)
        os.makedirs(sys.argv[4], exist_ok=True)  # hpcdb creates no folders
        subprocess.run([hpcdb, "convert", db, copy], check=True)
        failed |= check(hpcdb, db, copy, expected)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
