#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One measurement of the Python binding, in a fresh interpreter: the time from the call that opens
a database to the DataFrame an analyst asks for first, and the process's peak RSS (interpreter,
NumPy and pandas included, as in the other tools' figures; for `cube`, NumPy only: pycubexr gives
NumPy arrays and imports no pandas, and neither does `import hpcdb` until a DataFrame is made). Prints one line:
`CASE seconds peak_MB rows baseline_MB cpu_seconds` (baseline: the peak RSS after the imports alone;
cpu_seconds: user + system time of the measured part, which a busy machine does not stretch).

usage: python_bench.py CASE PATH
  values        hpcdb.open(PATH).values()           every (context, profile) row of every metric
  values1       hpcdb.open(PATH).values(first metric, "execution")
  summary       hpcdb.open(PATH).summary
  lazy1         hpcdb.open(PATH, lazy=True).values(first metric, "execution", profiles=[1])
  lazyall       hpcdb.open(PATH, lazy=True).values(first metric, "execution")  (every profile)
  events        hpcdb.open(PATH).events()            Enter/Leave events, as Pipit's
  traces        hpcdb.open(PATH).traces()            samples: profile, time, context
  cube          hpcdb.open_cube(PATH).matrix(m) for every metric m (one NumPy matrix at a time, as
                pycubexr's get_metric_values gives NumPy arrays)
  cubedf        hpcdb.open_cube(PATH).values(m) for every metric m (one DataFrame at a time)"""
import resource
import sys
import time

import numpy  # noqa: F401 - imported before the baseline

import hpcdb


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main():
    case, path = sys.argv[1], sys.argv[2]
    if case != "cube":
        import pandas  # noqa: F401 - the DataFrame cases: imported before the baseline
    base = peak_mb()
    c0, t0 = cpu(), time.perf_counter()
    if case == "values":
        rows = len(hpcdb.open(path).values())
    elif case == "values1":
        exp = hpcdb.open(path)
        rows = len(exp.values(exp.metrics["name"][0], "execution"))
    elif case == "summary":
        rows = len(hpcdb.open(path).summary)
    elif case == "lazy1":
        exp = hpcdb.open(path, lazy=True)
        rows = len(exp.values(exp.metrics["name"][0], "execution", profiles=[1]))
    elif case == "lazyall":
        exp = hpcdb.open(path, lazy=True)
        rows = len(exp.values(exp.metrics["name"][0], "execution"))
    elif case == "events":
        rows = len(hpcdb.open(path).events())
    elif case == "traces":
        rows = len(hpcdb.open(path).traces())
    elif case in ("cube", "cubedf"):
        c = hpcdb.open_cube(path)
        rows = 0
        for m in c.metrics:
            rows += (c.matrix(m) if case == "cube" else c.values(m)).size
    else:
        sys.exit("unknown case " + case)
    seconds, cpu_seconds = time.perf_counter() - t0, cpu() - c0
    print("%s %.3f %.0f %d %.0f %.3f" % (case, seconds, peak_mb(), rows, base, cpu_seconds))


if __name__ == "__main__":
    main()
