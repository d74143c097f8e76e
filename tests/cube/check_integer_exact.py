#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Integer Cube metrics exact to the last unit: values at 2^64 - k.

check_integer_exact.py HPCDB OUTDIR   (PYTHONPATH: the built hpcdb package)

A .cubex with an EXCLUSIVE and an INCLUSIVE UINT64 metric whose values sit
near 2^64 (2^64 - 74, 2^64 - (2^60 + 3), 2^63 + 11, ...): most of them and
of their sums are beyond a double's 53 bits. hpcdb.open_cube(...).matrix
must give uint64 matrices (as pycubexr types UINT64) whose stored flavour is
the file's and whose other flavour is CubeLib's modulo-2^64 arithmetic
(inclusive = own + children's, exclusive = own - children's), compared here
with Python's integers. The model carries the same integers exactly (its
doubles plus the integers they round): `export --format csv` gives every
value's digits (check_integer_end_to_end.py covers dump, convert)."""
import csv, io, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bad", "cube"))
import check_bad  # noqa: E402

cli, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


W = 2**64
anchor = check_bad.ANCHOR.replace(
    "<uniq_name>visits</uniq_name><dtype>UINT64</dtype>", "<uniq_name>PAPI_L2_DCM</uniq_name><dtype>UINT64</dtype>"
).replace("<uniq_name>time</uniq_name><dtype>DOUBLE</dtype>", "<uniq_name>PAPI_TOT_INS</uniq_name><dtype>UINT64</dtype>")
# cnodes main (0) -> foo (1), bar (2); two locations
EXC = [(W - 74, W - (2**60 + 3)), (300, 2**62 + 7), (200, 2**63 + 11)]  # EXCLUSIVE stored
INC = [(W - 5, 2**63 + 2**62 + 9), (W - 2, 2**62 + 1), (1, 2**62 + 3)]  # INCLUSIVE stored
path = os.path.join(out, "near-2-64.cubex")
with open(path, "wb") as f:
    f.write(check_bad.tar([("anchor.xml", anchor.encode()),
                           ("0.index", check_bad.index([0, 1, 2])), ("0.data", check_bad.plain(EXC, "Q")),
                           ("1.index", check_bad.index([0, 1, 2])), ("1.data", check_bad.plain(INC, "Q"))]))

KIDS = {0: [1, 2], 1: [], 2: []}
want = {
    ("PAPI_L2_DCM", False): EXC,
    ("PAPI_L2_DCM", True): [tuple((EXC[c][l] + sum(EXC[k][l] for k in KIDS[c])) % W for l in range(2)) for c in range(3)],
    ("PAPI_TOT_INS", True): INC,
    ("PAPI_TOT_INS", False): [tuple((INC[c][l] - sum(INC[k][l] for k in KIDS[c])) % W for l in range(2)) for c in range(3)],
}

# Python: exact uint64 matrices
try:
    import hpcdb
    import numpy as np
except ImportError as e:
    print(f"skipped: {e} (the hpcdb package or NumPy)")
    sys.exit(77)
cube = hpcdb.open_cube(path)
for (metric, inclusive), rows in want.items():
    m = cube.matrix(metric, inclusive=inclusive)
    if m.dtype != np.uint64:
        fail(f"python: {metric} {'inclusive' if inclusive else 'exclusive'}: dtype {m.dtype}, want uint64")
    got = [tuple(int(v) for v in row) for row in m.tolist()]
    if got != [tuple(r) for r in rows]:
        fail(f"python: {metric} {'inclusive' if inclusive else 'exclusive'}: {got}, want {rows}")


# Python through the model: Experiment.values() gives the same integers, typed uint64 (the model's
# context of cnode c is c + 1, below the entry; its thread profile of location l is l + 1, after the summary)
exp = hpcdb.open(path)
vals = exp.values(metric=["PAPI_L2_DCM", "PAPI_TOT_INS"])
for (metric, inclusive), rows in want.items():
    cols = [k for k in vals.columns if k.split("|")[0] == metric and
            k.split("|")[1] == ("execution" if inclusive else "point")]
    if len(cols) != 1:
        fail(f"python values(): {metric}: columns {list(vals.columns)}")
        continue
    col = vals[cols[0]]
    if col.dtype != np.uint64:
        fail(f"python values(): {cols[0]}: dtype {col.dtype}, want uint64")
    for c in range(3):
        for loc in range(2):
            got = int(col.get((c + 1, loc + 1), 0))
            if got != rows[c][loc]:
                fail(f"python values(): {cols[0]} cnode {c} location {loc}: {got}, want {rows[c][loc]}")
for metric in ("PAPI_L2_DCM", "PAPI_TOT_INS"):
    m = exp.matrix(metric, dense=True)  # inclusive; rows in exp.contexts' order
    row_of = {cid: i for i, cid in enumerate(exp.contexts.index)}
    got = [tuple(int(m[row_of[c + 1], loc]) for loc in range(2)) for c in range(3)]
    if m.dtype != np.uint64 or got != [tuple(r) for r in want[(metric, True)]]:
        fail(f"python matrix(): {metric}: {m.dtype} {got}, want uint64 {want[(metric, True)]}")
# CSV: thread profiles 0 and 1 are the two locations; every value exact, unsigned as UINT64 reads
r = subprocess.run([cli, "export", "--format", "csv", path, "-o", "-"], capture_output=True, text=True)
if r.returncode != 0:
    fail(f"export csv: {r.stderr.strip()}")
elif "beyond a double" in r.stderr:
    fail(f"export csv: warns of rounding though the model keeps the integers: {r.stderr.strip()!r}")
else:
    rows = {(x["context"], x["profile"], x["metric"]): x for x in csv.DictReader(io.StringIO(r.stdout))}
    for (metric, inclusive), values in want.items():
        for c in range(3):
            for loc in range(2):
                v = values[c][loc]
                got = rows.get((str(c), str(loc), metric), {}).get("inclusive" if inclusive else "exclusive", "0")
                if got != str(v):
                    fail(f"csv: {metric} cnode {c} location {loc} {'inclusive' if inclusive else 'exclusive'}: "
                         f"{got}, want {v}")
print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
