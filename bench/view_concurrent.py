# SPDX-License-Identifier: BSD-3-Clause
"""An interactive request's latency while a long one runs, in hpcdb view:
a tree request (/api/children of the root) alone, then asked every 50 ms
while a long request is computed:
  trace:   a whole-run trace summary (2000 columns, each the exact statistics
           of its window), on a generated v4.0 database with a trace;
  profile: the tree of a group of every profile (each profile's values read
           from the database and summed), slowed down by HPCDB_DELAY=query-column:MS
           (MS per profile read; a build without that delay point computes it
           at its own speed, the tree requests then wait for that);
  compare: hpcdb view A B, every row of the comparison's flat view (each
           node's per-profile figures read from A's database), slowed down by
           HPCDB_DELAY=compare-node:MS; the interactive request is then a
           comparison request too (the summary, its figures read before).
Several builds side by side in one run (before / after).
Usage: python3 bench/view_concurrent.py [--profile MS | --compare MS] DB [DB_B] HPCDB [HPCDB...]
  (trace DB: e.g. gen_trace_db --profiles 256 --events 100000 --period 1000 -o DB;
   profile DB: e.g. gen_v4db --profiles 256 --contexts 100000 --metrics 8 -o DB;
   compare: two databases, e.g. cpi-mpi's v4 and legacy ones)"""
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request


def start(hpcdb, dbs, cache, delay):
    """delay: (delay point, MS) or None."""
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    if delay:
        env["HPCDB_DELAY"] = f"{delay[0]}:{delay[1]}"
    p = subprocess.Popen([hpcdb, "view", "--port", "0", "--no-browser", *dbs], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, env=env)
    m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)", p.stdout.readline())
    return p, f"http://127.0.0.1:{m.group(1)}", m.group(2)


def get(base, tok, path):
    """(seconds, HTTP status) of one request on a new connection."""
    req = urllib.request.Request(base + path + ("&" if "?" in path else "?") + "token=" + tok)
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    return time.perf_counter() - t, status


def trace_summary(base, tok):
    """The long request: a whole-run summary, once the trace index is built."""
    while True:  # the trace index, built as the server starts
        _, st = get(base, tok, "/api/trace/info")
        if st != 503:
            break
        time.sleep(0.1)
    info = urllib.request.urlopen(f"{base}/api/trace/info?token={tok}").read()
    t_min, t_max = re.search(rb'"t_min":"(\d+)","t_max":"(\d+)"', info).groups()
    return "/api/trace/summary?" + urllib.parse.urlencode({"t0": int(t_min), "t1": int(t_max) + 1, "w": 2000, "depth": 3})


def requests(mode, base, tok):
    """(the interactive request, the long one)."""
    if mode == "compare":
        return "/api/compare?top=10", "/api/compare/children?view=flat&limit=10000"
    if mode == "profile":
        return "/api/children?node=0", "/api/children?node=0&group=" + urllib.parse.quote("rank=0-1000000")
    return "/api/children?node=0", trace_summary(base, tok)


def run(hpcdb, dbs, mode, delay):
    with tempfile.TemporaryDirectory() as cache:
        p, base, tok = start(hpcdb, dbs, cache, delay)
        try:
            tree, long_path = requests(mode, base, tok)
            first = get(base, tok, tree)[0]  # what the first request makes (a column, the comparison) is kept
            alone = sorted(get(base, tok, tree)[0] for _ in range(20))
            long = {}
            th = threading.Thread(target=lambda: long.update(t=get(base, tok, long_path)))
            th.start()
            during = []
            time.sleep(0.2)
            while th.is_alive():
                during.append(get(base, tok, tree)[0])
                time.sleep(0.05)
            th.join()
            return first, alone, during, long["t"]
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait()


def ms(x):
    return f"{1000 * x:.1f} ms"


def main():
    args = sys.argv[1:]
    mode, delay, n_dbs = "trace", None, 1
    if args[0] in ("--profile", "--compare"):
        mode, args = args[0][2:], args[2:]
        delay = ("compare-node" if mode == "compare" else "query-column", int(sys.argv[2]))
        n_dbs = 2 if mode == "compare" else 1
    dbs, builds = args[:n_dbs], args[n_dbs:]
    what = {"trace": "whole-run summary (2000 columns)",
            "profile": f"group tree of every profile, {delay and delay[1]} ms per profile read",
            "compare": f"every row of the comparison's flat view, {delay and delay[1]} ms per node's figures"}[mode]
    asked = "comparison summary" if mode == "compare" else "tree"
    print(f"databases: {' '.join(dbs)}; load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {os.cpu_count()} cores")
    for hpcdb in builds:
        first, alone, during, (long, status) = run(hpcdb, dbs, mode, delay)
        if not during:
            during = [float("nan")]
        print(f"{hpcdb}:\n  {asked} alone: the first {ms(first)}, then median {ms(statistics.median(alone))}, "
              f"max {ms(alone[-1])}"
              f"\n  {what}: {long:.2f} s (HTTP {status})"
              f"\n  {asked} during it: {len(during)} asked, median {ms(statistics.median(during))}, "
              f"95th percentile {ms(sorted(during)[int(0.95 * (len(during) - 1))])}, max {ms(max(during))}, "
              f"{sum(d > 0.1 for d in during)} over 100 ms")


if __name__ == "__main__":
    main()
