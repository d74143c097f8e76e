# SPDX-License-Identifier: BSD-3-Clause
"""An interactive request's latency while a long one runs, in hpcdb view:
a tree request (/api/children of the root) alone, then asked every 50 ms
while a whole-run trace summary (2000 columns, each the exact statistics of
its window) is computed, on a generated v4.0 database with a trace.
Several builds side by side in one run (before / after).
Usage: python3 bench/view_concurrent.py DB HPCDB [HPCDB...]
  (DB: e.g. gen_trace_db --profiles 256 --events 100000 --period 1000 -o DB)"""
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


def start(hpcdb, db, cache):
    p = subprocess.Popen([hpcdb, "view", "--port", "0", "--no-browser", db], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, XDG_CACHE_HOME=cache))
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


def run(hpcdb, db):
    with tempfile.TemporaryDirectory() as cache:
        p, base, tok = start(hpcdb, db, cache)
        try:
            while True:  # the trace index, built as the server starts
                _, st = get(base, tok, "/api/trace/info")
                if st != 503:
                    break
                time.sleep(0.1)
            info = urllib.request.urlopen(f"{base}/api/trace/info?token={tok}").read()
            t_min, t_max = re.search(rb'"t_min":"(\d+)","t_max":"(\d+)"', info).groups()
            tree = "/api/children?node=0"
            alone = sorted(get(base, tok, tree)[0] for _ in range(20))
            summary = "/api/trace/summary?" + urllib.parse.urlencode(
                {"t0": int(t_min), "t1": int(t_max) + 1, "w": 2000, "depth": 3})
            long = {}
            th = threading.Thread(target=lambda: long.update(t=get(base, tok, summary)))
            th.start()
            during = []
            time.sleep(0.2)
            while th.is_alive():
                during.append(get(base, tok, tree)[0])
                time.sleep(0.05)
            th.join()
            return alone, during, long["t"][0]
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait()


def ms(x):
    return f"{1000 * x:.1f} ms"


def main():
    db, builds = sys.argv[1], sys.argv[2:]
    print(f"database: {db}; load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {os.cpu_count()} cores")
    for hpcdb in builds:
        alone, during, long = run(hpcdb, db)
        if not during:
            during = [float("nan")]
        print(f"{hpcdb}:\n  tree alone: median {ms(statistics.median(alone))}, max {ms(alone[-1])}"
              f"\n  whole-run summary (2000 columns): {long:.2f} s"
              f"\n  tree during it: {len(during)} asked, median {ms(statistics.median(during))}, max {ms(max(during))}")


if __name__ == "__main__":
    main()
