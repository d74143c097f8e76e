#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writers against limits: a file-size limit (RLIMIT_FSIZE), a full file
system (a small tmpfs, when this runs as root), an address-space limit
(RLIMIT_AS), a read-only output folder, an unreadable input, an output on
another file system, two commands writing one output at once. Each run ends
either with exit 0 and the complete output, or with exit 2, one error line
saying why, and nothing under the output's name (no temporaries either).

  limits.py HPCDB DATA WORK [--part efbig|enospc|memory|access|race]"""
import argparse
import os
import resource
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz"))
from crash_campaign import MARK, tree  # noqa: E402

failures = []
counts = {}


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(args, limit=None, user=None):
    def pre():
        for res, value in (limit or {}).items():
            resource.setrlimit(res, (value, value))
    if user:
        args = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + args
    p = subprocess.run(args, preexec_fn=pre, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode(errors="replace")


def commands(hpcdb, data):
    v4, run_ = f"{data}/hpctoolkit-v4", f"{data}/hpcrun"
    lib = os.path.join(os.path.dirname(hpcdb), "libhpcdb_record.so")
    cs = [("convert-v4", ["convert", "--quiet", f"{v4}/lmp-openmp", "{out}"], "db"),
          ("convert-cube", ["convert", "--quiet", "--to", "cube", f"{v4}/lmp-openmp", "{out}"], "c.cubex"),
          ("analyze-j1", ["analyze", "--quiet", "-j", "1", f"{run_}/loops-cputime-t.m", "-o", "{out}"], "db"),
          ("analyze-j2", ["analyze", "--quiet", "-j", "2", f"{run_}/loops-cuda-nvidia-t.m", "-o", "{out}"], "db"),
          ("struct", ["struct", lib, "-o", "{out}"], "s.hpcstruct")]
    for fmt in ["folded", "csv", "speedscope", "chrome-trace", "flamegraph", "html"]:
        cs.append((f"export-{fmt}", ["export", "--quiet", "--format", fmt, f"{v4}/ping-pong-mpi", "-o", "{out}"], "out"))
    return [(name, [hpcdb] + args, out) for name, args, out in cs]


def expect_clean_end(name, where, out, rc, err, ref, why):
    """exit 0 and the reference, or exit 2, one line naming why, nothing left."""
    key = f"{name} {why}"
    parent, base = os.path.split(out)
    left = [n for n in os.listdir(parent) if n.startswith("." + base + MARK)]
    if rc == 0:
        if tree(out) != ref:
            fail(f"{key} {where}: exit 0 but the output differs from the unlimited run's")
        return "complete"
    lines = [line for line in err.splitlines() if line.strip()]
    if rc != 2:
        fail(f"{key} {where}: exit {rc} (not 2): {err.strip()[:300]}")
    elif len(lines) != 1 or not any(w in lines[0] for w in why.split("|")):
        fail(f"{key} {where}: expected one line saying '{why}', got: {err.strip()[:300]}")
    if os.path.lexists(out) or left:
        fail(f"{key} {where}: left {base if os.path.lexists(out) else ''} {left}")
    return "refused"


def reference(cmd, out):
    rc, err = run([a.format(out=out) for a in cmd])
    if rc != 0:
        sys.exit(f"unlimited run failed: {cmd}: {err}")
    ref = tree(out)
    shutil.rmtree(out) if os.path.isdir(out) else os.remove(out)
    return ref


def efbig(cs, work):
    for name, cmd, o in cs:
        out = os.path.join(work, o)
        ref = reference(cmd, out)
        for kb in (1, 8, 64, 256, 1024, 4096):
            rc, err = run([a.format(out=out) for a in cmd], {resource.RLIMIT_FSIZE: kb * 1024})
            end = expect_clean_end(name, f"ulimit -f {kb}", out, rc, err, ref, "File too large")
            counts[f"efbig {end}"] = counts.get(f"efbig {end}", 0) + 1
            if os.path.lexists(out):
                shutil.rmtree(out) if os.path.isdir(out) else os.remove(out)


def enospc(cs, work):
    if os.geteuid() != 0:
        print("SKIP enospc: not root, cannot mount a small tmpfs")
        return
    mnt = os.path.join(work, "mnt")
    os.makedirs(mnt, exist_ok=True)
    for kb in (16, 64, 256, 1024):
        if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kb}k", "tmpfs", mnt]).returncode != 0:
            print("SKIP enospc: mount -t tmpfs failed")
            return
        try:
            for name, cmd, o in cs:
                out = os.path.join(mnt, o)
                ref = reference(cmd, os.path.join(work, o))
                rc, err = run([a.format(out=out) for a in cmd])
                end = expect_clean_end(name, f"tmpfs of {kb} KiB", out, rc, err, ref, "No space left on device")
                counts[f"enospc {end}"] = counts.get(f"enospc {end}", 0) + 1
                if os.path.lexists(out):
                    shutil.rmtree(out) if os.path.isdir(out) else os.remove(out)
        finally:
            subprocess.run(["umount", mnt])


def memory(cs, work):
    """From the smallest address space the loader starts hpcdb in up to the
    one the command needs: out of memory (exit 2, one line), or complete."""
    for name, cmd, o in cs:
        out = os.path.join(work, o)
        ref = reference(cmd, out)
        for mb in (8, 10, 12, 16, 24, 32, 48):
            rc, err = run([a.format(out=out) for a in cmd], {resource.RLIMIT_AS: mb << 20})
            # the loader gave up before main: mapping a library, or the first thread's TLS
            if rc == 127 and ("error while loading shared libraries" in err or "cannot allocate TLS" in err):
                counts["memory: too small to load"] = counts.get("memory: too small to load", 0) + 1
                continue
            end = expect_clean_end(name, f"ulimit -v {mb} MiB", out, rc, err, ref, "out of memory|cannot be opened")
            counts[f"memory {end}"] = counts.get(f"memory {end}", 0) + 1
            if os.path.lexists(out):
                shutil.rmtree(out) if os.path.isdir(out) else os.remove(out)


def access(cs, work, data):
    convert = cs[0][1]
    # read-only output folder: as root, permissions do not stop writes: a read-only mount does
    ro = os.path.join(work, "ro")
    os.makedirs(ro, exist_ok=True)
    mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", ro]).returncode == 0
    if not mounted:
        os.chmod(ro, 0o555)
    try:
        out = os.path.join(ro, "db")
        rc, err = run([a.format(out=out) for a in convert])
        expect_clean_end("convert-v4", "into a read-only folder", out, rc, err, None,
                         "Read-only file system|Permission denied")
    finally:
        if mounted:
            subprocess.run(["umount", ro])
    # unreadable input: as nobody, a copy with mode 000
    if shutil.which("setpriv") and os.geteuid() == 0:
        src = os.path.join(work, "in.d")
        shutil.copytree(f"{data}/hpctoolkit-v4/cpi-mpi", src)
        os.chmod(os.path.join(src, "cct.db"), 0)
        os.chmod(work, 0o777)
        out = os.path.join(work, "unreadable.d")
        rc, err = run([convert[0], "convert", "--quiet", src, out], user=True)
        expect_clean_end("convert-v4", "of an unreadable input", out, rc, err, None, "Permission denied")
    else:
        print("SKIP unreadable input: needs root to run the command as nobody")
    # another file system than the working directory's
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.stat(shm).st_dev != os.stat(work).st_dev:
        out = os.path.join(shm, f"hpcdb-limits-{os.getpid()}.d")
        ref = reference(convert, os.path.join(work, "db"))
        rc, err = run([a.format(out=out) for a in convert])
        expect_clean_end("convert-v4", "onto /dev/shm", out, rc, err, ref, "-")
        shutil.rmtree(out, ignore_errors=True)


def race(cs, work, rounds=8):
    """Two commands writing one output at once: one wins, the other refuses."""
    for name, cmd, o in [cs[0], cs[1]]:
        out = os.path.join(work, o)
        ref = reference(cmd, out)
        for r in range(rounds):
            ps = [subprocess.Popen([a.format(out=out) for a in cmd], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE) for _ in range(2)]
            rcs = [(p.wait(), p.stderr.read().decode()) for p in ps]
            ok = [rc for rc, _ in rcs if rc == 0]
            if len(ok) != 1 or any(rc not in (0, 2) for rc, _ in rcs):
                fail(f"{name} race {r}: exits {[rc for rc, _ in rcs]}: {[e for _, e in rcs]}")
            if tree(out) != ref:
                fail(f"{name} race {r}: the output is not the whole of one run")
            counts["race rounds"] = counts.get("race rounds", 0) + 1
            shutil.rmtree(out) if os.path.isdir(out) else os.remove(out)


def race_mpi(hpcdb, data, work, rounds=2):
    """The same for two hpcdb-mpi runs on 2 ranks each."""
    mpirun, hpcdb_mpi = shutil.which("mpirun"), os.path.join(os.path.dirname(hpcdb), "hpcdb-mpi")
    if not mpirun or not os.path.exists(hpcdb_mpi):
        print("SKIP race-mpi: no mpirun or hpcdb-mpi")
        return
    out = os.path.join(work, "mpi.d")
    cmd = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2", hpcdb_mpi, "analyze", "--quiet",
           f"{data}/hpcrun/loops-cputime-t.m", "-o", out]
    ref = reference(cmd, out)
    # each mpirun its own session directory: two started at the same instant race to create the
    # shared /tmp/ompi.HOST.UID and one fails with "mkdir ... File exists" (Open MPI 4.1)
    envs = []
    for i in range(2):
        tmp = os.path.join(work, f"ompi-tmp-{i}")
        os.makedirs(tmp, exist_ok=True)
        envs.append(dict(os.environ, TMPDIR=tmp, OMPI_MCA_orte_tmpdir_base=tmp))
    for r in range(rounds):
        ps = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=e) for e in envs]
        rcs = [(p.wait(), p.stderr.read().decode()) for p in ps]
        if sorted(rc for rc, _ in rcs) != [0, 2]:
            fail(f"hpcdb-mpi race {r}: exits {[rc for rc, _ in rcs]}: {[e[:200] for _, e in rcs]}")
        if tree(out) != ref or os.path.exists(out + ".mpi-tmp"):
            fail(f"hpcdb-mpi race {r}: the output is not the whole of one run, or its temporary is left")
        counts["race rounds"] = counts.get("race rounds", 0) + 1
        shutil.rmtree(out, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hpcdb")
    ap.add_argument("data")
    ap.add_argument("work")
    ap.add_argument("--part", action="append")
    a = ap.parse_args()
    hpcdb = os.path.abspath(a.hpcdb)
    if not os.path.isdir(f"{a.data}/hpctoolkit-v4/lmp-openmp"):
        print(f"SKIP: the sample data is not in {a.data}")
        return 77
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    cs = commands(hpcdb, a.data)
    parts = a.part or ["efbig", "enospc", "memory", "access", "race"]
    for p in parts:
        if p == "access":
            access(cs, a.work, a.data)
        elif p == "race":
            race(cs, a.work)
            race_mpi(hpcdb, a.data, a.work)
        else:
            globals()[p](cs, a.work)
    print("counts:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
