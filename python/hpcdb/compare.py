# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb.compare: runs aligned by calling path (docs/compare.md) as one pandas DataFrame."""
import numpy as np

from . import _core
from ._lazy import pandas as pd

# enum hpcdb_match (include/hpcdb/compare.h)
MATCH_NAMES = ["absent", "root", "entry point", "function name", "file and line", "file, line shifted",
               "module offset", "function name, across a frame one side has"]


def _side(values, cols):
    """Mean and spread (max - min) over the side's runs, per node."""
    part = values[:, cols]
    return part.mean(axis=1), part.max(axis=1) - part.min(axis=1)


def aligned(experiments, metrics, n_a, line_tolerance=0, exact_lines=False):
    """The DataFrame of hpcdb.compare for experiments[:n_a] (side A) against the rest (side B)."""
    raw = _core.compare([e.core for e in experiments], list(metrics), int(line_tolerance), bool(exact_lines))
    n_runs = len(experiments)
    a_cols, b_cols = list(range(n_a)), list(range(n_a, n_runs))
    present = raw["present"]
    in_a, in_b = present[:, a_cols].any(axis=1), present[:, b_cols].any(axis=1)
    df = pd.DataFrame({"path": raw["path"], "name": raw["name"], "parent": raw["parent"],
                       "is_frame": raw["is_frame"]})
    df.index.name = "node"
    df["only_in"] = np.where(in_a & ~in_b, "A", np.where(in_b & ~in_a, "B", ""))
    # how side B's first run was matched (or the rule of A's key where B lacks the node)
    match = np.where(present[:, n_a], raw["match"][:, n_a], raw["match"][:, 0])
    df["match"] = [MATCH_NAMES[m] if m < len(MATCH_NAMES) else "?" for m in match]
    with np.errstate(divide="ignore", invalid="ignore"):
        for key, label in (("inc", "incl"), ("exc", "excl")):
            a, spread_a = _side(raw[key], a_cols)
            b, spread_b = _side(raw[key], b_cols)
            delta = b - a
            same = np.abs(delta) <= 1e-9 * np.maximum(np.abs(a), np.abs(b))  # sums in another order
            delta = np.where(same, 0.0, delta)
            b = np.where(same, a, b)
            df["a_" + label], df["b_" + label], df["delta_" + label] = a, b, delta
            df["ratio_" + label] = np.where(a != 0, b / np.where(a != 0, a, 1), np.where(b != 0, np.inf, 1.0))
            if label == "incl":
                df["spread_a"], df["spread_b"] = spread_a, spread_b
                df["noise"] = (n_runs > 2) & (np.abs(delta) <= np.maximum(spread_a, spread_b))
        for key in ("mean", "max"):
            df["a_" + key] = _side(raw[key], a_cols)[0]
            df["b_" + key] = _side(raw[key], b_cols)[0]
        for side in ("a", "b"):
            mean = df[side + "_mean"].to_numpy()
            df[side + "_imbalance"] = np.where(mean > 0, df[side + "_max"].to_numpy() / np.where(mean > 0, mean, 1) - 1, 0.0)
    df.attrs["seconds_per_unit"] = raw["seconds"]
    df.attrs["n_profiles"] = list(raw["n_profiles"])
    return _shown(df, raw["hidden"])


def _shown(df, hidden):
    """The rows the profile views show: a scope without a line is none; its children's parent is its own
    (its cost is its parent's already: docs/compare.md)."""
    parent = df["parent"].to_numpy().copy()
    for k in range(len(parent)):  # parents come before children: a hidden parent's parent is a row already
        if parent[k] >= 0 and hidden[parent[k]]:
            parent[k] = parent[parent[k]]
    df["parent"] = parent
    return df[~hidden]
