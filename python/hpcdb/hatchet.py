# SPDX-License-Identifier: BSD-3-Clause
"""Experiment -> Hatchet GraphFrame (only imported when to_hatchet() is called).

Hatchet's own HPCToolkit reader makes one node per context with a frame of
name and type, a DataFrame indexed (node, rank) with "time (inc)" and "time";
this builds the same from the model: inclusive values are the execution scope,
exclusive ones the function scope."""
import numpy as np
from ._lazy import pandas as pd


def to_graphframe(exp, metric=None):
    import hatchet.frame
    import hatchet.graph
    import hatchet.graphframe
    import hatchet.node

    ctx = exp.contexts
    nodes = {}
    roots = []
    for row in ctx.itertuples():
        if row.kind == "global":
            continue
        frame = hatchet.frame.Frame({"name": row.name, "type": row.kind})
        parent = nodes.get(row.parent)
        node = hatchet.node.Node(frame, parent, hnid=int(row.id), depth=int(row.depth) - 1)
        if parent is None:
            roots.append(node)
        else:
            parent.add_child(node)
        nodes[row.id] = node
    graph = hatchet.graph.Graph(roots)
    graph.enumerate_traverse()

    inc = exp.values(metric, "execution")
    exc = exp.values(metric, "function")
    inc.columns = [c.split("|")[0] + " (inc)" for c in inc.columns]
    exc.columns = [c.split("|")[0] for c in exc.columns]
    df = inc.join(exc, how="outer").fillna(0.0).reset_index()
    profiles = exp.profiles
    per = "rank" if "rank" in profiles and profiles["rank"].notna().all() and \
        not profiles.loc[~profiles["summary"], "rank"].duplicated().any() else "profile"
    if per == "rank":
        df["rank"] = profiles["rank"].to_numpy(dtype=np.float64, na_value=np.nan)[df["profile"]].astype(np.int64)
    df = df[df["context"].isin(nodes.keys())]
    df["node"] = [nodes[c] for c in df["context"]]
    attrs = ctx.set_index("id")[["name", "file", "line", "module"]]
    df = df.join(attrs, on="context")
    df["nid"] = df["context"]
    df = df.drop(columns=["context"] + (["profile"] if per == "rank" else [])).set_index(["node", per])
    return hatchet.graphframe.GraphFrame(graph, df, exc_metrics=list(exc.columns), inc_metrics=list(inc.columns),
                                         default_metric=(list(exc.columns) or [None])[0])
