# SPDX-License-Identifier: BSD-3-Clause
"""An interactive request's latency while a long one runs, in hpcdb view:
a tree request (/api/children of the root) alone, then asked every 50 ms
while a long request is computed:
  trace:   a whole-run trace summary (2000 columns, each the exact statistics
           of its window), on a generated v4.0 database with a trace;
  profile: the tree of a group of every profile (each profile's values read
           from the database and summed), slowed down by HPCDB_DELAY=query-column:MS
           (MS per profile read; a build without that delay point computes it
           at its own speed, the tree requests then wait for that).
Several builds side by side in one run (before / after).
Usage: python3 bench/view_concurrent.py [--profile MS] DB HPCDB [HPCDB...]
  (trace DB: e.g. gen_trace_db --profiles 256 --events 100000 --period 1000 -o DB;
   profile DB: e.g. gen_v4db --profiles 256 --contexts 100000 --metrics 8 -o DB)"""
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


def start(hpcdb, db, cache, delay):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    if delay:
        env["HPCDB_DELAY"] = f"query-column:{delay}"
    p = subprocess.Popen([hpcdb, "view", "--port", "0", "--no-browser", db], stdout=subprocess.PIPE,
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


def run(hpcdb, db, delay):
    with tempfile.TemporaryDirectory() as cache:
        p, base, tok = start(hpcdb, db, cache, delay)
        try:
            tree = "/api/children?node=0"
            long_path = "/api/children?node=0&group=" + urllib.parse.quote("rank=0-1000000") if delay else trace_summary(base, tok)
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
            return alone, during, long["t"]
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait()


def ms(x):
    return f"{1000 * x:.1f} ms"


def main():
    args = sys.argv[1:]
    delay = 0
    if args[0] == "--profile":
        delay, args = int(args[1]), args[2:]
    db, builds = args[0], args[1:]
    what = f"group tree of every profile, {delay} ms per profile read" if delay else "whole-run summary (2000 columns)"
    print(f"database: {db}; load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {os.cpu_count()} cores")
    for hpcdb in builds:
        alone, during, (long, status) = run(hpcdb, db, delay)
        if not during:
            during = [float("nan")]
        print(f"{hpcdb}:\n  tree alone: median {ms(statistics.median(alone))}, max {ms(alone[-1])}"
              f"\n  {what}: {long:.2f} s (HTTP {status})"
              f"\n  tree during it: {len(during)} asked, median {ms(statistics.median(during))}, "
              f"95th percentile {ms(sorted(during)[int(0.95 * (len(during) - 1))])}, max {ms(max(during))}, "
              f"{sum(d > 0.1 for d in during)} over 100 ms")


if __name__ == "__main__":
    main()
