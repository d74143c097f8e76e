#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Broken legacy databases, each made from the cpi sample and checked.

check_bad.py HPCDB SAMPLE_DB OUTDIR

Every case copies experiment.xml and the *.metric-db files of SAMPLE_DB into
OUTDIR/<case>, applies one damage, and checks `hpcdb validate` (exit status
and the expected text in its output) and `hpcdb info` (the reader: it fails
on a broken experiment.xml, but only warns for a broken or missing
metric-db file and leaves that profile empty)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from damage import check, patch, remove, xml_replace, xml_truncate  # noqa: E402

RANK0 = "1.cpi-000000-000-a8c00270-160443-0.metric-db"
RANK2 = "1.cpi-000002-000-a8c00270-160445-0.metric-db"


def db_patch(offset, data, name=RANK0):
    return patch(name, offset, data)


def db_resize(delta, name=RANK0):
    def damage(d):
        p = os.path.join(d, name)
        b = open(p, "rb").read()
        open(p, "wb").write(b[:delta] if delta < 0 else b + bytes(delta))
    return damage


def rename(name, new):
    return lambda d: os.rename(os.path.join(d, name), os.path.join(d, new))


LAUGHS = "".join('<!ENTITY l%d "%s">\n' % (k, "&l%d;" % (k - 1) * 10 if k else "lol") for k in range(10))


# name, damage, validate exit status, text in validate's output, info exit status, text in info's stderr
CASES = [
    ("truncated-xml", xml_truncate(2 / 3), 1, "not well-formed", 2, "not well-formed"),
    ("mismatched-tag", xml_replace("</S>", "</C>"), 1, "mismatched tag", 2, "mismatched tag"),
    ("undefined-entity", xml_replace("&lt;program root&gt;", "&nope;"), 1, "undefined entity", 2, "undefined entity"),
    ("dangling-procedure", xml_replace('n="7">', 'n="9999">'), 1, "dangling-procedure", 2, "dangling-procedure"),
    ("dangling-module", xml_replace('lm="2"', 'lm="4242"'), 1, "dangling-module", 2, "dangling-module"),
    ("dangling-file", xml_replace('f="3" n="7"', 'f="4242" n="7"'), 1, "dangling-file", 2, "dangling-file"),
    ("duplicate-context-id", xml_replace('<C i="5"', '<C i="4"'), 1, "duplicate-id", 2, "duplicate-id"),
    ("duplicate-procedure-id", xml_replace('<Procedure i="501"', '<Procedure i="7"'), 1, "duplicate-id", 2, "duplicate-id"),
    ("negative-context-id", xml_replace('<S i="25"', '<S i="-25"'), 1, "ctx-id", 2, "ctx-id"),
    ("dangling-metric", xml_replace('<M n="2" v="3.99824e+06"/>', '<M n="77" v="1"/>'), 1, "dangling-metric", 2, "dangling-metric"),
    ("bad-value", xml_replace('<M n="2" v="3.99824e+06"/>', '<M n="2" v="lots"/>'), 1, "value", 2, "not a finite number"),
    ("duplicate-value", xml_replace('<M n="3" v="179877"/>', '<M n="3" v="179877"/><M n="3" v="1"/>'), 1, "duplicate-value", 2, "duplicate-value"),
    ("dangling-partner", xml_replace('partner="1"', 'partner="8"'), 1, "dangling-partner", 0, ""),
    ("duplicate-db-id", xml_replace('db-id="1"', 'db-id="0"'), 1, "used twice", 2, "used twice"),
    ("repeated-metric-column", xml_replace('n="CPUTIME (usec) (E)" t="exclusive"', 'n="CPUTIME (usec) (I)" t="inclusive"'), 0,
     "metric-repeated", 0, "is not read"),
    ("repeated-inline-column", xml_replace('n="CPUTIME (usec):Sum (E)" v="derived-incr" t="exclusive"',
                                           'n="CPUTIME (usec):Sum (I)" v="derived-incr" t="inclusive"'), 0,
     "metric-repeated", 0, "is not read"),
    ("version", xml_replace('version="2.0"', 'version="9.1"'), 1, "version", 2, "version"),
    ("metricdb-magic", db_patch(0, b"XPCPROF"), 1, "magic", 0, "left empty"),
    ("metricdb-endianness", db_patch(23, b"l"), 1, "endianness", 0, "left empty"),
    ("metricdb-short", db_resize(-9), 1, "size", 0, "left empty"),
    ("metricdb-trailing", db_resize(16), 1, "bytes after the last row", 0, "ignored"),
    ("metricdb-metric-count", db_patch(28, struct.pack(">I", 1)), 1, "metric-count", 0, "left empty"),
    ("metricdb-context-count", db_patch(24, struct.pack(">I", 10)), 1, "context-count", 0, "left empty"),
    ("metricdb-nan", db_patch(32, struct.pack(">d", float("nan"))), 1, "value-finite", 0, "left empty"),
    ("metricdb-missing", remove(RANK2), 0, "no metric-db file for rank 2", 0, "rank 2"),
    ("metricdb-rank-gap", rename(RANK2, RANK2.replace("000002", "999999999")), 0, "ranks 4..999999998", 0,
     "ranks 4..999999998"),
    ("billion-laughs", lambda d: (xml_replace(']>', LAUGHS + ']>')(d), xml_replace('<Header n="cpi">', '<Header n="&l9;">')(d)),
     1, "amplification", 2, "amplification"),
    ("metricdb-all-missing", lambda d: [os.remove(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".metric-db")],
     0, "only summary values", 0, "only its summary values"),
]


if __name__ == "__main__":
    sys.exit(check(sys.argv, CASES, lambda f: f == "experiment.xml" or f.endswith(".metric-db")))
