#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Broken draft a databases (experiment.xml 4.0 + HPCPROF-* files), each
made from the ping-pong sample and checked.

check_bad.py HPCDB SAMPLE_DB OUTDIR

Every case copies experiment.xml, profile.db, cct.db and trace.db of
SAMPLE_DB into OUTDIR/<case>, applies one damage, and checks `hpcdb validate`
(exit status and the expected text in its output) and `hpcdb info` (the
reader: exit status and text)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from damage import check, patch, remove, xml_replace, xml_truncate  # noqa: E402

FILES = ("experiment.xml", "profile.db", "cct.db", "trace.db")


def cut(name, keep):
    def damage(d):
        p = os.path.join(d, name)
        open(p, "wb").write(open(p, "rb").read()[:keep])
    return damage


DATA = "<SecCallPathProfileData>\n"
# name, damage, validate exit status, text in validate's output, info exit status, text in info's output
CASES = [
    ("truncated-xml", xml_truncate(1 / 2), 1, "not well-formed", 2, "not well-formed"),
    ("mismatched-tag", xml_replace("</PF>", "</L>"), 1, "mismatched tag", 2, "mismatched tag"),
    ("no-root-element", lambda d: open(os.path.join(d, "experiment.xml"), "w").write(
        '<?xml version="1.0"?>\n<!-- HPCToolkitExperiment version="4.0" -->\n<Other/>\n'), 1, "no HPCToolkitExperiment", 2,
     "no HPCToolkitExperiment"),
    ("dangling-procedure", xml_replace('<PF i="3" s="5" n="5"', '<PF i="3" s="5" n="9999"'), 1, "dangling-procedure", 2,
     "dangling-procedure"),
    ("dangling-module", xml_replace('l="6" lm="1"', 'l="6" lm="4242"'), 1, "dangling-module", 2, "dangling-module"),
    ("dangling-file", xml_replace('f="0" l="6"', 'f="4242" l="6"'), 1, "dangling-file", 2, "dangling-file"),
    ("duplicate-file-id", xml_replace('<File i="719"', '<File i="0"'), 1, "duplicate-id", 2, "duplicate-id"),
    ("duplicate-identifier", xml_replace('<Identifier i="7"', '<Identifier i="3"'), 1, "duplicate-id", 2, "duplicate-id"),
    ("metricdb-id-not-integer", xml_replace('<MetricDB i="2"', '<MetricDB i="two"'), 1, "table-id", 2, "table-id"),
    ("metricdb-id-too-large", xml_replace('<MetricDB i="2"', '<MetricDB i="70000"'), 1, "metric-id", 2, "metric-id"),
    ("misplaced-context", xml_replace(DATA, '<S i="999" l="1"/>\n' + DATA), 1, "misplaced", 2, "misplaced"),
    ("dangling-inline-metric", xml_replace(DATA, DATA + '<M n="9" v="1"/>\n'), 1, "dangling-metric", 2, "dangling-metric"),
    ("bad-inline-value", xml_replace(DATA, DATA + '<M n="512" v="inf"/>\n'), 1, "not a finite number", 2,
     "not a finite number"),
    ("profile-magic", patch("profile.db", 0, b"XPCPROF"), 1, "profile.db", 2, "profile.db"),
    ("profile-truncated", cut("profile.db", 200), 1, "profile.db", 2, "profile.db"),
    ("trace-truncated", cut("trace.db", 100), 1, "trace.db", 2, "trace.db"),
    ("cct-magic", patch("cct.db", 0, b"XPCPROF"), 1, "cct.db", 0, "ping-pong"),
    ("profile-missing", remove("profile.db"), 0, "no profile.db", 0, "no profile.db"),
    # accepted: what the drafts allow and the reader keeps
    ("repeated-context-id", xml_replace('<S i="100"', '<S i="97"'), 0, "0 errors", 0, "ping-pong"),
    ("repeated-metricdb", xml_replace('<MetricDB i="1" n="CPUTIME (sec) (E)"/>', '<MetricDB i="1" n="CPUTIME (sec) (I)"/>'), 0,
     "0 errors", 0, "is not read"),
    ("unknown-element", xml_replace(DATA, DATA + '<Future x="1"><PF i="5000" n="5"/></Future>\n'), 0, "0 errors", 0,
     "ping-pong"),
]


if __name__ == "__main__":
    sys.exit(check(sys.argv, CASES, lambda f: f in FILES))
