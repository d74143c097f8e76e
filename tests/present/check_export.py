#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks hpcdb's exports (run by ctest):
  check_export.py HPCDB DB OUTDIR
speedscope: the file format schema's required structure, functions as frames
with file and line (no loop frames, one frame per function); chrome-trace: valid
JSON whose B/E slices nest per track, time never going back; folded: the
values are positive and sum to the root's inclusive value (from `hpcdb report --csv`)."""
import csv, json, math, os, re, subprocess, sys

hpcdb, db, outdir = sys.argv[1:4]
ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "lib", "page", "assets")
if not os.path.isdir(db):
    print(f"sample data not found at {db}: skipped")
    sys.exit(77)
os.makedirs(outdir, exist_ok=True)
failures = 0

def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)

def export(fmt):
    out = os.path.join(outdir, "out." + fmt)
    r = subprocess.run([hpcdb, "export", "--force", "--format", fmt, db, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"export {fmt} exited {r.returncode}: {r.stderr.strip()}")
        return None
    return out

def check_speedscope(path):
    d = json.load(open(path))
    if d.get("$schema") != "https://www.speedscope.app/file-format-schema.json": fail("speedscope: $schema")
    frames = d.get("shared", {}).get("frames")
    if not isinstance(frames, list) or not all(isinstance(f, dict) and isinstance(f.get("name"), str) for f in frames):
        fail("speedscope: shared.frames must be objects with a name")
        return
    # functions are the frames, with their file and line; lines and loops fold into them
    if any(f["name"].startswith("loop at ") for f in frames): fail("speedscope: a loop is a frame")
    dump = subprocess.run([hpcdb, "dump", db], capture_output=True, text=True).stdout
    with_lines = [l for l in dump.splitlines() if l.startswith("function ") and re.search(r" at .+:[1-9][0-9]*$", l)]
    if with_lines and not any("file" in f and "line" in f for f in frames): fail("speedscope: no function frame has a file and line")
    if len({(f["name"], f.get("file")) for f in frames}) != len(frames): fail("speedscope: a function has two frames")
    profiles = d.get("profiles")
    if not isinstance(profiles, list) or not profiles: fail("speedscope: no profiles")
    for p in profiles or []:
        if p.get("type") != "sampled": fail("speedscope: profile type")
        for key in ("name", "unit", "startValue", "endValue", "samples", "weights"):
            if key not in p: fail(f"speedscope: profile lacks {key}")
        if p.get("unit") not in ("none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"):
            fail("speedscope: unit")
        if len(p.get("samples", [])) != len(p.get("weights", [])): fail("speedscope: samples and weights differ in length")
        for s in p.get("samples", []):
            if not all(isinstance(i, int) and 0 <= i < len(frames) for i in s): fail("speedscope: bad frame index"); break
        if any(not isinstance(w, (int, float)) or w < 0 for w in p.get("weights", [])): fail("speedscope: bad weight")
    if "activeProfileIndex" in d and not 0 <= d["activeProfileIndex"] < len(profiles or [1]): fail("speedscope: activeProfileIndex")

def check_chrome_trace(path):
    d = json.load(open(path))
    events = d["traceEvents"] if isinstance(d, dict) else d
    stacks, last = {}, {}
    for e in events:
        ph, tid = e.get("ph"), e.get("tid")
        if ph == "M": continue
        if ph not in ("B", "E"): fail(f"chrome-trace: unexpected phase {ph}"); return
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or ts < last.get(tid, -math.inf): fail("chrome-trace: time goes back"); return
        last[tid] = ts
        if ph == "B":
            if not isinstance(e.get("name"), str): fail("chrome-trace: B without a name"); return
            stacks.setdefault(tid, []).append(e["name"])
        elif not stacks.get(tid):
            fail("chrome-trace: E without a B"); return
        else:
            stacks[tid].pop()
    if any(stacks.values()): fail("chrome-trace: slices left open")

def check_folded(path):
    total = 0.0
    for line in open(path):
        stack, _, value = line.rstrip("\n").rpartition(" ")
        if not stack: fail("folded: a line without a stack"); return
        if not float(value) > 0: fail(f"folded: a line of value {value}"); return
        total += float(value)
    r = subprocess.run([hpcdb, "report", "--csv", "--depth", "1", db], capture_output=True, text=True)
    root = float(r.stdout.splitlines()[1].split(",")[3])
    if abs(total - root) > 1e-9 * max(abs(total), abs(root)): fail(f"folded: values sum to {total}, the root is {root}")

def check_view_totals():
    """bottom-up and flat depth-0 rows partition the own costs: their exclusive
    values add up to the top-down root's inclusive value."""
    def rows(view):
        r = subprocess.run([hpcdb, "report", "--csv", "--view", view, "--top", "1000000", db], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"report --view {view} exited {r.returncode}")
            return []
        return list(csv.reader(r.stdout.splitlines()[1:]))
    root = float(rows("top-down")[0][3])
    for view in ("bottom-up", "flat"):
        total = sum(float(row[5]) for row in rows(view) if row[0] == "0")  # the first metric's exclusive
        if abs(total - root) > 1e-6 * max(abs(total), abs(root)):
            fail(f"{view}: exclusive totals {total} differ from the top-down root {root}")

check_view_totals()
for view in ("top-down", "bottom-up", "flat", "profiles"):
    r = subprocess.run([hpcdb, "report", "--json", "--view", view, db], capture_output=True, text=True)
    try:
        doc = json.loads(r.stdout)
        if not doc["rows"] or not doc["metrics"]: fail(f"report --json --view {view}: no rows or metrics")
    except (ValueError, KeyError) as e:
        fail(f"report --json --view {view}: {e}")
def trace_samples():
    r = subprocess.run([hpcdb, "dump", "--json", db], capture_output=True, text=True)
    return sum(len(t) for t in json.loads(r.stdout)["traces"].values())

has_trace = os.path.exists(os.path.join(db, "trace.db"))
if has_trace and trace_samples() == 0:  # empty traces: an error, never an empty file
    out = os.path.join(outdir, "out.chrome-trace")
    r = subprocess.run([hpcdb, "export", "--format", "chrome-trace", db, "-o", out], capture_output=True, text=True)
    if r.returncode != 2 or "nothing to export" not in r.stderr or os.path.exists(out):
        fail(f"chrome-trace of empty traces: exit {r.returncode}, {r.stderr.strip()}")
    has_trace = False
def check_html(path):
    """The viewer's page in one file: its modules, CSS and snapshot inline, nothing loaded from
    elsewhere, the snapshot's numbers report's, the flame graph and (with traces) a timeline."""
    page = open(path).read()
    if re.search(r"<link\b|\bsrc=", page): fail("html: the page loads a file (a <link> or src=)")
    # each module whole: its element ends where its source does (a "</script" in it would end it early)
    modules = dict(re.findall(r'<script type="text/plain" data-module="([^"]+)">(.*?)</script>', page, re.S))
    for m in ("app.js", "tree.js", "api_static.js"):
        if m not in modules: fail(f"html: no module {m} (has {list(modules)})")
    for m, text in modules.items():
        source = open(os.path.join(ASSETS, m)).read().replace("</script", "<\\/script")
        if text != source: fail(f"html: module {m} is not its source whole")
    if "api.js" in modules: fail("html: the server's api.js is in the page")
    m = re.search(r'<script type="application/json" id="hpcdb-snapshot">(.*?)</script>', page, re.S)
    if not m: fail("html: no snapshot"); return
    snap = json.loads(m.group(1))
    info = snap["info"]["databases"][0]
    metric = info["default_metric"]
    c = [m["name"] for m in info["metrics"]].index(metric)  # the page's metric: its values are [2c], [2c + 1]
    r = subprocess.run([hpcdb, "report", "--csv", "--depth", "1", "--metric", metric, db], capture_output=True, text=True)
    root = float(r.stdout.splitlines()[1].split(",")[3])
    for view in ("top-down", "bottom-up", "flat"):
        rows = snap["views"][view]
        kept = {row[0] for row in rows}
        if rows[0][1] is not None or any(row[1] not in kept for row in rows[1:]): fail(f"html: {view}: a node without its parent")
        if len(rows) != snap["export"]["views"][view]["kept"]: fail(f"html: {view}: the count kept is not the rows'")
        if rows[0][3][2 * c] != root: fail(f"html: {view}: the root holds {rows[0][3][2 * c]}, report {root}")
    if info["metrics"][c]["total"] != root: fail(f"html: the metric's total {info['metrics'][c]['total']}, report {root}")
    if snap["export"]["summary"] != info["access"] or not info["access"].startswith("exported page:"):
        fail(f"html: what the page holds is not said: {info['access']}")
    if '<svg id="hpcdb-flame"' not in page: fail("html: no flame graph")
    if has_trace:
        timeline = page[page.find('<svg id="trace-svg"'):]
        if "time from the first sample</text>" not in timeline or ' s</text>' not in timeline:
            fail("html: the timeline has no time axis")

def check_csv(path):
    """Long form: the header, then context,profile,metric,inclusive,exclusive rows of numbers."""
    rows = list(csv.reader(open(path)))
    if rows[:1] != [["context", "profile", "metric", "inclusive", "exclusive"]]: fail("csv: header"); return
    if len(rows) < 2: fail("csv: no rows")
    for row in rows[1:]:
        if len(row) != 5 or not row[0].isdigit() or not row[1].isdigit(): fail(f"csv: row {row}"); return
        float(row[3]), float(row[4])

def check_flamegraph(path):
    """One SVG document whose frames say their name and value."""
    svg = open(path).read()
    if not svg.lstrip().startswith(("<svg", "<?xml")) or not svg.rstrip().endswith("</svg>"): fail("flamegraph: not one SVG")
    if "<title>" not in svg: fail("flamegraph: no frame says its name")

# every export of the registry (hpcdb export --list) has its check here: a new one fails until it has
checks = {"speedscope": check_speedscope, "folded": check_folded, "chrome-trace": check_chrome_trace,
          "html": check_html, "csv": check_csv, "flamegraph": check_flamegraph}
listed = subprocess.run([hpcdb, "export", "--list"], capture_output=True, text=True, check=True).stdout.splitlines()
for line in listed:
    fmt = line.split()[0]
    if fmt not in checks: fail(f"{fmt}: no check in check_export.py"); continue
    if fmt == "chrome-trace" and not has_trace: continue
    path = export(fmt)
    if path: checks[fmt](path)
print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
