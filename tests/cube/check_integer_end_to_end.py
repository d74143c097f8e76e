#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Integer Cube metrics exact end to end, through the model.

check_integer_end_to_end.py HPCDB OUTDIR

A .cubex with an EXCLUSIVE UINT64 metric holding 2^53 + 1 (location 0) and
2^64 - 1 (location 1) at main, beside a DOUBLE metric. Neither fits a
double. Every output that can carry integers must print them to the last
digit: `export --format csv`, `dump` (text), `dump --json` (JSON integer
literals, read here with Python's exact integers), and `convert --to cube`,
whose file keeps them as UINT64 (the bytes are checked) and reads back to
the same digits, and `report --csv` / `--json` in every view (top-down,
bottom-up, flat, profiles), whose sums and differences (main's exclusive is
its inclusive minus its children's) are integer arithmetic, also for a
wrapped counter (2^64 - 5) below main. The summary sums them modulo 2^64 as CubeLib does
(2^53 + 1 + 2^64 - 1 = 2^53). `convert` to v4.0, whose values are doubles
by format, says how many values it rounds (a warning per kind of loss)."""
import csv, io, json, os, re, struct, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bad", "cube"))
import check_bad  # noqa: E402

hpcdb, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


W = 2**64
A, B = 2**53 + 1, W - 1
anchor = check_bad.ANCHOR.replace(
    "<uniq_name>visits</uniq_name><dtype>UINT64</dtype>", "<uniq_name>PAPI_TOT_CYC</uniq_name><dtype>UINT64</dtype>")
assert "PAPI_TOT_CYC" in anchor
EXC = [(A, B), (0, 0), (0, 0)]  # main, foo, bar at 2 locations
TIME = [(1.5, 2.5), (0.5, 0.5), (0.25, 0.25)]
src = os.path.join(out, "near-2-64.cubex")
with open(src, "wb") as f:
    f.write(check_bad.tar([("anchor.xml", anchor.encode()),
                           ("0.index", check_bad.index([0, 1, 2])), ("0.data", check_bad.plain(EXC, "Q")),
                           ("1.index", check_bad.index([0, 1, 2])), ("1.data", check_bad.plain(TIME, "d"))]))


def run(*args):
    r = subprocess.run([hpcdb, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r


def check_csv(path):
    """main's row at each location: inclusive and exclusive the file's digits."""
    r = run("export", "--format", "csv", path, "-o", "-")
    rows = [x for x in csv.DictReader(io.StringIO(r.stdout)) if x["metric"] == "PAPI_TOT_CYC"]
    for loc, want in ((0, A), (1, B)):
        mine = [x for x in rows if x["profile"] == str(loc) and x["exclusive"] not in ("0", "")]
        if len(mine) != 1 or mine[0]["exclusive"] != str(want) or mine[0]["inclusive"] != str(want):
            fail(f"csv {path}: location {loc}: {mine}, want exclusive = inclusive = {want}")


def check_dump(path):
    """Every PAPI_TOT_CYC value in the text dump: the locations' exact, the summary's 2^53."""
    r = run("dump", path)
    got, profile = set(), None
    for line in r.stdout.splitlines():
        m = re.match(r"profile (\d+): (\S+)", line)
        if m:
            profile = m.group(2)
        m = re.match(r"  ctx \d+: (.*)", line)
        if m and profile:
            for kv in m.group(1).split():
                k, v = kv.split("=")
                if int(k) < 2:  # prop ids 0, 1: PAPI_TOT_CYC's point and execution
                    got.add((profile, v))
    want = {("SUMMARY", str((A + B) % W)), ("NODE", str(A)), ("NODE", str(B))}
    if got != want:
        fail(f"dump {path}: PAPI_TOT_CYC values {sorted(got)}, want {sorted(want)}")


def check_json(path):
    """dump --json: the values as JSON integer literals of all their digits."""
    r = run("dump", "--json", path)
    try:
        doc = json.loads(r.stdout)
    except ValueError as e:
        return fail(f"dump --json {path}: not JSON: {e}")
    seen = set()

    def walk(node):
        for profile, values in node.get("values", {}).items():
            for key, v in values.items():
                if key.startswith("PAPI_TOT_CYC|"):
                    if not isinstance(v, int):
                        fail(f"dump --json {path}: {profile} {key}: {v!r} is not an integer literal")
                    seen.add(v)
        for kid in node.get("children", []):
            walk(kid)

    walk(doc["tree"])
    if seen != {A, B, (A + B) % W}:
        fail(f"dump --json {path}: PAPI_TOT_CYC values {sorted(seen)}, want {sorted({A, B, (A + B) % W})}")


def report_rows(path, view, profile, fmt):
    """(name, inclusive, exclusive) of each PAPI_TOT_CYC row of `report --view VIEW --FMT`, the
    cells as Python reads them (JSON integer literals exact), and the JSON's total (CSV: None)."""
    args = ["report", "--view", view, "--metric", "PAPI_TOT_CYC", "--" + fmt, path]
    if profile is not None:
        args[1:1] = ["--profile", profile]
    out = run(*args).stdout
    if fmt == "csv":
        return [(r[2], r[3], r[5]) for r in list(csv.reader(io.StringIO(out)))[1:]], None
    try:
        doc = json.loads(out)
    except ValueError as e:
        fail(f"report --view {view} --json {path}: not JSON: {e}")
        return [], None
    rows = [(r["name"], r["values"][0]["inclusive"], r["values"][0]["exclusive"]) for r in doc["rows"]]
    return rows, doc["metrics"][0]["total"]


def check_report(path):
    """Each location alone and the summary: main's inclusive and exclusive (in the flat view its
    module's too) to the last digit in CSV and JSON; the profiles view's rows, min and max too."""
    for profile, want in (("thread=0", A), ("thread=1", B), (None, (A + B) % W)):
        for fmt in ("csv", "json"):
            lit = want if fmt == "json" else str(want)
            for view, name in (("top-down", "main"), ("bottom-up", "main"), ("flat", "main"),
                               ("flat", "<unknown module>")):
                rows, total = report_rows(path, view, profile, fmt)
                mine = [r for r in rows if r[0] == name]
                if not mine or mine[0][1:] != (lit, lit):
                    fail(f"report --view {view} --{fmt} --profile {profile} {path}: {name}: {mine}, "
                         f"want ({lit!r}, {lit!r})")
                if fmt == "json" and total != want:
                    fail(f"report --view {view} --json --profile {profile} {path}: total {total!r}, want {want}")
    for fmt in ("csv", "json"):
        rows, _ = report_rows(path, "profiles", None, fmt)
        got = {r[0]: r[1] for r in rows}
        lit = (lambda v: v) if fmt == "json" else str
        want = {"NODE 1 RANK 0 THREAD 0": lit(A), "NODE 1 RANK 0 THREAD 1": lit(B), "min": lit(A), "max": lit(B)}
        if any(got.get(k) != v for k, v in want.items()):
            fail(f"report --view profiles --{fmt} {path}: {got}, want {want} among them")


for check in (check_csv, check_dump, check_json, check_report):
    check(src)

# a wrapped counter under main (foo: 2^64 - 5, a small negative delta), the summary's sums beyond 2^53:
# main's inclusive is its own plus foo's modulo 2^64, smaller than foo's, as CubeLib adds them
WRAP = [(A, 2), (W - 5, 0), (0, 0)]
wrapped = os.path.join(out, "wrapped.cubex")
with open(wrapped, "wb") as f:
    f.write(check_bad.tar([("anchor.xml", anchor.encode()),
                           ("0.index", check_bad.index([0, 1, 2])), ("0.data", check_bad.plain(WRAP, "Q")),
                           ("1.index", check_bad.index([0, 1, 2])), ("1.data", check_bad.plain(TIME, "d"))]))
want = {"main": ((A + 2 + W - 5) % W, A + 2), "foo": (W - 5, W - 5)}
for fmt in ("csv", "json"):
    rows, _ = report_rows(wrapped, "top-down", None, fmt)
    got = {r[0]: r[1:] for r in rows if r[0] in want}
    lit = {k: v if fmt == "json" else tuple(map(str, v)) for k, v in want.items()}
    if got != lit:
        fail(f"report --{fmt} {wrapped}: {got}, want {lit}")

# Cube -> Cube: UINT64 kept, the bits written, the same digits read back
cube2 = os.path.join(out, "rewritten.cubex")
if run("convert", "--quiet", "--force", "--to", "cube", src, cube2).returncode == 0:
    raw = open(cube2, "rb").read()
    if not re.search(rb"<uniq_name>PAPI_TOT_CYC</uniq_name>\s*<dtype>UINT64</dtype>", raw):
        fail(f"{cube2}: PAPI_TOT_CYC is not UINT64 any more")
    for v in (A, B):
        if struct.pack("<Q", v) not in raw:
            fail(f"{cube2}: the bytes of {v} are not in the file")
    for check in (check_csv, check_dump, check_json, check_report):
        check(cube2)

# Cube -> v4.0: doubles by format, the rounding said
r = subprocess.run([hpcdb, "convert", "--force", "--to", "v4", src, os.path.join(out, "v4.d")], capture_output=True,
                   text=True)
if r.returncode != 0:
    fail(f"convert --to v4: exit {r.returncode}: {r.stderr.strip()}")
elif "4 integer metric value(s) beyond a double's 53 bits are rounded" not in r.stderr:
    # 2^53 + 1: main and the enclosing contexts, both flavours, at location 0 (2^64 - 1 is -1, exact)
    fail(f"convert --to v4: the rounding is not said: {r.stderr.strip()!r}")
r = subprocess.run([hpcdb, "convert", "--strict", "--force", "--to", "v4", src, os.path.join(out, "v4s.d")],
                   capture_output=True, text=True)
if r.returncode == 0:
    fail("convert --strict --to v4: accepted though it rounds integers")
print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
