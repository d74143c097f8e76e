# SPDX-License-Identifier: BSD-3-Clause
"""The figures other Python tools give for the same databases: Hatchet's 136 (node, rank) rows for
the legacy cpi database, Pipit's Enter/Leave events for the 2022 ping-pong traces."""
import csv
import os
import xml.etree.ElementTree as ET

import pytest

import hpcdb
from conftest import sample


def test_hatchet_rows_of_legacy_cpi():
    db = sample("hpctoolkit-legacy/cpi-mpi")
    expected = sample("hpctoolkit-legacy/cpi-mpi.hatchet-expected.csv")
    exp = hpcdb.open(db)
    inc = exp.values("CPUTIME (usec)", "execution").iloc[:, 0]
    exc = exp.values("CPUTIME (usec)", "function").iloc[:, 0]
    rank = exp.profiles["rank"]
    inc = {(c, int(rank[p])): v for (c, p), v in inc.items()}
    exc = {(c, int(rank[p])): v for (c, p), v in exc.items()}
    # Hatchet shows statements (<S>) as nodes of their own: a node's exclusive value is the
    # metric-db's minus that of its <S> children (as tests/legacy/check_hatchet.py does).
    statements = {}
    for parent in ET.parse(os.path.join(db, "experiment.xml")).iter():
        if parent.get("i") is not None:
            statements[int(parent.get("i"))] = [int(c.get("i")) for c in parent if c.tag == "S"]
    rows = 0
    for row in csv.DictReader(open(expected)):
        nid, r = int(row["nid"]), int(row["rank"])
        ours_exc = exc.get((nid, r), 0.0) - sum(exc.get((s, r), 0.0) for s in statements.get(nid, []))
        assert inc.get((nid, r), 0.0) == pytest.approx(float(row["time (inc)"]), rel=1e-9, abs=1e-9), (nid, r)
        assert ours_exc == pytest.approx(float(row["time"]), rel=1e-9, abs=1e-9), (nid, r)
        assert exp.contexts.loc[nid, "name"] == row["name"] or row["type"] != "function", (nid, row["name"])
        rows += 1
    assert rows == 136


def test_pipit_events_of_ping_pong():
    # Pipit's tests of its experiment.xml reader (hpcgroup/pipit pipit/tests/hpctoolkit.py, data
    # ping-pong-hpctoolkit as the 2022 database, the sample hpctoolkit-2022/ping-pong-mpi): 89 Enter and 89 Leave events on rank 0, 60 and 60 on rank 1; 6 PMPI_Send and 5
    # PMPI_Recv entered on rank 0, 5 and 5 on rank 1; 22 function names.
    exp = hpcdb.open(sample("hpctoolkit-2022/ping-pong-mpi"))
    ev = exp.events()
    ev["rank"] = exp.profiles["rank"].to_numpy()[ev["profile"]]
    counts = ev.groupby(["rank", "event"]).size().to_dict()
    assert counts == {(0, "Enter"): 89, (0, "Leave"): 89, (1, "Enter"): 60, (1, "Leave"): 60}
    assert len(ev) == 298
    enter = ev[ev["event"] == "Enter"]
    calls = enter.groupby(["name", "rank"]).size()
    assert (calls["PMPI_Send", 0], calls["PMPI_Recv", 0], calls["PMPI_Send", 1], calls["PMPI_Recv", 1]) == (6, 5, 5, 5)
    assert len(set(ev["name"])) == 22
    assert {"<program root>", "<no activity>", "main", "psm2_mq_ipeek2"} <= set(ev["name"])
    for _, g in ev.groupby("profile"):
        assert (g["time"].diff().dropna() >= 0).all()


def test_pipit_v4_reader_events_of_ping_pong():
    # Pipit's tests for its v4.0 reader (hpcgroup/pipit pipit/tests/hpctoolkit.py, data
    # ping-pong-hpctoolkit as a v4.0 database, the sample hpctoolkit-v4/ping-pong-mpi): 117 Enter
    # events on rank 0 and 88 on rank 1 (the entry point "main thread" included), as many Leave;
    # 7 PMPI_Send and 7 PMPI_Recv entered on each rank; its names, apart from the "loop" of the
    # Loop Enter/Leave events that reader adds.
    exp = hpcdb.open(sample("hpctoolkit-v4/ping-pong-mpi"))
    ev = exp.events()
    ev["rank"] = exp.profiles["rank"].to_numpy()[ev["profile"]]
    assert ev.groupby(["rank", "event"]).size().to_dict() == {(0, "Enter"): 117, (0, "Leave"): 117,
                                                             (1, "Enter"): 88, (1, "Leave"): 88}
    enter = ev[ev["event"] == "Enter"]
    names = enter["name"].astype(str)
    for call in ("PMPI_Send", "PMPI_Recv"):
        assert enter[names.str.contains(call)].groupby("rank").size().to_dict() == {0: 7, 1: 7}
    pipit_names = {
        "<unknown procedure> 0x24680 [libpsm2.so.2.2]", "MPID_Finalize [libmpi.so.12.1.1]",
        "MPID_Recv [libmpi.so.12.1.1]", "MPI_Finalize", "PMPI_Finalize [libmpi.so.12.1.1]",
        "PMPI_Recv [libmpi.so.12.1.1]", "PMPI_Send [libmpi.so.12.1.1]", "__GI___munmap [libc-2.17.so]",
        "__GI___unlink [libc-2.17.so]", "__GI_process_vm_readv [libc-2.17.so]", "main", "main thread",
        "psm2_ep_close [libpsm2.so.2.2]", "psm2_mq_ipeek2 [libpsm2.so.2.2]", "psm2_mq_irecv2 [libpsm2.so.2.2]",
        "psm_dofinalize [libmpi.so.12.1.1]", "psm_progress_wait [libmpi.so.12.1.1]", "psm_recv [libmpi.so.12.1.1]",
        "psm_try_complete [libmpi.so.12.1.1]", "shm_unlink [librt-2.17.so]", "targ5030 [libpsm2.so.2.2]"}
    assert set(ev["name"].astype(str)) == pipit_names
    # without the entry point, one Enter fewer per rank
    assert (exp.events(entry_points=False)["event"] == "Enter").sum() == 117 + 88 - 2


def test_hatchet_graphframe():
    pytest.importorskip("hatchet")
    gf = hpcdb.open(sample("hpctoolkit-legacy/cpi-mpi")).to_hatchet("CPUTIME (usec)")
    assert len(gf.dataframe) >= 136
