#!/usr/bin/env python3
"""Integer Cube metrics exact end to end, through the model.

check_integer_end_to_end.py HPCDB OUTDIR

A .cubex with an EXCLUSIVE UINT64 metric holding 2^53 + 1 (location 0) and
2^64 - 1 (location 1) at main, beside a DOUBLE metric. Neither fits a
double. Every output that can carry integers must print them to the last
digit: `export --format csv`, `dump` (text), `dump --json` (JSON integer
literals, read here with Python's exact integers), and `convert --to cube`,
whose file keeps them as UINT64 (the bytes are checked) and reads back to
the same digits. The summary sums them modulo 2^64 as CubeLib does
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


for check in (check_csv, check_dump, check_json):
    check(src)

# Cube -> Cube: UINT64 kept, the bits written, the same digits read back
cube2 = os.path.join(out, "rewritten.cubex")
if run("convert", "--quiet", "--force", "--to", "cube", src, cube2).returncode == 0:
    raw = open(cube2, "rb").read()
    if not re.search(rb"<uniq_name>PAPI_TOT_CYC</uniq_name>\s*<dtype>UINT64</dtype>", raw):
        fail(f"{cube2}: PAPI_TOT_CYC is not UINT64 any more")
    for v in (A, B):
        if struct.pack("<Q", v) not in raw:
            fail(f"{cube2}: the bytes of {v} are not in the file")
    for check in (check_csv, check_dump, check_json):
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
