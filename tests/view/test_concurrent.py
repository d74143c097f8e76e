# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb view answers requests at once and cancels superseded work: with
every column of a trace's tiles and summaries slowed down (HPCDB_DELAY, a
test-only delay point), a trace summary takes seconds; a tree request, a second trace
request and the page's files sent meanwhile are answered before it; a newer
summary of the same slot cancels the older one (409, "cancelled"). With
every column of profile values slowed down (once per profile read), a group's
tree (4 profiles) takes seconds; a profile's tree asked for meanwhile (one
profile) and a tree whose values are in already are answered before it: no
profile request waits behind another's computation. With every node's
per-profile figures of a comparison slowed down, a comparison request listing
many rows takes seconds; comparison requests whose figures are in already are
answered before it, and one for another metric pair (a new comparison
replacing the one the slow request reads) too, the slow one's answer
unchanged. The test checks the order in which answers arrive, never an
absolute time.
Usage: test_concurrent.py HPCDB SAMPLES OUTDIR"""
import json
import os
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server import Server  # noqa: E402

DELAY_MS = 40  # per column of a summary
SLOW_MS = 4000  # the slow summary's length
PROFILE_DELAY_MS = 500  # per column of profile values read
COMPARE_DELAY_MS = 250  # per node's per-profile figures of a comparison
failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print(f"FAILED: {what}")


class Timed(threading.Thread):
    """One request on its own connection; .status, .body and .done (the
    order in which answers arrived, from a shared counter)."""
    order = 0
    lock = threading.Lock()

    def __init__(self, server, path):
        super().__init__()
        self.server, self.path = server, path

    def run(self):
        self.status, _, self.body = self.server.get(self.path)
        with Timed.lock:
            Timed.order += 1
            self.done = Timed.order


def answered_before(slow, wait, quick):
    """Starts slow, then after wait seconds the quick requests: each is answered (200) before slow."""
    slow.start()
    time.sleep(wait)
    for t in quick:
        t.start()
    for t in quick:
        t.join()
        check(t.status == 200, f"{t.path}: status {t.status} {t.body[:200]!r}")
    slow.join()
    for t in quick:
        check(t.done < slow.done, f"{t.path} was answered after {slow.path}")


def trace_info(s):
    for _ in range(600):  # the index is built on a thread of its own: 503 until then
        st, _, body = s.get("/api/trace/info")
        if st != 503:
            check(st == 200, f"/api/trace/info: {st} {body[:200]!r}")
            return json.loads(body)
        time.sleep(0.05)
    raise RuntimeError("the trace index was not built")


def summary(info, w, slot):
    return "/api/trace/summary?" + urllib.parse.urlencode(
        {"t0": info["t_min"], "t1": int(info["t_max"]) + 1, "w": w, "slot": slot})


def profile_requests(hpcdb, samples):
    """Two slow profile requests and a quick one at once (the query layer's concurrent readers)."""
    db = os.path.join(samples, "hpctoolkit-v4", "cpi-mpi")
    env = dict(os.environ, HPCDB_DELAY=f"query-column:{PROFILE_DELAY_MS}")
    s = Server(hpcdb, db, env=env)
    try:
        st, _, body = s.get("/api/children?node=0")  # the default metric's values, read once
        check(st == 200, f"/api/children: {st} {body[:200]!r}")
        group = Timed(s, "/api/children?node=0&group=" + urllib.parse.quote("rank=0"))  # 4 profiles
        answered_before(group, PROFILE_DELAY_MS / 1000, [
            Timed(s, "/api/children?node=0&profile=3"), Timed(s, "/api/children?node=0"),
            Timed(s, "/api/csv?view=bottom-up"), Timed(s, "/api/spread?node=0")])
        check(group.status == 200, f"the group's tree: {group.status} {group.body[:200]!r}")
        # the same column asked twice at once: computed by one, both answered the same
        twice = [Timed(s, "/api/children?node=0&profile=5") for _ in range(2)]
        for t in twice:
            t.start()
        for t in twice:
            t.join()
        check(all(t.status == 200 for t in twice) and twice[0].body == twice[1].body,
              f"one column asked twice at once: {[(t.status, t.body[:100]) for t in twice]}")
    finally:
        rc = s.stop()
        check(rc == 0, f"hpcdb view exited {rc} on SIGTERM: {s.proc.stderr.read()[-2000:]}")


def busiest_page(hpcdb, a, b, size):
    """The offset of the flat view's page of size rows with the most of A's nodes (B's alone have no
    figures to read), from a server without the delay."""
    s = Server(hpcdb, a, b)
    try:
        st, _, body = s.get("/api/compare/children?view=flat&limit=10000")
        check(st == 200, f"the flat view: {st} {body[:200]!r}")
        in_a = [r["only"] != "B" for r in json.loads(body)["rows"]]
    finally:
        s.stop()
    return max(range(max(1, len(in_a) - size + 1)), key=lambda k: sum(in_a[k:k + size]))


def compare_requests(hpcdb, a, b):
    """A comparison request computing figures, and others at once (the comparison's concurrent readers)."""
    rows = f"/api/compare/children?view=flat&limit=10&offset={busiest_page(hpcdb, a, b, 10)}"
    s = Server(hpcdb, a, b, env=dict(os.environ, HPCDB_DELAY=f"compare-node:{COMPARE_DELAY_MS}"))
    other_pair = "/api/compare?top=1&metric_b=" + urllib.parse.quote("CPUTIME (usec)")
    try:
        for path in ("/api/compare?top=1", "/api/compare/children?view=bottom-up"):  # figures read once
            st, _, body = s.get(path)
            check(st == 200, f"{path}: {st} {body[:200]!r}")
        slow = Timed(s, rows)  # ten rows' figures: seconds
        answered_before(slow, COMPARE_DELAY_MS / 1000, [
            Timed(s, "/api/compare?top=1"), Timed(s, "/api/compare/children?view=bottom-up"),
            Timed(s, "/api/children?node=0")])
        check(slow.status == 200 and len(json.loads(slow.body)["rows"]) == 10,
              f"the slow comparison rows: {slow.status} {slow.body[:200]!r}")
        # another metric pair replaces the comparison a slow request reads: both answered, the slow
        # one as before
        st, _, body = s.get(other_pair)
        check(st == 200, f"{other_pair}: {st} {body[:200]!r}")
        again = Timed(s, rows)  # made again, its figures read again: seconds
        answered_before(again, COMPARE_DELAY_MS / 1000, [Timed(s, other_pair)])
        check(again.status == 200 and again.body == slow.body,
              f"the rows while the comparison was replaced: {again.status} {again.body[:200]!r}")
    finally:
        rc = s.stop()
        check(rc == 0, f"hpcdb view exited {rc} on SIGTERM: {s.proc.stderr.read()[-2000:]}")


def main():
    hpcdb, samples, out = sys.argv[1:4]
    if os.path.isdir(os.path.join(samples, "hpctoolkit-v4", "cpi-mpi")):
        profile_requests(hpcdb, samples)
    else:
        print("profile requests skipped: no sample database cpi-mpi")
    pair = [os.path.join(samples, f, "cpi-mpi") for f in ("hpctoolkit-v4", "hpctoolkit-legacy")]
    if all(os.path.isdir(p) for p in pair):
        compare_requests(hpcdb, *pair)
    else:
        print("comparison requests skipped: no sample databases cpi-mpi (v4 and legacy)")
    db = os.path.join(samples, "hpctoolkit-v4", "ping-pong-mpi")
    if not os.path.isdir(db):
        print(f"skipped: no sample database {db}")
        return 77
    os.makedirs(out, exist_ok=True)
    cache = dict(os.environ, XDG_CACHE_HOME=os.path.join(out, "cache"))
    # the index built first without the delay: the server then computes the whole-run tile it keeps,
    # 2,000 delayed columns (80 s) on a fresh cache
    first = Server(hpcdb, db, env=cache)
    try:
        trace_info(first)
    finally:
        first.stop()
    env = dict(cache, HPCDB_DELAY=f"trace-column:{DELAY_MS}")
    s = Server(hpcdb, db, env=env)
    try:
        info = trace_info(s)
        w = SLOW_MS // DELAY_MS

        # a tree, a trace window's statistics (another slot) and a page file while the summary runs
        slow = Timed(s, summary(info, w, "test.summary"))
        answered_before(slow, 0.3, [
            Timed(s, "/api/children?node=0"), Timed(s, "/api/info"),
            Timed(s, "/api/trace/at?" + urllib.parse.urlencode({"row": 0, "t": int(info["t_max"])})),
            Timed(s, "/assets/app.js")])
        check(slow.status == 200 and len(json.loads(slow.body)["columns"]) == w, f"the slow summary: {slow.status}")

        # a newer summary of the same slot cancels the one under way; another slot's is left alone
        old = Timed(s, summary(info, w, "test.again"))
        other = Timed(s, summary(info, 2, "test.other"))
        old.start()
        other.start()
        time.sleep(0.3)
        new = Timed(s, summary(info, 1, "test.again"))
        new.start()
        for t in (old, other, new):
            t.join()
        check(old.status == 409 and json.loads(old.body).get("cancelled") is True,
              f"the superseded summary: {old.status} {old.body[:200]!r}")
        check(new.status == 200 and len(json.loads(new.body)["columns"]) == 1, f"the newer summary: {new.status}")
        check(other.status == 200, f"another slot's summary: {other.status}")
    finally:
        rc = s.stop()
        check(rc == 0, f"hpcdb view exited {rc} on SIGTERM: {s.proc.stderr.read()[-2000:]}")
    print("ok" if not failed else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
