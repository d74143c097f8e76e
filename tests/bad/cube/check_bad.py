#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Broken Cube files, each rejected with its rule.

check_bad.py HPCDB OUTDIR [--seeds DIR]

Builds a small valid .cubex (2 metrics, 3 cnodes, 2 locations; one metric
sparse CUBEX.DATA, one ZCUBEX.DATA), checks that hpcdb accepts it, then
writes one mutation per case and checks that `hpcdb validate` reports the
expected rule (exit 1, or 2 where the file is not readable at all) and, where
the case says so, that `hpcdb info` (the reader) fails too.  With --seeds,
the anchor and member bytes are also written there as fuzz seeds."""
import io, os, struct, subprocess, sys, tarfile, zlib

ANCHOR = """<?xml version="1.0" encoding="UTF-8"?>
<cube version="4.4">
<attr key="Creator" value="check_bad.py"/>
<metrics>
<metric id="0" type="EXCLUSIVE"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name><dtype>UINT64</dtype><uom>occ</uom><url></url><descr></descr></metric>
<metric id="1" type="INCLUSIVE"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom><url></url><descr></descr></metric>
</metrics>
<program>
<region id="0" mod="a.c" begin="1" end="9"><name>main</name></region>
<region id="1" mod="a.c" begin="10" end="19"><name>foo</name></region>
<region id="2" mod="a.c" begin="20" end="29"><name>bar</name></region>
<cnode id="0" calleeId="0">
<cnode id="1" calleeId="1">
</cnode>
<cnode id="2" calleeId="2">
</cnode>
</cnode>
</program>
<system>
<systemtreenode Id="0"><name>machine</name><class>machine</class>
<systemtreenode Id="1"><name>node</name><class>node</class>
<locationgroup Id="0"><name>rank 0</name><rank>0</rank><type>process</type>
<location Id="0"><name>t0</name><rank>0</rank><type>thread</type></location>
<location Id="1"><name>t1</name><rank>1</rank><type>thread</type></location>
</locationgroup>
</systemtreenode>
</systemtreenode>
</system>
</cube>
"""


def index(entries, fmt=1, endian=1, magic=b"CUBEX.INDEX", count=None):
    n = len(entries) if count is None else count
    return magic + struct.pack("<IHBI", endian, 0, fmt, n) + b"".join(struct.pack("<I", e) for e in entries)


def plain(rows, code):
    return b"CUBEX.DATA" + b"".join(struct.pack("<" + code * len(r), *r) for r in rows)


def zdata(rows, code, count=None, damage=None, oversize=False):
    streams, heads, at = [], [], 0
    for k, r in enumerate(rows):
        z = zlib.compress(struct.pack("<" + code * len(r), *r))
        if damage == k:
            z = b"\x00garbage!" + z[9:]
        heads.append(struct.pack("<QQQ", 8 * len(r) * k, at, len(z) + (1000 if oversize else 0)))
        streams.append(z)
        at += len(z)
    n = len(rows) if count is None else count
    return b"ZCUBEX.DATA" + struct.pack("<Q", n) + b"".join(heads) + b"".join(streams)


VISITS = [(1, 1), (2, 3), (4, 5)]  # pre-order positions 0, 1, 2; two locations
TIMES = [(10.0, 11.0), (2.0, 3.0), (4.0, 5.0)]


def members(**over):
    m = {"anchor.xml": ANCHOR.encode(), "0.index": index([0, 1, 2]), "0.data": plain(VISITS, "Q"),
         "1.index": index([0, 1, 2]), "1.data": zdata(TIMES, "d")}
    m.update(over)
    return [(k, v) for k, v in m.items() if v is not None]


def tar(items):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in items:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def bad_checksum(data, member):
    """The tar with a stray byte after the name in its MEMBER-th header, so
    that the header checksum no longer matches (libarchive: ARCHIVE_RETRY, an
    entry without a name)."""
    b, at = bytearray(data), 0
    for _ in range(member):
        size = int(bytes(b[at + 124:at + 136]).strip(b"\0 ") or b"0", 8)
        at += 512 + (size + 511) // 512 * 512
    b[at + 14] = 0x80
    return bytes(b)


def anchor(old, new):
    assert old in ANCHOR, old
    return ANCHOR.replace(old, new).encode()


# name, members or raw bytes, rule validate must report, must the reader fail too
CASES = [
    ("index-magic", members(**{"0.index": index([0, 1, 2], magic=b"CUBEX.INDEY")}), "magic", True),
    ("data-magic", members(**{"0.data": b"CUBEX.DATB" + plain(VISITS, "Q")[10:]}), "magic", True),
    ("index-endian", members(**{"0.index": index([0, 1, 2], endian=2)}), "endian", True),
    ("index-format", members(**{"0.index": index([0, 1, 2], fmt=7)}), "index-format", True),
    ("index-count", members(**{"0.index": index([0, 1, 2], count=9)}), "count", True),
    ("index-no-count", members(**{"0.index": index([])[:19]}), "truncated", True),
    ("index-range", members(**{"0.index": index([0, 1, 7])}), "index-range", True),
    ("index-order", members(**{"0.index": index([0, 2, 1])}), "index-order", False),
    ("index-repeat", members(**{"0.index": index([0, 1, 1])}), "index-order", False),
    ("data-short", members(**{"0.data": plain(VISITS, "Q")[:-5]}), "data-size", True),
    ("index-data-mismatch", members(**{"0.data": plain(VISITS[:2], "Q")}), "data-size", True),
    ("zlib-broken", members(**{"1.data": zdata(TIMES, "d", damage=1)}), "zlib", True),
    ("zlib-rows", members(**{"1.data": zdata(TIMES, "d", count=2)}), "data-rows", True),
    ("zlib-size", members(**{"1.data": zdata(TIMES, "d", oversize=True)}), "zlib", True),
    ("zlib-truncated", members(**{"1.data": zdata(TIMES, "d")[:-4]}), "zlib", True),
    ("missing-data", members(**{"0.data": None}), "member-missing", False),
    ("missing-index", members(**{"1.index": None}), "member-missing", False),
    ("missing-anchor", members(**{"anchor.xml": None}), "member-missing", True),
    ("xml-truncated", members(**{"anchor.xml": ANCHOR.encode()[:600]}), "xml", True),
    ("xml-mismatched", members(**{"anchor.xml": anchor("</program>", "</programm>")}), "xml", True),
    ("xml-gzip-broken", members(**{"anchor.xml": b"\x1f\x8b\x08\x00broken gzip data"}), "gzip", True),
    ("callee-missing", members(**{"anchor.xml": anchor('<cnode id="2" calleeId="2">', '<cnode id="2" calleeId="42">')}),
     "cnode-callee", True),
    ("cnode-duplicate", members(**{"anchor.xml": anchor('<cnode id="2" calleeId="2">', '<cnode id="1" calleeId="2">')}),
     "duplicate-id", True),
    ("cnode-cycle", members(**{"anchor.xml": anchor('<cnode id="1" calleeId="1">', '<cnode id="0" calleeId="1">')}),
     "cnode-cycle", True),
    ("region-duplicate", members(**{"anchor.xml": anchor('<region id="2" mod', '<region id="1" mod')}),
     "duplicate-id", False),
    ("metric-duplicate", members(**{"anchor.xml": anchor('<metric id="1" type', '<metric id="0" type')}),
     "duplicate-id", False),
    ("location-duplicate", members(**{"anchor.xml": anchor('<location Id="1">', '<location Id="0">')}),
     "duplicate-id", False),
    ("metric-without-id", members(**{"anchor.xml": anchor('<metric id="1" type', '<metric type')}), "anchor", True),
    ("cnode-bad-callee", members(**{"anchor.xml": anchor('calleeId="1"', 'calleeId="one"')}), "anchor", True),
    ("member-unknown-metric", members(**{"7.index": index([0])}), "member-metric", False),
    ("member-twice", members() + [("0.index", index([0, 1, 2]))], "member-duplicate", False),
    ("tar-truncated", tar(members())[:1700], "archive", True),
    # whether such a member is skipped or read with a warning, no crash (any verdict)
    ("anchor-header-checksum", bad_checksum(tar(members()), 0), "*", False),
    ("index-header-checksum", bad_checksum(tar(members()), 1), "*", False),
    ("not-a-tar", b"this is not a Cube file at all\n" * 40, None, True),
]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    return p.returncode, p.stdout + p.stderr


def main():
    hpcdb, out = sys.argv[1], sys.argv[2]
    seeds = sys.argv[sys.argv.index("--seeds") + 1] if "--seeds" in sys.argv else None
    os.makedirs(out, exist_ok=True)
    good = os.path.join(out, "good.cubex")
    open(good, "wb").write(tar(members()))
    rc, text = run([hpcdb, "validate", good])
    failures = 0
    if rc != 0:
        print("FAIL: the base file does not validate:\n" + text)
        return 1
    rc, text = run([hpcdb, "export", "--format", "csv", good, "-o", "-"])
    if rc != 0 or "time" not in text:
        print("FAIL: the base file does not read:\n" + text)
        return 1
    for name, content, rule, read_fails in CASES:
        path = os.path.join(out, name + ".cubex")
        open(path, "wb").write(content if isinstance(content, bytes) else tar(content))
        rc, text = run([hpcdb, "validate", path])
        want = 2 if rule is None else (1, 2)
        ok = rc == want if rule is None else rc in want and (": %s:" % rule) in text
        if rule == "*":
            ok = rc in (0, 1, 2)
        rrc, rtext = run([hpcdb, "info", path])
        if read_fails and rrc != 2:
            ok = False
            text += "\n(the reader accepted it)"
        if "Sanitizer" in text + rtext or "runtime error" in text + rtext or rc < 0 or rrc < 0:
            ok = False
        print("%s %s" % ("ok  " if ok else "FAIL", name))
        if not ok:
            failures += 1
            print("    validate exit %d, expected rule %s:\n    %s" % (rc, rule, text.strip().replace("\n", "\n    ")))
    if seeds:
        os.makedirs(os.path.join(seeds, "cube_anchor"), exist_ok=True)
        os.makedirs(os.path.join(seeds, "cube_values"), exist_ok=True)
        open(os.path.join(seeds, "cube_anchor", "base.xml"), "wb").write(ANCHOR.encode())
        for name, m in (("sparse", members()), ):
            d = dict(m)
            for k in ("0", "1"):
                ix, dt = d[k + ".index"], d[k + ".data"]
                open(os.path.join(seeds, "cube_values", "%s-%s" % (name, k)), "wb").write(
                    struct.pack("<I", len(ix)) + ix + dt)
    print("%d passed, %d failed" % (len(CASES) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
