# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb view's JSON routes without a browser: every route with good and
bad input, the security checks, and 1,000 requests from 16 clients with the
server's resident memory flat; hpcdb view A B's comparison routes against
hpcdb compare --csv. Usage: test_api.py HPCDB MAKE_PATHS_DB SAMPLES OUTDIR GEN_RUNS"""
import json
import os
import shutil
import sys
import threading
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import Server  # noqa: E402

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print(f"FAILED: {what}")


def answer(s, path, status=200, **kw):
    st, headers, body = s.get(path, **kw)
    check(st == status, f"{path}: status {st}, wanted {status}: {body[:200]!r}")
    if headers.get("Content-Type", "").startswith("application/json"):
        doc = json.loads(body)
        if status >= 400:
            check(isinstance(doc.get("error"), str) and doc["error"], f"{path}: a 4xx without an error text")
        return doc
    return body


def q(**args):
    return urllib.parse.urlencode(args)


def routes(s):
    info = answer(s, "/api/info")
    db = info["databases"][0]
    check(db["access"] == "v4.0 mapped", f"a v4.0 database is queried in place, not {db['access']}")
    metric = db["default_metric"]
    check(metric == "CPUTIME (sec)", f"default metric {metric}")
    top = answer(s, "/api/children?" + q(node=0, limit=5))
    check(top["parent"]["name"] == "<program root>" and top["total"] == 2, "the root's children")
    values = [r["values"][0][0] for r in top["rows"]]
    check(values == sorted(values, reverse=True), "sorted by inclusive, largest first")
    asc = answer(s, "/api/children?" + q(node=0, order="asc"))
    check([r["values"][0][0] for r in asc["rows"]] == sorted(values), "ascending")
    exc = answer(s, "/api/children?" + q(node=top["rows"][0]["node"], sort="exclusive"))
    check(all(exc["rows"][i]["values"][0][1] >= exc["rows"][i + 1]["values"][0][1] for i in range(len(exc["rows"]) - 1)), "by exclusive")
    page = answer(s, "/api/children?" + q(node=0, offset=1, limit=1))
    check(len(page["rows"]) == 1 and page["rows"][0]["node"] == top["rows"][1]["node"], "paging")
    for view in ("bottom-up", "flat"):
        v = answer(s, "/api/children?" + q(view=view, node=0, sort="exclusive", limit=3))
        check(v["total"] > 0 and len(v["rows"]) <= 3, f"{view} rows")
        kids = answer(s, "/api/children?" + q(view=view, node=v["rows"][0]["node"]))
        check(kids["total"] == v["rows"][0]["children"], f"{view} members")
    two = answer(s, "/api/children?" + q(node=0, metrics="CPUTIME (sec)\n$0 * 1000"))
    check(abs(two["rows"][0]["values"][1][0] - 1000 * two["rows"][0]["values"][0][0]) < 1e-6, "a formula column")
    check(all(m is None or "total" not in m for m in db["metrics"]), "info lists metrics without totals (read lazily)")
    f = answer(s, "/api/formula?" + q(expr='"CPUTIME (sec)" * 2'))
    one = answer(s, "/api/formula?" + q(expr="CPUTIME (sec)"))
    check(abs(f["metric"]["total"] - 2 * one["metric"]["total"]) < 1e-12 and one["metric"]["total"] > 0, "formula total")
    hot = answer(s, "/api/hotpath?" + q(node=0))
    check(len(hot["path"]) > 2 and hot["path"][0] == 0, "hot path")
    node = hot["path"][-1]
    path = answer(s, "/api/path?" + q(node=node))
    check(path["path"][0] == node and path["path"][-1] == 0, "path to the root")
    sp = answer(s, "/api/spread?" + q(node=hot["path"][2]))
    check(sp["profiles"] == 16 and sp["min"] <= sp["median"] <= sp["max"] and sum(sp["bins"]) == 16, "spread")
    check(len(sp["points"]) == 16 and all(sp["points"][i][0] <= sp["points"][i + 1][0] for i in range(15)), "sorted points")
    # one profile's own tree, as report --profile prints it
    import subprocess
    prof = max(sp["points"], key=lambda p: p[0])
    own = answer(s, "/api/children?" + q(node=0, profile=prof[1]))
    csv = subprocess.run([HPCDB, "report", "--csv", "--metric", metric, "--profile", prof[2], DB], capture_output=True, text=True).stdout
    depth1 = [line.split(",") for line in csv.splitlines()[1:] if line.startswith("1,") and line.split(",")[1]]
    check(len(depth1) > 0 and [float(x[3]) for x in depth1] == [r["values"][0][0] for r in own["rows"][:len(depth1)]],
          f"profile {prof[2]}: the root's children as report --profile prints them")
    check(own["parent"]["values"][0][0] != top["parent"]["values"][0][0], "a profile's total is not the program's")
    answer(s, "/api/children?" + q(node=0, profile=999), 404)
    answer(s, "/api/children?" + q(node=0, profile="x"), 400)
    hits = answer(s, "/api/search?" + q(re="^main$"))
    check(hits["total"] >= 1 and all(h["name"] == "main" for h in hits["hits"]), "search")
    # the source of a node with a file
    with_file = None
    for n in range(0, 206):
        r = answer(s, "/api/children?" + q(node=n, limit=50))
        with_file = next((x for x in r["rows"] if "file" in x and x["name"].startswith("cpi.c")), None)
        if with_file:
            break
    check(with_file is not None, "a node in cpi.c")
    if with_file:
        src = answer(s, "/api/source?" + q(file=with_file["file"]))
        check(src["available"] and "MPI_Init" in src["text"], "cpi.c from the database's src/")
        check(len(src["lines"]) > 0, "per-line values")

    # bad input: 4xx with a JSON error, never a crash
    for path, status in [
        ("/api/children?" + q(node=99999), 404), ("/api/children?" + q(node="-1"), 400), ("/api/children?" + q(node="1x"), 400),
        ("/api/children?" + q(node="99999999999"), 400), ("/api/children?" + q(limit=100000), 400),
        ("/api/children?" + q(view="sideways"), 400), ("/api/children?" + q(sort="up"), 400),
        ("/api/children?" + q(order="random"), 400), ("/api/children?" + q(metric="no such metric"), 400),
        ("/api/children?" + q(metric="$0 +"), 400), ("/api/children?" + q(metric="(((1"), 400),
        ("/api/children?" + q(db=1), 404), ("/api/children?" + q(db=7), 400), ("/api/children?" + q(sort_col=3), 400),
        ("/api/formula?" + q(expr="$0 $0"), 400), ("/api/formula", 400), ("/api/formula?" + q(expr="$99"), 400),
        ("/api/spread?" + q(node=99999), 404), ("/api/spread?" + q(flavour="x"), 400),
        ("/api/search", 400), ("/api/search?" + q(re="("), 400), ("/api/search?" + q(re="a" * 600), 400),
        ("/api/hotpath?" + q(node=99999), 404), ("/api/path?" + q(node=99999), 404),
        ("/api/source?" + q(file=9999), 404), ("/api/source?" + q(file="../../etc/passwd"), 400),
        ("/api/source?" + q(file="/etc/passwd"), 400), ("/api/source?file=1%2F..%2F..", 400),
        ("/api/csv?" + q(node=99999), 404), ("/api/csv?" + q(view="sideways"), 400), ("/api/csv?" + q(sort="up"), 400),
        ("/api/csv?" + q(metric="no such metric"), 400), ("/api/csv?" + q(group="rank="), 400),
        ("/api/groups?" + q(node=99999), 404), ("/api/groups?" + q(by="colour"), 400), ("/api/groups?" + q(flavour="x"), 400),
        ("/api/children?" + q(group="rank=0-"), 400), ("/api/children?" + q(group="rank=999"), 404),
        ("/api/children?" + q(group="thread=0x"), 400), ("/api/search?" + q(re="main", paths=2), 400),
        ("/api/nosuch", 404), ("/nosuch", 404), ("/assets/../../etc/passwd", 404), ("/assets/%2e%2e%2fetc%2fpasswd", 404),
        ("/assets/..%2F..%2Fetc%2Fpasswd", 404),
    ]:
        answer(s, path, status)
    check(s.get("/", method="POST")[0] == 405, "POST refused")


def security(s):
    check(s.get("/api/info", token=False)[0] == 403, "no token: refused")
    st, _, _ = s.get("/api/info?token=" + "0" * 32, token=False)
    check(st == 403, "a wrong token: refused")
    check(s.get("/api/info", host=f"evil.example:{s.port}")[0] == 403, "a foreign Host (DNS rebinding): refused")
    check(s.get("/api/info", host="127.0.0.1:1")[0] == 403, "another port in Host: refused")
    check(s.get("/api/info", host=f"localhost:{s.port}")[0] == 200, "localhost:PORT: served")
    st, headers, body = s.get("/")
    check(st == 200 and b"<title>hpcdb view</title>" in body, "the page")
    check("hpcdb_token=" in headers.get("Set-Cookie", "") and "HttpOnly" in headers["Set-Cookie"], "the token becomes a cookie")
    check(headers.get("Referrer-Policy") == "no-referrer", "no token in referrers")
    import http.client
    c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
    c.request("GET", "/api/info", headers={"Cookie": "hpcdb_token=" + s.token})
    check(c.getresponse().status == 200, "the cookie alone is enough")
    for asset in ("app.js", "tree.js", "style.css"):
        st, headers, _ = s.get("/assets/" + asset)
        check(st == 200 and "charset=utf-8" in headers["Content-Type"], f"asset {asset}")
    # a link with access: the page's files without the token, the data with it in a header only
    st, headers, _ = s.get("/", token=False)
    check(st == 200 and "Set-Cookie" not in headers, "the page's files need no token and set no cookie")
    check(s.get("/api/access", token=False)[0] == 403, "/api/access without the token: refused")
    c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
    c.request("GET", "/api/access", headers={"X-Hpcdb-Token": s.token})
    r = c.getresponse()
    body = json.loads(r.read())
    check(r.status == 200 and body == {"token": s.token} and "HttpOnly" in (r.getheader("Set-Cookie") or ""),
          "the token in a header: the token back and the cookie")
    c.request("GET", "/api/info", headers={"X-Hpcdb-Token": "0" * 32})
    r = c.getresponse()
    r.read()
    check(r.status == 403, "a wrong token in the header: refused")


def sources(hpcdb, make_paths_db, out):
    db = os.path.join(out, "paths.d")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    if os.spawnv(os.P_WAIT, make_paths_db, [make_paths_db, db]) != 0:
        check(False, "make_paths_db")
        return
    os.makedirs(os.path.join(db, "src"), exist_ok=True)
    with open(os.path.join(db, "src", "ok.c"), "w") as f:
        f.write("int ok;\n")
    with open(os.path.join(out, "secret.c"), "w") as f:
        f.write("SECRET\n")
    os.symlink(os.path.join(out, "secret.c"), os.path.join(db, "src", "link.c"))
    s = Server(hpcdb, db)
    try:
        files = {}
        for r in answer(s, "/api/children?" + q(node=1))["rows"]:
            pass
        for k in range(3):
            files[k] = answer(s, "/api/source?" + q(file=k))
        check(files[0]["available"] and files[0]["text"] == "int ok;\n", "src/ok.c served")
        check(not files[1]["available"] and "SECRET" not in json.dumps(files[1]), "a '..' path refused")
        check(not files[2]["available"] and "SECRET" not in json.dumps(files[2]), "a symlink out of src/ refused")
    finally:
        s.stop()


def spread_sums(s, what):
    """The values over the profiles add up to the whole program's (summary) value of the node."""
    top = answer(s, "/api/children?" + q(node=0, limit=3))
    for row in top["rows"][:2]:
        sp = answer(s, "/api/spread?" + q(node=row["node"]))
        if sp["profiles"] == 0 or sp["profiles"] > 256:
            continue
        total = sum(p[0] for p in sp["points"])
        inc = row["values"][0][0]
        # legacy XML stores the summary as rounded text: 1e-6 relative
        check(abs(total - inc) <= 1e-6 * max(abs(inc), 1), f"{what}: node {row['node']}: profiles sum to {total}, summary {inc}")


