#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Integer Cube metrics add up as integers (modulo 2^64, as CubeLib).

check_integer_sums.py HPCDB OUTDIR

A .cubex with an EXCLUSIVE UINT64 hardware counter whose value at main is a
small negative delta (2^64 - 74, as PAPI counters wrap) and whose callees
hold 300 and 200: main's inclusive value is 426 at each location and 852 in
the summary (converting each value to a double first gives 1.8e19); main's
own value is the unsigned 2^64 - 74, to the last digit (`dump`). The same
for an INCLUSIVE INT64 metric, whose derived exclusive value is negative.
`info` says the metrics are integers; rewritten as Cube the metrics stay
64-bit integers and read back to the same values (hpcdb diff)."""
import os, re, struct, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bad", "cube"))
import check_bad  # noqa: E402

hpcdb, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


anchor = check_bad.ANCHOR.replace(
    "<uniq_name>visits</uniq_name><dtype>UINT64</dtype>", "<uniq_name>PAPI_TOT_CYC</uniq_name><dtype>UINT64</dtype>"
).replace("<uniq_name>time</uniq_name><dtype>DOUBLE</dtype>", "<uniq_name>delta</uniq_name><dtype>INT64</dtype>")
assert "PAPI_TOT_CYC" in anchor and "INT64" in anchor
WRAP = 2**64
exclusive = [(WRAP - 74, WRAP - 74), (300, 300), (200, 200)]  # main, foo, bar at 2 locations
inclusive = [(-5, -5), (2, 2), (1, 1)]  # INT64: main's exclusive = -5 - 2 - 1 = -8
members = [("anchor.xml", anchor.encode()),
           ("0.index", check_bad.index([0, 1, 2])), ("0.data", check_bad.plain(exclusive, "Q")),
           ("1.index", check_bad.index([0, 1, 2])), ("1.data", check_bad.plain(inclusive, "q"))]
src = os.path.join(out, "wrapped.cubex")
with open(src, "wb") as f:
    f.write(check_bad.tar(members))


def values(path):
    """{(profile, ctx id, prop id): value} from `hpcdb dump`."""
    r = subprocess.run([hpcdb, "dump", path], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"dump {path}: {r.stderr.strip()}")
        return {}
    got, profile = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r"profile (\d+): ", line)
        if m:
            profile = int(m.group(1))
        m = re.match(r"  ctx (\d+): (.*)", line)
        if m and profile is not None:
            for kv in m.group(2).split():
                k, v = kv.split("=")
                got[(profile, int(m.group(1)), int(k))] = int(v) if re.fullmatch(r"-?\d+", v) else float(v)
    return got


# prop ids: 2m point (exclusive), 2m + 1 execution (inclusive); ctx id = cnode id + 1; profile 0 the summary.
# The UINT64 delta reads as the unsigned integer it is (as CubeLib and pycubexr show it), exactly.
WANT = {(1, 1, 1): 426, (2, 1, 1): 426, (0, 1, 1): 852, (1, 1, 0): WRAP - 74, (0, 1, 0): WRAP - 148, (1, 2, 1): 300,
        (1, 1, 3): -5, (0, 1, 3): -10, (1, 1, 2): -8, (0, 1, 2): -16, (1, 2, 2): 2}

for path in (src, os.path.join(out, "rewritten.cubex")):
    if path != src:
        r = subprocess.run([hpcdb, "convert", "--quiet", "--force", "--to", "cube", src, path])
        if r.returncode != 0:
            fail("convert --to cube failed")
            continue
        with open(path, "rb") as f:
            raw = f.read()
        for dtype in (b"<dtype>UINT64</dtype>", b"<dtype>INT64</dtype>"):
            if dtype not in raw:
                fail(f"{path}: {dtype.decode()} not kept")
        r = subprocess.run([hpcdb, "diff", src, path], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"{path}: differs from {src}: {r.stdout[:400]}")
    got = values(path) if path == src else {}
    for key, want in WANT.items() if path == src else ():
        if got.get(key) != want:
            fail(f"{path}: profile {key[0]} ctx {key[1]} metric #{key[2]}: {got.get(key)} (want {want})")
    info = subprocess.run([hpcdb, "info", path], capture_output=True, text=True).stdout
    if "PAPI_TOT_CYC (unsigned integer)" not in info or "delta (signed integer)" not in info:
        fail(f"{path}: info does not say the metrics are integers")
print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
