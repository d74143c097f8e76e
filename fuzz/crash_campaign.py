#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Crash campaign: every writer is killed (SIGKILL) at random moments and at
its crash points (HPCDB_CRASH_AT, src/lib/common/failpoint.h), and after each
kill the output's name must hold nothing or a complete output equal to the
uninterrupted run's (and that validates), the inputs must be byte-identical,
nothing but the writer's hidden temporaries (.NAME.hpcdb-tmp-PID.*) may be
left beside it, and the next run of the same command must succeed, remove
them, and write the same output. Writers without crash points of their own
(the CLI's -o FILE of export and dump) are also killed the moment their
temporary appears (a directory polled), and at random moments after it.

  crash_campaign.py HPCDB DATA WORK [--points N] [--seed S] [--quick] [--json FILE]

--quick: three points per writer (the first and the last crash point and one
moment; for export and dump, the temporary's appearance), for ctest. Exit status 0 when no kill broke a rule, 1 otherwise."""
import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

MARK = ".hpcdb-tmp-"


def writers(hpcdb, data, record_lib):
    v4, run = f"{data}/hpctoolkit-v4", f"{data}/hpcrun"
    ws = [
        ("convert-v4", ["convert", f"{v4}/lmp-openmp", "{out}"], "db", [f"{v4}/lmp-openmp"]),
        ("convert-cube", ["convert", "--to", "cube", f"{v4}/cpi-mpi", "{out}"], "db.cubex", [f"{v4}/cpi-mpi"]),
        ("analyze-j1", ["analyze", "-j", "1", f"{run}/loops-cputime-t.m", "-o", "{out}"], "db",
         [f"{run}/loops-cputime-t.m"]),
        ("analyze-j2", ["analyze", "-j", "2", f"{run}/loops-cuda-nvidia-t.m", "-o", "{out}"], "db",
         [f"{run}/loops-cuda-nvidia-t.m"]),
        ("struct", ["struct", record_lib, "-o", "{out}"], "s.hpcstruct", [record_lib]),
        ("struct-cache", ["struct", "--cache", "{work}/cache", record_lib, "-o", "{out}"], "s.hpcstruct",
         [record_lib]),
    ]
    for fmt in ["folded", "csv", "speedscope", "chrome-trace", "flamegraph", "html"]:
        ws.append((f"export-{fmt}", ["export", "--format", fmt, f"{v4}/ping-pong-mpi", "-o", "{out}"], "out",
                   [f"{v4}/ping-pong-mpi"]))
    for fmt in ["text", "json"]:
        ws.append((f"dump-{fmt}", ["dump"] + (["--json"] if fmt == "json" else []) + [f"{v4}/lmp-openmp", "-o", "{out}"],
                   "out", [f"{v4}/lmp-openmp"]))
    ws = [(name, [hpcdb], args, out, inputs) for name, args, out, inputs in ws]
    mpirun, hpcdb_mpi = shutil.which("mpirun"), os.path.join(os.path.dirname(hpcdb), "hpcdb-mpi")
    if mpirun and os.path.exists(hpcdb_mpi):  # killed at crash points only: a killed mpirun leaves its ranks running
        ws.append(("mpi-analyze-np2", [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2", hpcdb_mpi],
                   ["analyze", f"{run}/loops-cputime-t.m", "-o", "{out}"], "db", [f"{run}/loops-cputime-t.m"]))
    return ws


def tree(path):
    """{relative path: bytes digest} of a file or directory (None when absent)."""
    if not os.path.lexists(path):
        return None
    if not os.path.isdir(path):
        return {"": hashlib.sha256(open(path, "rb").read()).hexdigest()}
    out = {}
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            p = os.path.join(root, name)
            rel = os.path.relpath(p, path)
            out[rel] = "dir" if os.path.isdir(p) else hashlib.sha256(open(p, "rb").read()).hexdigest()
    return out


class Writer:
    def __init__(self, hpcdb, base, name, prefix, args, out_name, inputs):
        self.hpcdb, self.name, self.inputs, self.prefix = hpcdb, name, inputs, prefix
        self.mpi = name.startswith("mpi")
        self.work = os.path.join(base, name)
        self.out = os.path.join(self.work, out_name)
        self.out_name = out_name
        self.args = [a.format(out=self.out, work=self.work) for a in args]
        self.cache = os.path.join(self.work, "cache") if "--cache" in args else None
        self.stats = dict(kills=0, by_point=0, by_time=0, by_temporary=0, finished_first=0, absent=0, complete=0,
                          leftovers_after_kill=0, broken=0, problems=[])

    def fresh(self):
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)

    def run(self, env=None, kill_after=None, force=False, at_temporary=None):
        """at_temporary: SIGKILL this many seconds after the output's temporary appears."""
        args = self.prefix + self.args[:1] + (["--force"] if force else []) + self.args[1:]
        e = dict(os.environ, **(env or {}))
        p = subprocess.Popen(args, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        if at_temporary is not None:
            while p.poll() is None and not self.leftovers():
                pass
            if at_temporary:
                time.sleep(at_temporary)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
        if kill_after is not None:
            try:
                p.wait(timeout=kill_after)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGKILL)
        _, err = p.communicate(timeout=600)
        # what the killed writer started (struct's child) dies with it, a moment later: wait for that
        for _ in range(500):
            try:
                os.killpg(p.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.01)
        return p.returncode, err.decode(errors="replace")

    def reference(self):
        self.fresh()
        count = os.path.join(self.work, "count")
        t0 = time.monotonic()
        rc, err = self.run({"HPCDB_CRASH_COUNT": count})
        self.seconds = time.monotonic() - t0
        if rc != 0:
            sys.exit(f"{self.name}: the uninterrupted run failed ({rc}): {err}")
        self.points = 0
        if os.path.exists(count):
            self.points = int(open(count).read())
            os.remove(count)
        self.ref, self.ref_cache = tree(self.out), tree(self.cache) if self.cache else None
        self.inputs_ref = {i: tree(i) for i in self.inputs}

    def leftovers(self):
        return [n for n in os.listdir(self.work) if n.startswith("." + self.out_name + MARK)]

    def strays(self):
        """What is beside the output that is neither it, its temporaries nor the cache."""
        ok = {self.out_name, "cache", "count"}
        return [n for n in os.listdir(self.work) if n not in ok and not n.startswith("." + self.out_name + MARK)]

    def check_output(self, when):
        problems = []
        got = tree(self.out)
        if got is not None and got != self.ref:
            problems.append(f"{when}: {self.out_name} holds a partial or different output")
        if got is not None and self.out_name != "out" and not self.name.startswith("struct"):
            rc = subprocess.run([self.hpcdb, "validate", self.out], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode
            if rc != 0:
                problems.append(f"{when}: {self.out_name} does not validate")
        if self.cache:
            cache = tree(self.cache) or {}
            for rel, digest in cache.items():
                if rel.startswith(".") and MARK in rel:
                    continue
                if self.ref_cache.get(rel) != digest:
                    problems.append(f"{when}: cache entry {rel} partial or different")
        if self.strays():
            problems.append(f"{when}: stray files beside the output: {self.strays()}")
        for i, t in self.inputs_ref.items():
            if tree(i) != t:
                problems.append(f"{when}: input {i} changed")
        return got, problems

    def kill_once(self, point=None, after=None, at_temporary=None):
        self.fresh()
        env = {"HPCDB_CRASH_AT": str(point)} if point else None
        rc, err = self.run(env, kill_after=after, at_temporary=at_temporary)
        if rc == 0 or (rc != -signal.SIGKILL and not self.mpi):  # mpirun ends with its own status
            self.stats["finished_first"] += 1
            return
        if self.mpi:  # rank 0's watchdog removes the temporary once the job is gone
            for _ in range(100):
                if not os.path.exists(self.out + ".mpi-tmp"):
                    break
                time.sleep(0.1)
        self.stats["kills"] += 1
        self.stats["by_point" if point else "by_time" if after is not None else "by_temporary"] += 1
        where = (f"kill at point {point}" if point else f"kill after {after:.3f}s" if after is not None
                 else f"kill {at_temporary:.4f}s after the temporary appeared")
        got, problems = self.check_output(where)
        self.stats["absent" if got is None else "complete"] += 1
        if self.leftovers():
            self.stats["leftovers_after_kill"] += 1
        # the next run of the same command: cleans up, writes the same output
        rc, err = self.run(force=got is not None)  # every writer refuses an existing output without it
        if rc != 0:
            problems.append(f"{where}: the next run failed ({rc}): {err.strip()}")
        got, more = self.check_output(f"{where}, next run")
        problems += more
        if got is None:
            problems.append(f"{where}, next run: no output")
        if self.leftovers():
            problems.append(f"{where}, next run: temporaries left: {self.leftovers()}")
        if problems:
            self.stats["broken"] += 1
            self.stats["problems"] += problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hpcdb")
    ap.add_argument("data")
    ap.add_argument("work")
    ap.add_argument("--points", type=int, default=520)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--only", help="writers whose name starts with this")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int(time.time())
    rng = random.Random(seed)
    hpcdb = os.path.abspath(a.hpcdb)
    record_lib = os.path.join(os.path.dirname(hpcdb), "libhpcdb_record.so")
    for need in [f"{a.data}/hpctoolkit-v4/lmp-openmp", f"{a.data}/hpcrun/loops-cputime-t.m", record_lib]:
        if not os.path.exists(need):
            print(f"SKIP: {need} is not there (the sample data or the recorder library is missing)")
            return 77
    ws = [Writer(hpcdb, os.path.abspath(a.work), *w) for w in writers(hpcdb, a.data, record_lib)]
    if a.only:
        ws = [w for w in ws if w.name.startswith(a.only)]
    if a.quick:  # ctest: tests/mpi covers killed ranks
        ws = [w for w in ws if not w.mpi]
    started = time.monotonic()
    for w in ws:
        w.reference()
        own_writer = w.out_name == "out"  # the CLI's -o FILE: no crash points, killed by its temporary
        if a.quick:
            points = [1, w.points] if w.points else []
            moments = [w.seconds * rng.uniform(0.2, 0.8)] if not w.mpi and not own_writer else []
            at_temp = [0.0] if own_writer else []
        else:
            per = max(1, a.points // len(ws))
            n_points = min(w.points, per // 2) if w.points else 0
            points = sorted(rng.sample(range(1, w.points + 1), n_points)) if n_points else []
            n_temp = (per - len(points)) // 2 if own_writer else 0
            at_temp = [0.0] + [w.seconds * rng.uniform(0.0, 0.5) for _ in range(n_temp - 1)] if n_temp else []
            moments = [w.seconds * rng.uniform(0.0, 1.0) for _ in range(per - len(points) - n_temp)] if not w.mpi else []
        for p in dict.fromkeys(points):
            w.kill_once(point=p)
        for m in moments:
            w.kill_once(after=m)
        for t in at_temp:
            w.kill_once(at_temporary=t)
        s = w.stats
        print(f"{w.name:22} crash points {w.points:6}  kills {s['kills']:4} (at points {s['by_point']}, "
              f"by time {s['by_time']}, at the temporary {s['by_temporary']}; {s['finished_first']} finished first)  absent {s['absent']}  "
              f"complete {s['complete']}  with temporaries {s['leftovers_after_kill']}  broken {s['broken']}")
        for p in s["problems"][:10]:
            print("   ", p)
        sys.stdout.flush()
    kills = sum(w.stats["kills"] for w in ws)
    broken = sum(w.stats["broken"] for w in ws)
    print(f"seed {seed}: {kills} kills over {len(ws)} writers, {broken} broke a rule, "
          f"{time.monotonic() - started:.0f} s")
    if a.json:
        json.dump({"seed": seed, "writers": {w.name: dict(w.stats, points=w.points, seconds=w.seconds)
                                             for w in ws}}, open(a.json, "w"), indent=1)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
