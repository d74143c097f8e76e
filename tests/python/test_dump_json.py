# SPDX-License-Identifier: BSD-3-Clause
"""Every readable sample: the DataFrames hold exactly what `hpcdb dump --json` prints."""
import json
import os

import numpy as np
import pytest

import hpcdb
from conftest import SAMPLES, readable_samples


def identities(exp):
    """Profile identities as the canonical dump names them (repeats get " (2)", " (3)"...)."""
    seen, out = {}, []
    for text in exp.profiles["identity"]:
        seen[text] = seen.get(text, 0) + 1
        out.append(text if seen[text] == 1 else "%s (%d)" % (text, seen[text]))
    return out


def our_values(exp):
    """{context id: {identity: {metric key: value}}} from values() and statistics(), zeros left out
    (the DataFrames fill absent values with 0), and the same for contexts outside the tree."""
    ident = identities(exp)
    out = {}
    frames = []
    m = exp.metrics
    if (m["kind"] == "value").any() and (~exp.profiles["summary"]).any():
        frames.append(exp.values())
    if (m["kind"] == "statistic").any() and exp.profiles["summary"].any():
        frames.append(exp.statistics())
    for df in frames:
        long = df.stack()
        long = long[long != 0]
        for (ctx, prof, key), v in long.items():
            out.setdefault(int(ctx), {}).setdefault(ident[prof], {})[key] = v
    return out


def path_text(labels, parent, ctx):
    chain = []
    while ctx != 0:
        chain.append(labels[ctx])
        ctx = parent[ctx]
    chain.reverse()
    text = ("... > " if len(chain) > 64 else "") + " > ".join(chain[-64:])
    return text[:2047]


def compare_tree(node, ctx, labels, children, values, errors, where):
    if node["context"] != labels[ctx]:
        errors.append("%s: label %r, ours %r" % (where, node["context"], labels[ctx]))
        return
    ours = values.get(ctx, {})
    for ident, kv in node["values"].items():
        for key, v in kv.items():
            got = ours.get(ident, {}).get(key, 0.0)
            # the DataFrame holds doubles (an unsigned integer metric's as two's complement), the dump the
            # exact integers
            if got != float(v) and not (isinstance(v, int) and v >= 2**63 and got == float(v - 2**64)):
                errors.append("%s %s %s: dump %r, DataFrame %r" % (where, ident, key, v, got))
    for ident, kv in ours.items():
        for key, v in kv.items():
            if key not in node["values"].get(ident, {}):
                errors.append("%s %s %s: DataFrame %r, not in the dump" % (where, ident, key, v))
    mine = list(children.get(ctx, []))
    want = [c["context"] for c in node["children"]]
    if sorted(want) != sorted(labels[c] for c in mine):
        errors.append("%s: children %r, ours %r" % (where, want, sorted(labels[c] for c in mine)))
        return
    for child in node["children"]:
        # siblings with the same label: the one whose subtree agrees
        for c in [c for c in mine if labels[c] == child["context"]]:
            trial = []
            compare_tree(child, c, labels, children, values, trial, where + " > " + child["context"])
            if not trial:
                mine.remove(c)
                break
        else:
            errors.append("%s > %s: no context of ours agrees" % (where, child["context"]))


@pytest.mark.parametrize("rel", readable_samples())
def test_agrees_with_dump_json(rel, cli):
    path = os.path.join(SAMPLES, rel)
    dump = json.loads(cli("dump", "--json", path))
    exp = hpcdb.open(path)
    info = exp.info
    assert (info["format"], info["version"], info["title"] or "") == (dump["format"], dump["version"],
                                                                       dump.get("title", info["title"] or ""))
    m = exp.metrics
    assert sorted(m["key"]) == sorted(dump["metrics"])
    assert sorted(identities(exp)) == sorted(dump["profiles"])

    ctx = exp.contexts
    labels = dict(zip(ctx["id"], exp.labels))
    parent = dict(zip(ctx["id"], ctx["parent"]))
    children = {}
    for c, p in zip(ctx["id"], ctx["parent"]):
        if p >= 0:
            children.setdefault(p, []).append(c)
    values = our_values(exp)
    errors = []
    compare_tree(dump["tree"], 0, labels, children, values, errors, "<global>")
    assert errors == [], "\n".join(errors[:20])

    # values at contexts the tree does not list, summed per profile and metric
    outside = {}
    for c in set(values) - set(labels):
        for ident, kv in values[c].items():
            for key, v in kv.items():
                outside.setdefault(ident, {}).setdefault(key, []).append(v)
    want = dump.get("outside_tree", {})
    assert sorted(outside) == sorted(want)
    for ident, kv in want.items():
        assert sorted(kv) == sorted(outside[ident])
        for key, v in kv.items():
            assert sum(outside[ident][key]) == pytest.approx(v, rel=1e-12)

    # traces: every sample's time and calling path
    ident = identities(exp)
    t = exp.traces()
    ours = {ident[exp.trace_arrays(i)[0]]: [] for i in range(exp.info["n_traces"])}  # empty traces too
    for prof, time, c in zip(t["profile"], t["time"], t["context"]):
        text = "<global>" if c == 0 else path_text(labels, parent, c) if c in labels else "<outside the tree>"
        ours.setdefault(ident[prof], []).append([int(time), text])
    assert ours == dump.get("traces", {})


def test_every_format_is_covered():
    rels = readable_samples()
    if not rels:
        pytest.skip("no sample data at %s" % SAMPLES)
    formats = {hpcdb.open(os.path.join(SAMPLES, r)).info["format"] for r in rels}
    assert {"hpctoolkit-v4", "cube", "hpctoolkit-legacy", "hpctoolkit-draft-a"} <= formats, formats
