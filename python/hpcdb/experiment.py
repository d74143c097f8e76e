# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb.Experiment: one database (any format hpcdb reads) as pandas tables.

The C model stays in memory; tables are built on first use and cached.
Values come from the model's arrays in one pass of C code per call."""
import numpy as np
from ._lazy import pandas as pd

from . import _core

_UNSIGNED = 1  # HPCDB_INTEGER_UNSIGNED (include/hpcdb/model.h): a Cube UINT64 metric


def _names(x):
    if x is None:
        return None
    return [x] if isinstance(x, str) else list(x)


class Experiment:
    """A database read into hpcdb's model (``hpcdb.open(path)``)."""

    def __init__(self, core):
        self._core = core
        self._cache = {}

    # ---- life ---------------------------------------------------------------
    def close(self):
        """Drops this object's hold on the model; arrays handed out keep it alive."""
        self._core = None
        self._cache = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def core(self):
        if self._core is None:
            raise ValueError("the experiment is closed")
        return self._core

    def _cached(self, name, make):
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]

    def __repr__(self):
        if self._core is None:
            return "<hpcdb.Experiment (closed)>"
        i = self.info
        return "<hpcdb.Experiment %s %r: %d contexts, %d profiles, %d metrics%s>" % (
            i["format"], i["origin"], i["n_contexts"], i["n_profiles"], i["n_metrics"],
            ", traces" if i["has_traces"] else "")

    # ---- tables -------------------------------------------------------------
    @property
    def info(self):
        """Format, version, origin, title, attributes, reader warnings and counts."""
        def make():
            i = self.core.info()
            i["version"] = "%d.%d" % self.core.version()
            return i
        return self._cached("info", make)

    @property
    def metrics(self):
        """One row per metric id: key ("name|scope", as `hpcdb dump --json` names it), name, scope,
        kind ("value": thread profiles; "statistic": summary profiles), id, formula, combine, unit,
        description, metric (index of the metric)."""
        def make():
            rows = self.core.metric_rows()
            df = pd.DataFrame(rows, columns=["metric", "name", "scope", "kind", "id", "formula", "combine",
                                             "unit", "description"])
            key = df["name"].fillna("") + "|" + df["scope"].fillna("")
            stat = df["kind"] == "statistic"
            key[stat] = key[stat] + "|" + df["combine"][stat].fillna("") + "(" + df["formula"][stat].fillna("") + ")"
            df.insert(0, "key", key)
            return df
        return self._cached("metrics", make)

    @property
    def profiles(self):
        """One row per profile (index: profile): identity text, summary flag, and one column per
        identifier kind (rank, thread, node, gpustream, ...) with its id (physical ids where the
        profile marks them physical, e.g. node)."""
        def make():
            rows = self.core.profile_rows()
            kinds = []
            for _, _, ids in rows:
                for kind, _, _, _ in ids:
                    if kind.lower() not in kinds:
                        kinds.append(kind.lower())
            cols = {k: [None] * len(rows) for k in kinds}
            for p, (_, _, ids) in enumerate(rows):
                for kind, flags, logical, physical in ids:
                    cols[kind.lower()][p] = physical if flags & 1 else logical
            df = pd.DataFrame({"identity": [r[0] for r in rows],
                               "summary": np.array([bool(r[1] & 1) for r in rows], dtype=bool)})
            for k in kinds:
                df[k] = pd.array(cols[k], dtype="UInt64")
            df.index.name = "profile"
            return df
        return self._cached("profiles", make)

    @property
    def contexts(self):
        """The calling-context tree, one row per context (index: its native id, as in values()):
        id, parent (native id, -1 for the root), depth, kind (global, entry, function, loop, line,
        instruction), relation (call, inlined call, lexical), name, file, line, module, offset."""
        def make():
            cols = self.core.context_columns()
            df = pd.DataFrame(cols, columns=["id", "parent", "depth", "kind", "relation", "name", "file",
                                             "line", "module", "offset"])
            df.index = pd.Index(cols["id"], name="context")
            return df
        return self._cached("contexts", make)

    @property
    def labels(self):
        """Each context's label in `hpcdb dump --json`'s words (a Series indexed like contexts)."""
        return self._cached("labels", lambda: pd.Series(self.core.labels(), index=self.contexts.index,
                                                        name="label"))

    def _select(self, kind, metric, scope):
        m = self.metrics
        m = m[m["kind"] == kind]
        names, scopes = _names(metric), _names(scope)
        if names is not None:
            m = m[m["name"].isin(names) | m["key"].isin(names)]
        if scopes is not None:
            m = m[m["scope"].isin(scopes)]
        if m.empty:
            raise KeyError("no %s metric matches metric=%r scope=%r (metrics: %s)" % (
                kind, metric, scope, ", ".join(self.metrics["key"])))
        return m

    def _frame(self, profiles, selected):
        ctx, prof, vals, by_context, ints, kinds = self.core.values(np.asarray(profiles, dtype=np.uint32),
                                                                   selected["id"].to_numpy(dtype=np.int64))
        index = pd.MultiIndex.from_arrays([ctx, prof], names=["context", "profile"])
        df = pd.DataFrame(vals, index=index, columns=pd.Index(selected["key"].to_numpy(), name="metric"), copy=False)
        # a Cube integer metric's column holds its exact integers (uint64 / int64, as pycubexr types them),
        # not the doubles, which round beyond 2^53
        for c, kind in enumerate(kinds):
            if kind:
                exact = ints[:, c] if kind == _UNSIGNED else ints[:, c].view(np.int64)
                df.isetitem(c, exact)
        # C orders rows by context when context ids are dense enough for a counting sort
        return df if by_context else df.sort_index()

    def values(self, metric=None, scope=None, profiles=None):
        """The thread profiles' values as a DataFrame indexed (context, profile) with one column per
        metric key ("name|scope"); metric and scope (names, or lists of them) choose the columns.
        A row is a (context, profile) with any chosen value; absent values are 0. profiles: indices
        to restrict to (default: every non-summary profile). A Cube integer metric's columns are
        its exact integers (uint64, or int64 for a signed type, as pycubexr types them)."""
        selected = self._select("value", metric, scope)
        if profiles is None:
            profiles = np.flatnonzero(~self.profiles["summary"].to_numpy())
        return self._frame(profiles, selected)

    def statistics(self, metric=None, scope=None):
        """The summary profiles' statistics, indexed (context, profile), one column per key
        ("name|scope|sum($$)")."""
        selected = self._select("statistic", metric, scope)
        return self._frame(np.flatnonzero(self.profiles["summary"].to_numpy()), selected)

    @property
    def summary(self):
        """Per-context summary values (the summary profile's statistics), indexed by context."""
        def make():
            df = self.statistics()
            if len(self.profiles) and self.profiles["summary"].sum() == 1:
                df = df.droplevel("profile")
            return df
        return self._cached("summary", make)

    def matrix(self, metric, scope=None, dense=None):
        """One metric's values as contexts × profiles (rows: exp.contexts order; columns: the thread
        profiles in order, as exp.thread_profiles). scope defaults to "execution" (inclusive) when the
        metric has it. A scipy.sparse CSR matrix when scipy is importable (and dense is not True),
        else a NumPy array. Values at contexts outside the tree are left out."""
        selected = self._select("value", metric, scope)
        if len(selected) > 1 and scope is None and (selected["scope"] == "execution").any():
            selected = selected[selected["scope"] == "execution"]
        if len(selected) != 1:
            raise ValueError("matrix() needs one metric and scope; %r matches %s" % (
                metric, ", ".join(selected["key"])))
        columns = self.thread_profiles
        col_of = np.full(len(self.profiles), -1, dtype=np.int64)
        col_of[columns] = np.arange(len(columns))
        ctx, prof, vals, _, ints, kinds = self.core.values(columns.astype(np.uint32),
                                                           selected["id"].to_numpy(dtype=np.int64))
        if kinds[0]:  # a Cube integer metric: its exact integers, as in values()
            vals = ints if kinds[0] == _UNSIGNED else ints.view(np.int64)
        rows = self.core.context_index(ctx)
        keep = rows >= 0
        rows, cols, vals = rows[keep], col_of[prof[keep]], vals[keep, 0]
        shape = (len(self.contexts), len(columns))
        if not dense:
            try:
                import scipy.sparse
                return scipy.sparse.csr_matrix((vals, (rows, cols)), shape=shape)
            except ImportError:
                if dense is False:
                    raise
        out = np.zeros(shape, dtype=vals.dtype)
        out[rows, cols] = vals
        return out

    @property
    def thread_profiles(self):
        """Indices of the non-summary profiles (the columns of matrix())."""
        return np.flatnonzero(~self.profiles["summary"].to_numpy())

    def profile_arrays(self, profile):
        """One profile's sparse values as the model stores them, without a copy (read-only
        arrays): context ids, starts (a context's values are [starts[k], starts[k+1])), metric
        ids, values."""
        return self.core.profile_csr(int(profile))

    def _traces_read(self):
        if self.info["lazy"]:
            raise ValueError("opened with lazy=True: traces are not read (hpcdb.open(path) reads them)")

    def traces(self):
        """Every trace as one DataFrame: profile, time (ns), context (native id; 0: not running),
        like Pipit's events; sorted by profile, then time as recorded."""
        self._traces_read()
        prof, time, ctx = self.core.traces()
        return pd.DataFrame({"profile": prof.view(np.int32), "time": time, "context": ctx}, copy=False)

    def events(self, entry_points=None):
        """The traces as Enter/Leave events of function frames (call sites in a database made without
        program structure), as Pipit's HPCToolkit readers make them: time (ns), event ("Enter"/"Leave"),
        profile, context (the frame's native id), name. Between two samples the frames that end are left
        (innermost first) and the new ones entered at the second sample's time; frames still open at a
        trace's end are left at its last sample. entry_points: whether entry points ("main thread") are
        frames; by default they are where the database stores them (v4.0: Pipit's v4.0 reader enters
        them) and not where hpcdb's reader adds one (experiment.xml generations, which Pipit's
        experiment.xml reader read without one)."""
        if entry_points is None:
            entry_points = self.info["format"] not in ("hpctoolkit-legacy", "hpctoolkit-draft-a")
        self._traces_read()
        # names as a Categorical: one code per event, each name stored once
        names = self._cache["contexts"]["name"] if "contexts" in self._cache else self.core.context_columns()["name"]
        codes, uniques = pd.factorize(np.asarray(names, dtype=object))
        time, prof, ctx, leave, name = self.core.events(codes.astype(np.int32), bool(entry_points))
        # profile as int32 (a view): no column shares a dtype, so pandas keeps every array as it is
        return pd.DataFrame({"time": time,
                             "event": pd.Categorical.from_codes(leave.view(np.int8), ["Enter", "Leave"]),
                             "profile": prof.view(np.int32), "context": ctx,
                             "name": pd.Categorical.from_codes(name, categories=uniques)}, copy=False)

    def trace_arrays(self, index):
        """The index-th trace without a copy: (profile, timestamps ns, context ids)."""
        return self.core.trace(int(index))

    # ---- other tools ----------------------------------------------------------
    def to_hatchet(self, metric=None):
        """A Hatchet GraphFrame of the thread profiles' values (needs Hatchet): nodes are the
        contexts, rows (node, rank) when profiles have ranks (else (node, profile)); for each
        metric its inclusive ("execution") values as "NAME (inc)" and exclusive ("function")
        values as "NAME"."""
        from .hatchet import to_graphframe
        return to_graphframe(self, metric)
