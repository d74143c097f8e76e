# SPDX-License-Identifier: BSD-3-Clause
"""Shared by the check_bad.py scripts of database directories: damages made
to a copy of a sample, and the runner that checks `hpcdb validate` and
`hpcdb info` on each damaged copy.

A case is (name, damage, validate exit status, text in validate's output,
info exit status, text in info's output); damage(d) changes the copy in d."""
import os
import shutil
import subprocess


def xml_replace(old, new, count=1):
    def damage(d):
        p = os.path.join(d, "experiment.xml")
        text = open(p).read()
        assert old in text, old
        open(p, "w").write(text.replace(old, new, count))
    return damage


def xml_truncate(keep_fraction):
    def damage(d):
        p = os.path.join(d, "experiment.xml")
        data = open(p, "rb").read()
        open(p, "wb").write(data[: int(len(data) * keep_fraction)])
    return damage


def patch(name, offset, data):
    def damage(d):
        p = os.path.join(d, name)
        b = bytearray(open(p, "rb").read())
        b[offset:offset + len(data)] = data
        open(p, "wb").write(bytes(b))
    return damage


def remove(name):
    return lambda d: os.remove(os.path.join(d, name))


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def check(argv, cases, wanted):
    """argv: HPCDB SAMPLE_DB OUTDIR; wanted(name) tells which of the sample's
    files each case copies. Returns the exit status (77: no sample)."""
    hpcdb, sample, out = argv[1:4]
    if not os.path.isdir(sample):
        print("skip: %s is absent" % sample)
        return 77
    shutil.rmtree(out, ignore_errors=True)
    failures = 0
    for name, damage, v_status, v_text, i_status, i_text in cases:
        d = os.path.join(out, name)
        os.makedirs(d)
        for f in os.listdir(sample):
            if wanted(f):
                shutil.copy(os.path.join(sample, f), d)
                os.chmod(os.path.join(d, f), 0o644)
        damage(d)
        for command, status_wanted, text_wanted in (("validate", v_status, v_text), ("info", i_status, i_text)):
            status, text = run([hpcdb, command, d])
            if status != status_wanted or text_wanted not in text:
                failures += 1
                print("FAIL %s: %s exit %d (want %d), output:\n%s" % (name, command, status, status_wanted, text))
    print("%d cases, %d failures" % (len(cases), failures))
    return 1 if failures else 0
