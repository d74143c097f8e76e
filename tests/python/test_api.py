# SPDX-License-Identifier: BSD-3-Clause
"""The binding's contract: tables, zero-copy arrays, errors, validate/convert/diff, memory."""
import gc
import os
import sys

import numpy as np
import pandas as pd
import pytest

import hpcdb
from conftest import sample


def test_tables_of_v4_database():
    exp = hpcdb.open(sample("hpctoolkit-v4/cpi-mpi"))
    assert exp.info["format"] == "hpctoolkit-v4"
    m = exp.metrics
    assert {"key", "name", "scope", "kind", "id", "unit", "description"} <= set(m.columns)
    p = exp.profiles
    assert p["summary"].sum() == 1 and "rank" in p.columns
    c = exp.contexts
    assert list(c.columns[:5]) == ["id", "parent", "depth", "kind", "relation"]
    assert c.loc[0, "kind"] == "global" and c.loc[0, "parent"] == -1
    assert (c["depth"][c["parent"] >= 0] == c["depth"].reindex(c["parent"][c["parent"] >= 0]).to_numpy() + 1).all()
    v = exp.values("CPUTIME (sec)", "execution")
    assert v.index.names == ["context", "profile"] and v.index.is_monotonic_increasing
    # the root's inclusive value per rank equals the matrix's first row
    mat = exp.matrix("CPUTIME (sec)", dense=True)
    assert mat.shape == (len(c), (~p["summary"]).sum())
    root = v.xs(0, level="context").iloc[:, 0]
    assert np.allclose(mat[0], root.reindex(exp.thread_profiles).fillna(0).to_numpy())
    s = exp.summary
    assert s.index.name == "context" and all(k.endswith(")") for k in s.columns)


def test_zero_copy_views_keep_the_model_alive():
    exp = hpcdb.open(sample("hpctoolkit-v4/cpi-mpi"))
    p = int(exp.thread_profiles[0])
    ctx, starts, mids, vals = exp.profile_arrays(p)
    assert not vals.flags.writeable and not vals.flags.owndata and vals.base is not None
    assert len(starts) == len(ctx) + 1 and starts[-1] == len(vals) == len(mids)
    before = vals.copy()
    exp.close()
    del exp
    gc.collect()
    assert (vals == before).all()  # the arrays hold the model, not the Experiment
    with pytest.raises(ValueError):
        vals[0] = 1.0


def test_traces_and_events():
    exp = hpcdb.open(sample("hpctoolkit-v4/ping-pong-mpi"))
    t = exp.traces()
    assert list(t.columns) == ["profile", "time", "context"] and len(t) > 0
    prof, ts, cs = exp.trace_arrays(0)
    assert ts.dtype == np.uint64 and cs.dtype == np.uint32 and len(ts) == len(cs)
    ev = exp.events()
    assert (ev["event"] == "Enter").sum() == (ev["event"] == "Leave").sum()


def test_every_format_opens():
    for rel in ("cube/time.p4.cubex", "hpctoolkit-legacy/cpi-mpi", "hpctoolkit-2022/ping-pong-mpi",
                "hpcrun/expected/small.d"):
        exp = hpcdb.open(sample(rel))
        assert len(exp.contexts) > 1 and len(exp.metrics) > 0
        exp.values()


def test_errors_carry_the_message(tmp_path):
    with pytest.raises(hpcdb.NotFormatError) as e:
        hpcdb.open(__file__)
    assert __file__ in str(e.value) and e.value.status == -1
    with pytest.raises(hpcdb.IOFailedError):
        hpcdb.open(tmp_path / "absent")
    bad = tmp_path / "bad.d"
    bad.mkdir()
    data = bytearray(open(sample("hpctoolkit-v4/cpi-mpi/meta.db"), "rb").read())
    data[0x18:0x20] = (0x7fffffff).to_bytes(8, "little")  # a section pointer outside the file
    (bad / "meta.db").write_bytes(bytes(data))
    with pytest.raises(hpcdb.Error) as e:
        hpcdb.open(bad)
    assert isinstance(e.value, hpcdb.CorruptError) and e.value.rule == "section-bounds"
    assert "meta.db" in str(e.value)


def test_validate_convert_diff(tmp_path):
    src = sample("hpctoolkit-v4/cpi-mpi")
    assert hpcdb.validate(src)
    out = tmp_path / "copy.d"
    losses = hpcdb.convert(src, out)
    assert isinstance(losses, list)
    assert not hpcdb.diff(src, out)
    with pytest.raises(hpcdb.ExistsError):
        hpcdb.convert(src, out)
    hpcdb.convert(src, out, force=True)
    cube = tmp_path / "cpi.cubex"
    hpcdb.convert(src, cube, to="cube")
    assert hpcdb.detect(cube).startswith("Cube") and hpcdb.open(cube).info["format"] == "cube"
    d = hpcdb.diff(src, cube, scope="execution")
    assert d.count == 0, d.lines[:5]
    with pytest.raises(ValueError):
        hpcdb.convert(src, tmp_path / "x", to="csv")
    v = hpcdb.validate(tmp_path / "copy.d")
    assert v.errors == 0 and isinstance(v.diagnostics, list)


