#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Inputs cut short while a command reads them. Each command runs on a copy of
a real sample with HPCDB_STOP_MAPPED=NAME (src/lib/common/failpoint.h): it
stops itself once the file NAME is mapped, before reading a byte of it; the
test cuts that file at a chosen length (0, one page, half, all but its last
byte) and lets the command go on. The command must end with exit 0 and the
uncut run's output, or with exit 2 (validate: 1, the file found invalid),
an error naming the file, nothing under the output's name; never a signal
(or exit 0 with a warning naming the file as cut short, where the reader
skips a damaged file with a warning, as documented: the legacy metric-db
files; analyze runs --strict, where such a file is an error).
After a failed writer, the same command on the whole input must succeed and
remove the hidden temporary the failed one left.

  truncate.py HPCDB DATA WORK"""
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz"))
from crash_campaign import MARK, tree  # noqa: E402

failures = []
counts = {"complete": 0, "refused": 0, "warned": 0}


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def cases(data):
    """(name, sample, [file names to cut], command after hpcdb with {in} and {out}, output name or None)."""
    v4 = ["meta.db", "profile.db", "cct.db", "trace.db"]
    db, cube, meas = (f"{data}/hpctoolkit-v4/loop-fork-cycles", f"{data}/cube/scorep-cpi.cubex",
                      f"{data}/hpcrun/loops-cputime-t.m")
    legacy = f"{data}/hpctoolkit-legacy/cpi-mpi"
    return [
        ("report", db, v4, ["report", "{in}"], None),
        ("validate", db, v4, ["validate", "{in}"], None),
        ("dump", db, v4, ["dump", "{in}", "-o", "{out}"], "out.txt"),
        ("convert-v4", db, v4, ["convert", "--quiet", "{in}", "{out}"], "out.d"),
        ("convert-cube", db, v4, ["convert", "--quiet", "--to", "cube", "{in}", "{out}"], "out.cubex"),
        ("report-cube", cube, ["cube-member"], ["report", "{in}"], None),
        ("validate-cube", cube, ["cube-member"], ["validate", "{in}"], None),
        ("dump-cube", cube, ["cube-member"], ["dump", "--json", "{in}", "-o", "{out}"], "out.json"),
        ("convert-cube-v4", cube, ["cube-member"], ["convert", "--quiet", "{in}", "{out}"], "out.d"),
        ("analyze", meas, [".hpcrun", ".hpctrace"], ["analyze", "--quiet", "--strict", "-j", "1", "{in}", "-o", "{out}"],
         "out.d"),
        ("report-measurement", meas, [".hpcrun"], ["report", "{in}"], None),
        ("report-legacy", legacy, [".metric-db"], ["report", "{in}"], None),
        ("convert-legacy", legacy, [".metric-db"], ["convert", "{in}", "{out}"], "out.d"),
    ]


def state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def mapped_file(pid, name, sample_copy):
    """The file of the copy mapped by pid whose path ends in name (a .cubex's members: the .cubex)."""
    if name == "cube-member":
        return sample_copy
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            path = line.split(None, 5)[-1].strip()
            if path.startswith(sample_copy) and path.endswith(name):
                return path
    return None


def run(hpcdb, args, env=None):
    p = subprocess.run([hpcdb] + args, env=dict(os.environ, **(env or {})), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def cut_run(hpcdb, args, name, copy, cut):
    """Runs until it stops at name's mapping, cuts that file to cut(size) bytes, lets it go on."""
    env = dict(os.environ, HPCDB_STOP_MAPPED=name)
    p = subprocess.Popen([hpcdb] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline, cut_path = time.monotonic() + 60, None
    while p.poll() is None and time.monotonic() < deadline:
        if state(p.pid) == "T":
            cut_path = mapped_file(p.pid, name, copy)
            if cut_path:
                os.truncate(cut_path, cut(os.path.getsize(cut_path)))
            p.send_signal(signal.SIGCONT)
            break
        time.sleep(0.002)
    out, err = p.communicate(timeout=120)
    return p.returncode, out, err.decode(errors="replace"), cut_path


def one_case(hpcdb, work, name, sample, files, args, out_name):
    case_dir = os.path.join(work, name)
    copy = os.path.join(case_dir, os.path.basename(sample))

    def fresh():
        shutil.rmtree(case_dir, ignore_errors=True)
        os.makedirs(case_dir)
        (shutil.copytree if os.path.isdir(sample) else shutil.copyfile)(sample, copy)
        for root, dirs, fs in os.walk(case_dir):
            for n in dirs + fs:
                os.chmod(os.path.join(root, n), 0o755 if n in dirs else 0o644)

    out = os.path.join(case_dir, out_name) if out_name else None
    full = [a.format(**{"in": copy, "out": out or ""}) for a in args]
    fresh()
    rc, ref_stdout, err = run(hpcdb, full)
    if rc != 0:
        fail(f"{name}: the uncut run failed ({rc}): {err.strip()}")
        return
    ref = tree(out) if out else None
    for f in files:
        for label, cut in [("0", lambda n: 0), ("one page", lambda n: min(n - 1, 4096)),
                           ("half", lambda n: n // 2), ("all but 1", lambda n: n - 1)]:
            fresh()
            rc, stdout, err, cut_path = cut_run(hpcdb, full, f, copy, cut)
            where = f"{name}, {f} cut to {label}"
            if cut_path is None:
                fail(f"{where}: the command never mapped it (rc {rc})")
                continue
            if rc < 0:
                fail(f"{where}: killed by signal {-rc}: {err.strip()[:300]}")
                continue
            if rc == 0:
                if not ((tree(out) != ref) if out else (stdout != ref_stdout)):
                    counts["complete"] += 1
                elif "cut short while it was read" in err and os.path.basename(cut_path) in err:
                    counts["warned"] += 1  # the file skipped with a warning that says why
                else:
                    fail(f"{where}: exit 0 with an output that differs from the uncut run's (a wrong answer)")
                continue
            want = (1, 2) if name.startswith("validate") else (2,)
            if rc not in want:
                fail(f"{where}: exit {rc}, want {' or '.join(map(str, want))}")
            if os.path.basename(cut_path) not in err and os.path.basename(copy) not in err:
                fail(f"{where}: the error does not name the file: {err.strip()[:300]}")
            if out and os.path.lexists(out):
                fail(f"{where}: something was left under the output's name")
            counts["refused"] += 1
            if out:  # the whole input again: succeeds and removes the failed run's temporary
                shutil.rmtree(copy) if os.path.isdir(copy) else os.remove(copy)
                (shutil.copytree if os.path.isdir(sample) else shutil.copyfile)(sample, copy)
                rc, _, err = run(hpcdb, full)
                parent, base = os.path.split(out)
                left = [n for n in os.listdir(parent) if n.startswith("." + base + MARK)]
                if rc != 0 or tree(out) != ref or left:
                    fail(f"{where}: the next run: exit {rc}, output {'same' if tree(out) == ref else 'differs'}, "
                         f"temporaries {left}: {err.strip()[:200]}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    hpcdb, data, work = os.path.abspath(sys.argv[1]), sys.argv[2], os.path.abspath(sys.argv[3])
    need = f"{data}/hpctoolkit-v4/loop-fork-cycles"
    if not os.path.isdir(need):
        print(f"SKIP: {need} is not there (the sample data is missing)")
        return 77
    # a sanitizer's runtime would take SIGBUS for itself: the command's own guard is what is tested
    os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":handle_sigbus=0"
    shutil.rmtree(work, ignore_errors=True)
    for c in cases(data):
        one_case(hpcdb, work, *c)
    print(f"{counts['complete']} runs ended complete, {counts['warned']} skipped the cut file with a warning, "
          f"{counts['refused']} refused cleanly, {len(failures)} failures")
    if counts["refused"] == 0:
        fail("no cut made a command fail: the test does not reach the readers")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
