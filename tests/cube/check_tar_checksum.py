#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""CubeW 4.8's tar header checksum bug: read with a warning, as CubeLib and
pycubexr read such files; other checksum damage still refused.

check_tar_checksum.py HPCDB OUTDIR

A small valid .cubex (tests/bad/cube/check_bad.py's) with some member headers'
checksums set 32 below the right value (what CubeW 4.8 writes), plain and
gzip-compressed: `hpcdb info` reads it and warns, `validate` notes
`tar-checksum` and finds no error, `diff` against the pristine file finds the
same values. A checksum off by 1 or by 64 is still a damaged archive: exit 1
or 2 with a message, never a crash."""
import gzip, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bad", "cube"))
import check_bad  # noqa: E402

hpcdb, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def headers(b):
    """Offsets of the member headers of a ustar archive."""
    at = 0
    while at + 512 <= len(b) and b[at:at + 512] != bytes(512):
        yield at
        size = int(b[at + 124:at + 136].rstrip(b"\0 ") or b"0", 8)
        at += 512 + (size + 511) // 512 * 512


def shift_checksum(b, at, delta):
    stored = int(b[at + 148:at + 156].rstrip(b"\0 "), 8)
    b[at + 148:at + 156] = b"%06o\0 " % (stored + delta)


def write(name, data):
    path = os.path.join(out, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def run(*args):
    return subprocess.run([hpcdb, *args], capture_output=True, text=True)


pristine = bytes(check_bad.tar(check_bad.members()))
good = write("pristine.cubex", pristine)
offsets = list(headers(pristine))
assert len(offsets) == 5, offsets

for label, which in (("some", [1, 3]), ("anchor", [0]), ("all", range(5))):
    b = bytearray(pristine)
    for k in which:
        shift_checksum(b, offsets[k], -32)
    for suffix, data in (("", bytes(b)), (".gz", gzip.compress(bytes(b), mtime=0))):
        path = write(f"cubew48-{label}.cubex{suffix}", data)
        r = run("info", path)
        if r.returncode != 0:
            fail(f"{path}: info exited {r.returncode}: {r.stderr.strip()}")
        elif "checksum 32 below" not in r.stderr:
            fail(f"{path}: info gave no warning: {r.stderr.strip()!r}")
        r = run("validate", path)
        if r.returncode != 0 or "tar-checksum" not in r.stdout:
            fail(f"{path}: validate exited {r.returncode} without the tar-checksum note: {r.stdout.strip()}")
        r = run("diff", good, path)
        if r.returncode != 0:
            fail(f"{path}: values differ from the pristine file: {r.stdout[:300]}")

for delta in (-1, +32, -64):
    b = bytearray(pristine)
    shift_checksum(b, offsets[2], delta)
    path = write(f"damaged{delta:+d}.cubex", bytes(b))
    for cmd in ("info", "validate"):
        r = run(cmd, path)
        if r.returncode not in (1, 2) or "tar" not in (r.stdout + r.stderr):
            fail(f"{path}: {cmd} exited {r.returncode} (want 1 or 2 and a tar message): {(r.stdout + r.stderr).strip()[:300]}")

def set_checksum(b, at):
    b[at + 148:at + 156] = b" " * 8
    b[at + 148:at + 156] = b"%06o\0 " % sum(b[at:at + 512])


# hostile sizes with right checksums: refused or read, never a crash or a hang
for label, field in (("base256-huge", b"\x80" + b"\0" * 3 + b"\x40" + b"\0" * 7),
                     ("base256-max", b"\xff" * 12), ("octal-max", b"77777777777\0")):
    b = bytearray(pristine)
    b[offsets[1] + 124:offsets[1] + 136] = field
    set_checksum(b, offsets[1])
    path = write(f"size-{label}.cubex", bytes(b))
    for cmd in ("info", "validate"):
        try:
            r = subprocess.run([hpcdb, cmd, path], capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            fail(f"{path}: {cmd} hangs")
            continue
        if r.returncode not in (0, 1, 2):
            fail(f"{path}: {cmd} exited {r.returncode}: {(r.stdout + r.stderr).strip()[:300]}")
print(f"{0 if failures else 1} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
