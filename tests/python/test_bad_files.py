# SPDX-License-Identifier: BSD-3-Clause
"""The broken-file corpora of tests/bad through the binding: a file the reader refuses raises an
hpcdb.Error carrying the library's message, validate() reports the rule, and nothing crashes the
interpreter (run under AddressSanitizer in the sanitizer build)."""
import importlib.util
import os
import shutil
import sys

import pytest

import hpcdb
from conftest import SAMPLES, SOURCE

BAD = os.path.join(SOURCE, "tests", "bad")


def manifest(name):
    """Rows (case, file, mutation, rule, read expectation) of tests/bad/<name>/cases.txt."""
    rows = []
    for line in open(os.path.join(BAD, name, "cases.txt")):
        if line.strip() and not line.startswith("#"):
            rows.append(tuple(f.strip() for f in line.split("|")))
    return rows


def mutate(path, mutation):
    """truncate N; u8|le16|le32|le64|be16|be32|be64 OFFSET VALUE; bytes OFFSET HEX."""
    op, *args = mutation.split()
    data = bytearray(open(path, "rb").read())
    if op == "truncate":
        data = data[:int(args[0], 0)]
    else:
        off = int(args[0], 0)
        if op == "bytes":
            new = bytes.fromhex(args[1])
        else:
            size = {"u8": 1, "le16": 2, "le32": 4, "le64": 8, "be16": 2, "be32": 4, "be64": 8}[op]
            new = (int(args[1], 0) & ((1 << 8 * size) - 1)).to_bytes(size, "big" if op.startswith("be") else "little")
        data[off:off + len(new)] = new
    open(path, "wb").write(bytes(data))


def copy_sample(rel, dest, wanted=lambda f: True):
    src = os.path.join(SAMPLES, rel)
    if not os.path.isdir(src):
        pytest.skip("%s is absent" % src)
    os.makedirs(dest)
    for f in os.listdir(src):
        if os.path.isfile(os.path.join(src, f)) and wanted(f):
            shutil.copy(os.path.join(src, f), dest)
            os.chmod(os.path.join(dest, f), 0o644)
    return dest


def check_read(path, expect):
    """expect: "fail" (must raise hpcdb.Error naming the database), "ok" (must read), "any"."""
    try:
        exp = hpcdb.open(path)
    except hpcdb.Error as e:
        assert expect != "ok", "the reader refused a file only the validator rejects: %s" % e
        assert str(e) and os.path.basename(path.rstrip("/")) in str(e) or path in str(e), str(e)
        return
    assert expect != "fail", "the reader accepted it"
    exp.values() if (exp.metrics["kind"] == "value").any() and len(exp.thread_profiles) else None
    exp.traces()


def check_rule(path, rule):
    """rule: the one validate() must report; None: unreadable as a whole; "*": any verdict."""
    try:
        v = hpcdb.validate(path)
    except hpcdb.Error as e:  # unreadable as a whole: the message names the rule
        assert rule in (None, "*") or (": %s:" % rule) in str(e), str(e)
        return
    if rule == "*":
        return
    assert rule is not None and v.errors > 0, v
    assert rule in {d.rule for d in v.diagnostics if d.severity == "error"}, v.diagnostics[:5]


MANIFESTS = {"hpctk4": "hpcrun/expected/small.nostruct.d", "hpcprof1": "hpctoolkit-2022/ping-pong-mpi"}


@pytest.mark.parametrize("group,case", [(g, c) for g in MANIFESTS for c in manifest(g)],
                         ids=lambda x: x if isinstance(x, str) else x[0])
def test_manifest_case(group, case, tmp_path):
    name, target, mutation, rule, expect = case
    d = copy_sample(MANIFESTS[group], str(tmp_path / name))
    mutate(os.path.join(d, target), mutation)
    check_read(d, expect)
    if group == "hpctk4":  # the lazy reader reads less: it may accept, or refuse when values are read
        try:
            hpcdb.open(d, lazy=True).values()
        except hpcdb.Error as e:
            assert str(e)
        except KeyError:
            pass  # a damaged table may leave no metric to read
    check_rule(d, rule)


def load_cases(group):
    sys.path.insert(0, BAD)
    spec = importlib.util.spec_from_file_location("bad_" + group, os.path.join(BAD, group, "check_bad.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


LEGACY = load_cases("legacy")
DRAFTA = load_cases("drafta")
CUBE = load_cases("cube")


@pytest.mark.parametrize("group,case", [("legacy", c) for c in LEGACY.CASES] + [("drafta", c) for c in DRAFTA.CASES],
                         ids=lambda x: x if isinstance(x, str) else x[0])
def test_damaged_directory(group, case, tmp_path):
    name, damage, v_status, v_text, i_status, i_text = case
    if group == "legacy":
        d = copy_sample("hpctoolkit-legacy/cpi-mpi", str(tmp_path / name),
                        lambda f: f == "experiment.xml" or f.endswith(".metric-db"))
    else:
        d = copy_sample("hpctoolkit-2022/ping-pong-mpi", str(tmp_path / name), lambda f: f in DRAFTA.FILES)
    damage(d)
    if i_status == 2:
        with pytest.raises(hpcdb.Error) as e:
            hpcdb.open(d)
        assert i_text in str(e.value)
    else:
        exp = hpcdb.open(d)
        assert i_text in "\n".join(exp.info["warnings"]) or i_status == 0
    if v_status == 2:
        with pytest.raises(hpcdb.Error):
            hpcdb.validate(d)
    else:
        v = hpcdb.validate(d)
        assert (v.errors > 0) == (v_status == 1), v
        text = "\n".join("%s: offset 0x%x: %s: %s" % (x.file, x.offset, x.rule, x.detail) for x in v.diagnostics)
        text += "\n%d errors, %d notes" % (v.errors, v.notes)  # the summary line `hpcdb validate` adds
        assert v_text in text, text


@pytest.mark.parametrize("case", CUBE.CASES, ids=lambda c: c[0])
def test_damaged_cube(case, tmp_path):
    name, content, rule, read_fails = case
    path = str(tmp_path / (name + ".cubex"))
    open(path, "wb").write(content if isinstance(content, bytes) else CUBE.tar(content))
    check_read(path, "fail" if read_fails else "any")
    check_rule(path, rule)
