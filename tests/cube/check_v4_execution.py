#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every metric a v4.0 database made from a Cube file labels `execution` holds
sums over the subtree, as v4.0 says (Cube's min / max metrics must not).

check_v4_execution.py HPCDB CUBEX OUTDIR

Converts CUBEX to v4.0, reads the scopes of each metric straight from
meta.db's Performance Metrics section (not through hpcdb), the tree and the
values of each non-summary profile from `hpcdb dump`, and checks at every
context: execution = point + the sum of the children's execution values.
Also checks that the database names min / max subtree values as such (a
custom scope) when the Cube file has MINDOUBLE / MAXDOUBLE metrics."""
import os, re, struct, subprocess, sys

hpcdb, src, out = sys.argv[1:4]
if not os.path.exists(src):
    print(f"sample data not found ({src}): skipped")
    sys.exit(77)
db = os.path.join(out, "db")
os.makedirs(out, exist_ok=True)
r = subprocess.run([hpcdb, "convert", "--quiet", "--force", src, db], capture_output=True, text=True)
if r.returncode != 0:
    print("FAIL: convert:", r.stderr)
    sys.exit(1)


def meta_scopes(path):
    """[(metric name, [(scope name, scope type, prop id)])] from meta.db."""
    b = open(path, "rb").read()
    assert b[:10] == b"HPCTOOLKIT" and b[10:14] == b"meta", "not a meta.db"
    s = struct.unpack_from("<Q", b, 16 + 2 * 16 + 8)[0]  # section 2: Performance Metrics
    p_metrics, n_metrics, sz_metric, sz_inst = struct.unpack_from("<QIBB", b, s)

    def cstr(p):
        return b[p:b.index(b"\0", p)].decode()

    metrics = []
    for i in range(n_metrics):
        m = p_metrics + i * sz_metric
        p_name, p_inst, _, n_inst = struct.unpack_from("<QQQH", b, m)
        insts = []
        for k in range(n_inst):
            p_scope, prop = struct.unpack_from("<QH", b, p_inst + k * sz_inst)
            p_sname, stype = struct.unpack_from("<QB", b, p_scope)
            insts.append((cstr(p_sname), stype, prop))
        metrics.append((cstr(p_name), insts))
    return metrics


def dump(path):
    """(parent of each context id, {profile: {ctx: {prop id: value}}}) for non-summary profiles."""
    text = subprocess.run([hpcdb, "dump", path], capture_output=True, text=True, check=True).stdout
    parent, stack, values, profile = {}, [], {}, None
    in_tree = False
    for line in text.splitlines():
        if line == "context tree:":
            in_tree = True
            continue
        if in_tree:
            m = re.match(r"( *)#(\d+) ", line)
            if not m:
                in_tree = False
            else:
                depth = len(m.group(1)) // 2 - 1
                del stack[depth:]
                parent[int(m.group(2))] = stack[-1] if stack else 0
                stack.append(int(m.group(2)))
                continue
        m = re.match(r"profile (\d+): .*\(flags 0x([0-9a-f]+)\)", line)
        if m:
            profile = int(m.group(1)) if not int(m.group(2), 16) & 1 else None
            if profile is not None:
                values[profile] = {}
            continue
        m = re.match(r"  ctx (\d+): (.*)", line)
        if m and profile is not None:
            values[profile][int(m.group(1))] = {int(k): float(v) for k, v in (kv.split("=") for kv in m.group(2).split())}
    return parent, values


metrics = meta_scopes(os.path.join(db, "meta.db"))
parent, values = dump(db)
children = {}
for c, p in parent.items():
    children.setdefault(p, []).append(c)
bad = checked = 0
custom = []
for name, insts in metrics:
    point = [p for s, t, p in insts if t == 1]
    execution = [p for s, t, p in insts if t == 2]
    custom += [s for s, t, p in insts if t == 0]
    if not point or not execution:
        continue
    for prof, ctxs in values.items():
        for c in [0] + list(parent):
            get = lambda x, pid: ctxs.get(x, {}).get(pid, 0.0)
            want = get(c, point[0]) + sum(get(k, execution[0]) for k in children.get(c, []))
            got = get(c, execution[0])
            checked += 1
            if abs(got - want) > 1e-9 * max(abs(got), abs(want)) + 1e-12:
                bad += 1
                if bad <= 10:
                    print(f"FAIL: {name}: profile {prof} context {c}: execution {got} is not point + children ({want})")
anchor = subprocess.run(["tar", "xOf", src, "anchor.xml"], capture_output=True).stdout
has_minmax = b"MINDOUBLE" in anchor or b"MAXDOUBLE" in anchor
if has_minmax and not any(s in ("inclusive_min", "inclusive_max") for s in custom):
    bad += 1
    print("FAIL: the Cube file has MINDOUBLE / MAXDOUBLE metrics but the database has no inclusive_min / inclusive_max scope")
print(f"{checked - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