def damaged(hpcdb, samples, out):
    """A database whose files shrink under the server: error answers, the server stays up."""
    src = os.path.join(samples, "hpctoolkit-v4", "cpi-mpi")
    db = os.path.join(out, "shrinking.d")
    shutil.copytree(src, db)
    # the route a SIGBUS interrupts leaves what it had allocated (src/view/guard.c): no leak check
    other = os.path.join(samples, "hpctoolkit-legacy", "cpi-mpi")  # and compared: the comparison is made after the damage
    s = Server(hpcdb, db, other, env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    try:
        answer(s, "/api/children?" + q(node=0))
        for name in ("cct.db", "profile.db", "meta.db"):
            with open(os.path.join(db, name), "r+b") as f:
                f.truncate(64)
        for path in ("/api/spread?" + q(node=5), "/api/children?" + q(node=0, metric="$0*3"), "/api/children?" + q(view="flat")):
            st, _, body = s.get(path)
            check(st in (500, 503) and "error" in json.loads(body), f"{path} on a shrunk database: status {st}")
        st, _, body = s.get("/api/compare/children?" + q(view="flat"))  # a file read short (422), or SIGBUS (500, 503)
        check(st in (422, 500, 503) and "error" in json.loads(body), f"a comparison of a shrunk database: status {st}")
        st, _, _ = s.get("/api/info")
        check(st in (200, 503), f"the server still answers after the files shrank ({st})")
        check(s.proc.poll() is None, "the server is alive")
    finally:
        check(s.stop() == 0, "stops after the damage")


def command_line(hpcdb, db):
    """hpcdb view's options, and hpcdb report --metric FORMULA (the same expression engine)."""
    import subprocess
    run = lambda *a: subprocess.run([hpcdb, *a], capture_output=True, text=True, timeout=60)
    h = run("view", "--help")
    check(h.returncode == 0 and "SYNOPSIS" in h.stdout and "--bind ADDR" in h.stdout, "view --help")
    for args in (["view"], ["view", "--port", "x", db], ["view", "--port", "70000", db], ["view", "--frob", db],
                 ["view", "/nonexistent/db"], ["view", db, db, db]):
        r = run(*args)
        check(r.returncode == 2 and r.stderr, f"{' '.join(args[:3])}: exit {r.returncode}")
    r = run("report", "--csv", "--metric", "CPUTIME (sec)", "--metric", '"CPUTIME (sec)" * 1000 / 2', db)
    check(r.returncode == 0, f"report with a formula: {r.stderr}")
    rows = [line.split(",") for line in r.stdout.splitlines()[1:]]
    check(len(rows) > 5 and all(abs(float(x[6]) - 500 * float(x[3])) <= 1e-9 * abs(float(x[6])) + 1e-12 for x in rows),
          "the formula column is 500 x the metric's")
    r = run("report", "--view", "profiles", "--metric", "$0 * 2", db)
    check(r.returncode == 2 and "not formulas" in r.stderr, f"the profiles view refuses a formula: {r.stderr}")
    r = run("report", "--metric", "$0 * (2", db)
    check(r.returncode == 2 and "offset 7: expected ')'" in r.stderr, f"report refuses a bad formula: {r.stderr}")


def other_formats(hpcdb, samples):
    for path, access in [("cube/time.p4.cubex", "cube"), ("cube/scorep-cpi.cubex", "cube"),
                         ("hpctoolkit-legacy/cpi-mpi", "model"),
                         ("hpcrun/small.m", "v4.0 mapped")]:  # measurements: analyzed first
        full = os.path.join(samples, path)
        if not os.path.exists(full):
            print(f"note: {path} absent, not checked")
            continue
        s = Server(hpcdb, full)
        try:
            info = answer(s, "/api/info")
            check(info["databases"][0]["access"] == access, f"{path}: access {info['databases'][0]['access']}")
            check(answer(s, "/api/children?" + q(node=0))["total"] > 0, f"{path}: the root has children")
            spread_sums(s, path)
            if access == "cube":
                profile_tree_matches_spread(s, path)
        finally:
            s.stop()


def profile_tree_matches_spread(s, what):
    """A profile's own tree (a location's column) holds the values the spread (a cnode's row) gives it."""
    top = answer(s, "/api/children?" + q(node=0, limit=3))
    for row in top["rows"][:2]:
        for flavour, col in (("inclusive", 0), ("exclusive", 1)):
            sp = answer(s, "/api/spread?" + q(node=row["node"], flavour=flavour))
            for value, prof, _ in sp["points"][:: max(1, len(sp["points"]) // 4)]:
                own = answer(s, "/api/children?" + q(node=0, limit=50, profile=prof))
                got = [r["values"][0][col] for r in own["rows"] if r["node"] == row["node"]]
                check(got == [value] or (not got and value == 0),
                      f"{what}: node {row['node']} {flavour} in profile {prof}: tree {got}, spread {value}")


def measurements(hpcdb, samples, out):
    """A measurements directory: analyzed into a temporary database (progress on stderr), served like
    a v4.0 database with report's values, the temporary removed when the server stops."""
    m = os.path.join(samples, "hpcrun", "small.m")
    if not os.path.isdir(m):
        print(f"skipped the measurements case: no {m}")
        return
    import subprocess
    tmp = os.path.join(out, "tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    s = Server(hpcdb, m, env={**os.environ, "TMPDIR": tmp})
    try:
        temps = os.listdir(tmp)
        check(len(temps) == 1 and temps[0].startswith("hpcdb-view-") and
              os.path.isfile(os.path.join(tmp, temps[0], "db", "meta.db")), f"the analysis is in TMPDIR: {temps}")
        db = answer(s, "/api/info")["databases"][0]
        check(db["path"] == m and db["access"] == "v4.0 mapped", f"served as {db['path']} {db['access']}")
        root = answer(s, "/api/children?" + q(node=0))["parent"]["values"][0][0]
        csv = subprocess.run([hpcdb, "report", "--csv", "--metric", db["default_metric"], m], capture_output=True, text=True).stdout
        check(float(csv.splitlines()[1].split(",")[3]) == root, f"the root's value {root} is report's")
    finally:
        rc = s.stop()
    err = s.proc.stderr.read()
    check("analyzing the measurements" in err and "analyzing: 1 of 1 measurement files" in err and "1 profiles read (0 skipped)" in err and "analyzed in" in err, f"progress on stderr: {err!r}")
    check(rc == 0 and os.listdir(tmp) == [], f"the temporary is removed on exit: {os.listdir(tmp)}")
    # an analysis that fails: status 2, the reason on stderr, nothing left in TMPDIR
    bad = os.path.join(out, "truncated.m")
    shutil.rmtree(bad, ignore_errors=True)
    os.makedirs(bad)
    for f in os.listdir(m):
        if f.endswith(".hpcrun"):  # copied without the sample's read-only mode, then cut short
            shutil.copyfile(os.path.join(m, f), os.path.join(bad, f))
            os.truncate(os.path.join(bad, f), 100)
    r = subprocess.run([hpcdb, "view", "--port", "0", "--no-browser", bad], capture_output=True, text=True,
                       env={**os.environ, "TMPDIR": tmp}, timeout=60)
    check(r.returncode == 2 and "could be read" in r.stderr and not r.stderr.endswith("hpcdb view: \n") and os.listdir(tmp) == [],
          f"a failed analysis: status {r.returncode}, {r.stderr!r}, left {os.listdir(tmp)}")


def compare_csv(hpcdb, *args):
    """hpcdb compare --csv's rows (every node) by name: [only_in, a, b, delta, ratio (inclusive), the same exclusive, means, maxes]."""
    import csv
    import subprocess
    out = subprocess.run([hpcdb, "compare", "--csv", "--top", "0", "--min-share", "0", *args], capture_output=True, text=True).stdout
    rows = {}
    for r in list(csv.reader(out.splitlines()))[1:]:
        num = [float(x) for x in r[2:]]
        rows[r[0]] = {"only": r[1], "inc": num[0:4], "exc": num[7:11], "mean": num[11:13], "max": num[13:15]}
    return rows


def same(got, want):
    """A route's [a, b, delta, ratio] against the CSV's (an infinite ratio is JSON's null)."""
    return all((g is None and w == float("inf")) or (g is not None and abs(g - w) <= 1e-12 * max(1, abs(w))) for g, w in zip(got, want))


def comparison(hpcdb, gen_runs, out):
    """hpcdb view A B: every row of the three views equals hpcdb compare --csv's, ranked as asked; bad input 4xx."""
    import subprocess
    pair = os.path.join(out, "pair")
    shutil.rmtree(pair, ignore_errors=True)
    if subprocess.call([gen_runs, "pair", pair]) != 0:
        check(False, "gen_runs pair")
        return
    a, b = os.path.join(pair, "a.d"), os.path.join(pair, "b.d")
    want = compare_csv(hpcdb, a, b)
    s = Server(hpcdb, a, b)
    try:
        sm = answer(s, "/api/compare")
        check((sm["nodes"], sm["both"], sm["only_a"], sm["only_b"]) == (15, 11, 2, 2), f"the alignment's counts: {sm}")
        check([r["path"] for r in sm["regressions"]] == ["<main thread> > main > app.c:10 > solve", "<main thread> > main > app.c:11 > exchange",
                                                         "<main thread> > main > app.c:12 > checkpoint"], "the regressions, as compare lists them")
        check([(r["path"], r["only"]) for r in sm["improvements"]] == [("<main thread> > main > app.c:12 > setup", "A")], "the improvements")
        check(sm["regressions"][0]["up"][0] == 0 and sm["profiled"] == 1, "a summary row's ancestors; per-profile figures")
        seen = 0
        pending = [(0, "")]
        while pending:  # the whole top-down tree, every node against the CSV's row of its path
            node, path = pending.pop()
            page = answer(s, "/api/compare/children?" + q(node=node, limit=10000))
            keys = [abs(r["inc"][2]) for r in page["rows"]]
            check(keys == sorted(keys, reverse=True), f"node {node}: ranked by |delta| of inclusive")
            for r in page["rows"]:
                p = f"{path} > {r['name']}" if path else r["name"]
                w = want.get(p)
                check(w is not None and r["only"] == w["only"] and same(r["inc"], w["inc"]) and same(r["exc"], w["exc"]) and
                      same(r["mean"], w["mean"]) and same(r["max"], w["max"]), f"{p}: {r} against compare's {w}")
                seen += 1
                if r["children"]:
                    pending.append((r["node"], p))
        check(seen == len(want) - 1, f"{seen} rows, compare has {len(want) - 1} below the root")
        import math
        ratio = answer(s, "/api/compare/children?" + q(view="flat", sort="ratio", flavour="inclusive"))
        keys = [math.inf if r["inc"][3] in (None, 0) else abs(math.log(r["inc"][3])) for r in ratio["rows"]]
        check(keys == sorted(keys, reverse=True) and keys[:4] == [math.inf] * 4 and keys[4] < math.inf and
              {r["only"] for r in ratio["rows"][:4]} == {"A", "B"}, f"flat, ranked by |log ratio|: {keys}")
        flat = answer(s, "/api/compare/children?" + q(view="flat", limit=3))
        check(flat["total"] == len(want) - 1 and len(flat["rows"]) == 3 and flat["rows"][0]["name"] in want, "the flat view: every path")
        check(all(same(r["exc"], want[r["name"]]["exc"]) for r in flat["rows"]), "flat rows are compare's")
        keys = [abs(r["exc"][2]) for r in flat["rows"]]
        check(keys == sorted(keys, reverse=True), "flat: by |delta| of exclusive")
        funcs = compare_csv(hpcdb, "--view", "bottom-up", a, b)
        bu = answer(s, "/api/compare/children?" + q(view="bottom-up"))
        check(bu["total"] == len(funcs) and all(same(r["inc"], funcs[r["name"]]["inc"]) and same(r["exc"], funcs[r["name"]]["exc"])
                                                and r["only"] == funcs[r["name"]]["only"] for r in bu["rows"]), "bottom-up rows are compare's")
        solve = next(r for r in flat["rows"] if r["name"].endswith("> solve"))
        for d in (0, 1):
            sp = answer(s, "/api/spread?" + q(db=d, node=solve["ctx"][d]))
            check(abs(sum(p[0] for p in sp["points"]) - solve["inc"][d]) < 1e-9, f"side {d}'s spread of solve sums to its value")
        for path, status in [
            ("/api/compare/children?" + q(view="sideways"), 400), ("/api/compare/children?" + q(sort="up"), 400),
            ("/api/compare/children?" + q(flavour="x"), 400), ("/api/compare/children?" + q(node=99999), 404),
            ("/api/compare/children?" + q(view="flat", node=1), 404), ("/api/compare/children?" + q(view="bottom-up", node=99), 404),
            ("/api/compare/children?" + q(limit=100000), 400), ("/api/compare/children?" + q(node="1x"), 400),
            ("/api/compare?" + q(metric="no such metric"), 400), ("/api/compare?" + q(top=5000), 400), ("/api/compare?" + q(top="-1"), 400),
            ("/api/compare?" + q(metric="m" * 2000), 400),
        ]:
            answer(s, path, status)
        check(answer(s, "/api/compare")["total"]["inc"][1] == sm["total"]["inc"][1], "the comparison after an unknown metric")
    finally:
        check(s.stop() == 0, "hpcdb view A B stops")
    one = Server(hpcdb, a)
    try:
        answer(one, "/api/compare", 404)
        answer(one, "/api/compare/children", 404)
    finally:
        one.stop()


def comparison_across_formats(hpcdb, samples, out):
    """hpcdb view DB CUBE, a v4.0 database against its own Cube conversion: aligned whole, equal, and each
    side's distribution of a node (through the row's ctx, the node of that side's own query) sums to its value."""
    import subprocess
    db, cube = os.path.join(samples, "hpctoolkit-v4", "cpi-mpi"), os.path.join(out, "cpi-mpi.cubex")
    r = subprocess.run([hpcdb, "convert", "--to", "cube", "--force", db, cube], capture_output=True, text=True)
    check(r.returncode == 0, f"convert to Cube: {r.stderr}")
    s = Server(hpcdb, db, cube)
    try:
        sm = answer(s, "/api/compare")
        check(sm["only_a"] == 0 and sm["only_b"] == 0 and sm["total"]["inc"][2] == 0, f"a database and its Cube file: {sm['total']}")
        for row in answer(s, "/api/compare/children?" + q(view="flat", limit=4))["rows"]:
            for d in (0, 1):
                sp = answer(s, "/api/spread?" + q(db=d, node=row["ctx"][d], metric=sm["runs"][d]["metric"]))
                got = sum(p[0] for p in sp["points"])
                check(abs(got - row["inc"][d]) <= 1e-9 * max(1, abs(row["inc"][d])), f"{row['name']}: side {d}'s spread sums to {got}, not {row['inc'][d]}")
    finally:
        s.stop()


def load(s):
    """1,000 requests from 16 clients; the resident set after must be what it was after a warm-up."""
    paths = ["/api/children?" + q(node=0), "/api/children?" + q(view="bottom-up"), "/api/spread?" + q(node=2),
             "/api/children?" + q(view="flat"), "/api/search?" + q(re="MPI"), "/api/info"]
    for p in paths * 10:
        s.get(p)
    before = s.rss_kb()
    errors = []

    def client(k):
        for i in range(1000 // 16 + 1):
            st = s.get(paths[(k + i) % len(paths)])[0]
            if st != 200:
                errors.append(st)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = s.rss_kb()
    print(f"load: {16 * (1000 // 16 + 1)} requests, RSS {before} kB -> {after} kB")
    check(not errors, f"errors under load: {errors[:5]}")
    if os.environ.get("HPCDB_SANITIZED"):  # ASan holds freed memory in its quarantine
        print("RSS not checked under the sanitizers: their quarantine keeps freed memory")
    else:
        check(after - before < 2048, f"RSS grew from {before} to {after} kB")


def groups_in_views(s):
    """A bottom-up or flat row's values over the profiles add up to the row's (summary) values."""
    for view in ("bottom-up", "flat"):
        for row in answer(s, "/api/children?" + q(view=view, node=0, limit=8))["rows"]:
            for k, flavour in enumerate(("inclusive", "exclusive")):
                g = answer(s, "/api/groups?" + q(view=view, node=row["node"], flavour=flavour))
                total, want = sum(v[0] for v in g["values"]), row["values"][0][k]
                check(g["profiles"] == 16 and abs(total - want) <= 1e-9 * max(abs(want), 1),
                      f"{view} {row['name']}: the profiles' {flavour} values sum to {total}, the row's is {want}")
    answer(s, "/api/groups?" + q(view="flat", node=99999), 404)


def main():
    hpcdb, make_paths_db, samples, out, gen_runs = sys.argv[1:6]
    global HPCDB, DB
    db = os.path.join(samples, "hpctoolkit-v4", "cpi-mpi")
    HPCDB, DB = hpcdb, db
    if not os.path.isdir(db):
        print(f"skipped: no sample database at {db}")
        return 77
    s = Server(hpcdb, db)
    try:
        check("ssh -L" in s.hint, "the ssh -L hint")
        routes(s)
        spread_sums(s, "cpi-mpi")
        groups_in_views(s)
        security(s)
        load(s)
    finally:
        check(s.stop() == 0, "stops on SIGTERM with status 0")
    command_line(hpcdb, db)
    sources(hpcdb, make_paths_db, out)
    other_formats(hpcdb, samples)
    damaged(hpcdb, samples, out)
    measurements(hpcdb, samples, out)
    comparison(hpcdb, gen_runs, out)
    comparison_across_formats(hpcdb, samples, out)
    print("failed" if failed else "passed", failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
