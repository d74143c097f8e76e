# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb.compare: the aligned DataFrame, against what `hpcdb compare --csv` prints for the same runs."""
import csv
import os
import subprocess

import numpy as np
import pytest

import hpcdb
from conftest import sample

RUNS = os.environ.get("HPCDB_COMPARE_RUNS", "")


def pair(name):
    path = os.path.join(RUNS, "pair", name)
    if not os.path.isdir(path):
        pytest.skip("the generated runs of tests/compare are absent (%s): run ctest -R compare/generate" % path)
    return path


def test_database_against_its_own_cube_conversion(tmp_path):
    db = sample("hpctoolkit-v4/cpi-mpi")
    cube = tmp_path / "cpi.cubex"
    hpcdb.convert(db, cube, to="cube")
    df = hpcdb.compare(db, cube)
    assert len(df) > 100
    assert (df["only_in"] == "").all()
    assert (df["delta_incl"] == 0).all() and (df["delta_excl"] == 0).all()
    assert np.allclose(df["a_max"], df["b_max"], rtol=1e-9, atol=0)


def test_rows_as_the_profile_views():
    """cpi-mpi's v4 database against its legacy one: no scope without a line ("[libc-2.28.so]:0",
    "<unknown file>:0") is a row, each row's parent is a row, as hpcdb compare --csv lists them."""
    a, b = sample("hpctoolkit-v4/cpi-mpi"), sample("hpctoolkit-legacy/cpi-mpi")
    df = hpcdb.compare(a, b)
    assert len(df) > 100 and not df["path"].str.endswith(":0").any()
    assert df["parent"].iloc[1:].isin(df.index).all()
    out = subprocess.run([os.environ["HPCDB_CLI"], "compare", "--csv", "--top", "0", "--min-share", "0", a, b],
                         check=True, capture_output=True, text=True).stdout
    assert sorted(r["name"] for r in csv.DictReader(out.splitlines())) == sorted(df["path"])


def test_known_changes():
    df = hpcdb.compare(pair("a.d"), pair("b.d")).set_index("path")
    solve = df.loc["<main thread> > main > app.c:10 > solve"]
    assert solve["a_incl"] == 4 and solve["b_incl"] == 8 and solve["ratio_incl"] == 2 and solve["match"] == "function name"
    assert df.loc["<main thread> > main > app.c:10 > solve > loop at app.c:20", "match"] == "file, line shifted"
    assert df.loc["<main thread> > main > app.c:12 > setup", "only_in"] == "A"
    assert df.loc["<main thread> > main > app.c:12 > checkpoint", "only_in"] == "B"
    assert np.isinf(df.loc["<main thread> > main > app.c:12 > checkpoint", "ratio_incl"])
    exchange = df.loc["<main thread> > main > app.c:11 > exchange"]
    assert exchange["b_max"] == 1.5 and exchange["b_imbalance"] == pytest.approx(0.5)


def test_same_figures_as_the_command():
    a, b = pair("a.d"), pair("b.d")
    out = subprocess.run([os.environ["HPCDB_CLI"], "compare", "--csv", "--top", "0", "--min-share", "0", a, b],
                         check=True, capture_output=True, text=True).stdout
    rows = {r["name"]: r for r in csv.DictReader(out.splitlines())}
    df = hpcdb.compare(a, b).set_index("path")
    assert set(rows) == set(df.index[1:]) | {"<program root>"}
    for path, r in rows.items():
        if path == "<program root>":
            path = df.index[0]
        for col in ("a_incl", "b_incl", "delta_incl", "a_excl", "b_excl", "a_max", "b_max"):
            assert float(r[col]) == pytest.approx(df.loc[path, col]), (path, col)
        assert r["only_in"] == df.loc[path, "only_in"]


def test_repeats_and_noise():
    a, b = pair("a.d"), pair("b.d")
    df = hpcdb.compare([a, a], [b, a])
    root = df.iloc[0]
    assert root["a_incl"] == 5.5 and root["b_incl"] == pytest.approx(7.875)
    assert root["spread_b"] == pytest.approx(4.75) and bool(root["noise"])
    assert not hpcdb.compare(a, b)["noise"].any()  # one run per side: no spread, no noise


def test_metric_errors():
    with pytest.raises(hpcdb.Error, match="no metric named"):
        hpcdb.compare(pair("a.d"), pair("b.d"), metric="nope")
    df = hpcdb.compare(pair("a.d"), pair("b.d"), metric=("time", "time"))
    assert df.iloc[0]["b_incl"] == pytest.approx(10.25)


def test_lazy_experiments_are_refused():
    with pytest.raises(ValueError, match="lazy"):
        hpcdb.compare(hpcdb.open(pair("a.d"), lazy=True), pair("b.d"))