def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    pytest.skip("no /proc/self/status")


def test_thousand_opens_do_not_grow_rss():
    if os.environ.get("HPCDB_SANITIZED"):
        pytest.skip("memory figures mean nothing under AddressSanitizer (quarantine)")
    db = sample("hpctoolkit-v4/ping-pong-mpi")

    def cycle(n):
        for _ in range(n):
            exp = hpcdb.open(db)  # the C calls of each table, without pandas' own cost
            exp.core.values(list(range(exp.core.info()["n_profiles"])), [0, 1])
            exp.core.profile_rows()
            exp.core.context_columns()
            exp.profile_arrays(1)
            exp.core.traces()
            exp.close()
        gc.collect()

    cycle(100)  # warm up allocator pools and pandas' caches
    before = rss_kb()
    cycle(1000)
    grown = rss_kb() - before
    assert grown < 4096, "RSS grew by %d kB over 1,000 opens" % grown


def test_refcounts_of_views():
    exp = hpcdb.open(sample("hpctoolkit-v4/ping-pong-mpi"))
    core = exp.core
    base = sys.getrefcount(core)
    views = [exp.profile_arrays(1) for _ in range(10)]
    assert sys.getrefcount(core) == base + 40
    del views
    gc.collect()
    assert sys.getrefcount(core) == base


def test_lazy_open_reads_the_same_values():
    import pandas.testing as pdt
    for rel in ("hpctoolkit-v4/cpi-mpi", "hpctoolkit-v4/lmp-openmp", "hpcrun/expected/loops-cuda-nvidia-t.d"):
        path = sample(rel)
        full, lazy = hpcdb.open(path), hpcdb.open(path, lazy=True)
        assert lazy.info["lazy"] and not full.info["lazy"]
        for table in ("metrics", "profiles", "contexts", "summary"):
            pdt.assert_frame_equal(getattr(full, table), getattr(lazy, table))
        pdt.assert_frame_equal(full.values(), lazy.values())
        pdt.assert_frame_equal(full.values(profiles=[2]), lazy.values(profiles=[2]))
        assert (full.matrix(full.metrics["name"][0], dense=True) == lazy.matrix(full.metrics["name"][0], dense=True)).all()
        with pytest.raises(ValueError):
            lazy.traces()
    with pytest.raises(hpcdb.Error):
        hpcdb.open(sample("cube/time.p4.cubex"), lazy=True)


def test_cube_direct_access_agrees_with_the_model():
    path = sample("cube/time.p4.cubex")
    c = hpcdb.open_cube(path)
    exp = hpcdb.open(path)
    assert c.metrics == list(dict.fromkeys(exp.metrics["name"]))
    offset = int(exp.info["attrs"].get("cube.ctx_id_offset", 1))
    for metric, scope, inclusive in (("time", "execution", True), ("time", "point", False), ("visits", "execution", True)):
        direct = c.values(metric, inclusive)
        full = exp.matrix(metric, scope, dense=True)
        rows = exp.core.context_index(direct.index.to_numpy() + offset)
        assert (rows >= 0).all() and direct.shape == (len(rows), c.n_locations)
        assert np.array_equal(direct.to_numpy(), full[rows]), metric
    with pytest.raises(hpcdb.Error):
        hpcdb.open_cube(sample("hpctoolkit-v4/cpi-mpi"))


def test_invalid_utf8_in_a_file_is_replaced_not_an_error(tmp_path):
    bad = tmp_path / os.fsdecode(b"bad\xff.d")  # a path, and so every message, that is not UTF-8
    bad.mkdir()
    with pytest.raises(hpcdb.Error) as e:
        hpcdb.open(bad)
    assert "\ufffd" in str(e.value)
    with pytest.raises(hpcdb.Error):
        hpcdb.validate(bad)


def test_pandas_is_imported_only_for_a_dataframe():
    # a fresh interpreter: import hpcdb and a Cube matrix (NumPy, as pycubexr) need no pandas
    import subprocess
    code = ("import sys, hpcdb; c = hpcdb.open_cube(sys.argv[1]); c.matrix(0); "
            "assert 'pandas' not in sys.modules, 'pandas imported'; c.values(0); assert 'pandas' in sys.modules")
    subprocess.run([sys.executable, "-c", code, sample("cube/time.p4.cubex")], check=True)
