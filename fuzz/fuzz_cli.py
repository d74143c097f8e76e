#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Mutation campaign over the commands: every real sample in the sample data,
damaged at random, through every hpcdb command under ASan + UBSan.

Each round copies one sample (a database directory, a measurement directory or
a .cubex file), damages one of its files (truncation, byte flips, 0 / 0xff /
INT32_MAX / INT64_MAX words at random offsets, a few at a time) and runs every
command on the copy. A finding is a sanitizer report, a signal, a hang (past
the time limit) or an exit status outside the command's contract; each is kept
under OUT/findings/N/ with the damaged sample, the command and its stderr.

Usage: fuzz/fuzz_cli.py HPCDB SAMPLES OUT [--minutes M] [--seed S]
  HPCDB is the hpcdb binary of a -DHPCDB_SANITIZE=ON build (make fuzz-cli).
Progress goes to OUT/campaign.log; the last line sums up the run."""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import time

SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer",
                   "AddressSanitizer:DEADLYSIGNAL")
TIME_LIMIT_S = 60


def samples(root):
    """The real samples: (kind, path) for each directory or file a command reads."""
    found = []
    for group in ("hpctoolkit-v4", "hpctoolkit-2022", "hpctoolkit-legacy"):
        base = os.path.join(root, group)
        if os.path.isdir(base):
            found += [("db", os.path.join(base, n)) for n in sorted(os.listdir(base))
                      if os.path.isdir(os.path.join(base, n))]
    expected = os.path.join(root, "hpcrun", "expected")
    if os.path.isdir(expected):
        found += [("db", os.path.join(expected, n)) for n in sorted(os.listdir(expected))
                  if n.endswith(".d")]
    hpcrun = os.path.join(root, "hpcrun")
    if os.path.isdir(hpcrun):
        found += [("measurements", os.path.join(hpcrun, n)) for n in sorted(os.listdir(hpcrun))
                  if n.endswith(".m")]
    cube = os.path.join(root, "cube")
    if os.path.isdir(cube):
        found += [("cube", os.path.join(cube, n)) for n in sorted(os.listdir(cube))
                  if n.endswith(".cubex")]
    return found


def damageable_files(path):
    if os.path.isfile(path):
        return [path]
    out = []
    for d, _, names in os.walk(path):
        out += [os.path.join(d, n) for n in names if os.path.getsize(os.path.join(d, n)) > 0]
    return sorted(out)


def damage(data, rng):
    """One to four random damages; returns (bytes, description)."""
    b = bytearray(data)
    what = []
    for _ in range(rng.choice((1, 1, 1, 2, 3, 4))):
        if not b:
            break
        kind = rng.choice(("truncate", "flip", "flip", "byte", "word", "word", "word"))
        off = rng.randrange(len(b))
        if kind == "truncate":
            del b[off:]
            what.append("truncate:0x%x" % off)
        elif kind == "flip":
            bit = rng.randrange(8)
            b[off] ^= 1 << bit
            what.append("flip:0x%x:%d" % (off, bit))
        elif kind == "byte":
            v = rng.choice((0, 0xff, 0x7f, 0x80, rng.randrange(256)))
            b[off] = v
            what.append("set8:0x%x:0x%x" % (off, v))
        else:
            size = rng.choice((2, 4, 8))
            v = rng.choice((0, (1 << (8 * size)) - 1, (1 << (8 * size - 1)) - 1,
                            1 << (8 * size - 1), 1, rng.randrange(1 << (8 * size))))
            order = rng.choice("<>")
            fmt = order + {2: "H", 4: "I", 8: "Q"}[size]
            word = struct.pack(fmt, v)[: len(b) - off]
            b[off:off + len(word)] = word
            what.append("set%d%s:0x%x:0x%x" % (8 * size, "le" if order == "<" else "be", off, v))
    return bytes(b), " ".join(what)


def commands(kind, sample, out, exports):
    """Every command on the damaged copy SAMPLE (every export of EXPORTS); OUT is a scratch directory."""
    cmds = [["info", sample], ["validate", sample], ["dump", sample], ["dump", "--json", sample]]
    for view in ("top-down", "bottom-up", "flat", "profiles"):
        cmds.append(["report", "--view", view, sample])
    cmds.append(["report", "--json", sample])
    for fmt in exports:
        cmds.append(["export", "--force", "--format", fmt, sample, "-o", os.path.join(out, "export." + fmt)])
    # --force: OUT is reused from run to run, and an existing output is refused without it
    cmds.append(["convert", "--force", sample, os.path.join(out, "conv.d")])
    cmds.append(["convert", "--force", "--to", "cube", sample, os.path.join(out, "conv.cubex")])
    if kind == "measurements":
        cmds.append(["analyze", "--force", "-j", "2", sample, "-o", os.path.join(out, "analyzed.d")])
    return cmds


# Exit statuses each command may give (DESIGN.md's contract).
ALLOWED = {"info": {0, 2}, "validate": {0, 1, 2}, "dump": {0, 2}, "report": {0, 2},
           "export": {0, 2}, "convert": {0, 1, 2}, "analyze": {0, 2}, "diff": {0, 1, 2}}


def run(hpcdb, args, env):
    try:
        r = subprocess.run([hpcdb] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=TIME_LIMIT_S, env=env)
    except subprocess.TimeoutExpired:
        return "hang", b""
    err = r.stderr
    text = err.decode("utf-8", "replace")
    if any(m in text for m in SANITIZER_MARKS):
        return "sanitizer", err
    if r.returncode < 0:
        return "signal %d" % -r.returncode, err
    if r.returncode not in ALLOWED[args[0]]:
        return "exit %d" % r.returncode, err
    return None, err


def finding_key(command, problem, err):
    """One finding per place: a sanitizer's report line (file:line: kind) or
    first stack frame; a signal, hang or bad exit status once per command."""
    text = err.decode("utf-8", "replace")
    for line in text.splitlines():
        if "runtime error:" in line:
            return (problem, line.split(" runtime error:")[0])
        if line.strip().startswith("#0 "):
            return (problem, line.split(" in ", 1)[-1])
    return (command, problem)


def keep_finding(out, n, problem, args, err, scratch_sample, source, what, log):
    d = os.path.join(out, "findings", "%04d" % n)
    os.makedirs(d)
    dst = os.path.join(d, os.path.basename(scratch_sample))
    if os.path.isdir(scratch_sample):
        shutil.copytree(scratch_sample, dst)
    else:
        shutil.copy(scratch_sample, dst)
    with open(os.path.join(d, "finding.txt"), "w") as f:
        f.write("problem: %s\nsample: %s\ndamage: %s\ncommand: hpcdb %s\n" %
                (problem, source, what, " ".join(args)))
    with open(os.path.join(d, "stderr.txt"), "wb") as f:
        f.write(err[-200000:])
    log("FINDING %04d %s: hpcdb %s (sample %s, damage %s)" %
        (n, problem, " ".join(args), source, what))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("hpcdb")
    p.add_argument("samples")
    p.add_argument("out")
    p.add_argument("--minutes", type=float, default=60)
    p.add_argument("--seed", type=int, default=int(time.time()))
    a = p.parse_args()
    hpcdb = os.path.abspath(a.hpcdb)
    # the export registry's names (hpcdb export --list): a new export is fuzzed without a change here
    exports = [line.split()[0] for line in subprocess.run([hpcdb, "export", "--list"], capture_output=True,
                                                          text=True, check=True).stdout.splitlines()]
    os.makedirs(a.out, exist_ok=True)
    logf = open(os.path.join(a.out, "campaign.log"), "a")

    def log(msg):
        logf.write(time.strftime("%H:%M:%S ") + msg + "\n")
        logf.flush()

    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    todo = samples(a.samples)
    if not todo:
        print("no samples under %s" % a.samples, file=sys.stderr)
        return 77
    rng = random.Random(a.seed)
    log("start: seed %d, %d samples, %d minutes" % (a.seed, len(todo), a.minutes))
    scratch = os.path.join(a.out, "scratch")
    start = time.time()
    rounds = runs = findings = 0
    seen = set()
    while time.time() - start < a.minutes * 60:
        kind, source = todo[rounds % len(todo)]
        rounds += 1
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch)
        copy = os.path.join(scratch, os.path.basename(source))
        if os.path.isdir(source):
            shutil.copytree(source, copy)
        else:
            shutil.copy(source, copy)
        target = rng.choice(damageable_files(copy))
        with open(target, "rb") as f:
            data, what = damage(f.read(), rng)
        with open(target, "wb") as f:
            f.write(data)
        what = "%s %s" % (os.path.relpath(target, scratch), what)
        cmds = commands(kind, copy, scratch, exports) + [["diff", source, copy]]
        for args in cmds:
            runs += 1
            problem, err = run(hpcdb, args, env)
            if problem:
                key = finding_key(args[0], problem, err)
                if key in seen:
                    continue
                seen.add(key)
                findings += 1
                keep_finding(a.out, findings, problem, args, err, copy, source, what, log)
        if rounds % 20 == 0:
            log("progress: %d rounds, %d command runs, %d findings, %.0f s" %
                (rounds, runs, findings, time.time() - start))
    shutil.rmtree(scratch, ignore_errors=True)
    log("done: %d damaged inputs, %d command runs, %d distinct findings in %.0f s" %
        (rounds, runs, findings, time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
