#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Rewrite one metric's sampling period in hpcrun 04.00 files, in place.

usage: set_period.py METRIC PERIOD FILE...

hpcrun stores one count per sample of a period-mode event and the period in
the metric descriptor (name, description: u32 length + bytes each; 16 flag
bytes; the period, u64 big-endian). hpcdb record stores final counts with
period 1; giving such a file a period P makes the measurement hpcrun would
have written had each count stood for P events."""
import struct
import sys


def patch(data, metric, period):
    name = metric.encode()
    key = struct.pack(">I", len(name)) + name
    at = data.find(key)
    if at < 0:
        sys.exit(f"metric {metric!r} not found")
    off = at + len(key)
    (desc_len,) = struct.unpack_from(">I", data, off)
    off += 4 + desc_len + 16
    (old,) = struct.unpack_from(">Q", data, off)
    if old != 1:
        sys.exit(f"metric {metric!r} has period {old}, expected hpcdb record's 1")
    struct.pack_into(">Q", data, off, period)


def main():
    metric, period, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    for path in files:
        with open(path, "rb") as f:
            data = bytearray(f.read())
        patch(data, metric, period)
        with open(path, "wb") as f:
            f.write(data)


main()
