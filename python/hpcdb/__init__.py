# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb: HPC performance databases (HPCToolkit v4.0 and older generations, hpcrun
measurements, Cube v4) as NumPy arrays and pandas DataFrames, read by hpcdb's C library.

    exp = hpcdb.open(path)
    exp.metrics, exp.profiles, exp.contexts, exp.values(...), exp.matrix(...),
    exp.summary, exp.traces(), exp.to_hatchet()
    hpcdb.validate(path), hpcdb.convert(src, dst, to="v4"|"cube"), hpcdb.diff(a, b),
    hpcdb.compare(a, b) (runs aligned by calling path, a DataFrame)

Errors raise hpcdb.Error subclasses carrying the library's message."""
import collections
import os

from . import _core
from .errors import (BY_STATUS, CorruptError, Error, ExistsError, InvalidArgumentError, IOFailedError,
                     NotFormatError, TruncatedError, UnsupportedError, VersionError)
from . import compare as _compare
from .cube import CubeFile
from .experiment import Experiment

_core.set_errors(Error, dict(BY_STATUS))

__version__ = _core.library_version
__all__ = ["open", "open_cube", "CubeFile", "validate", "convert", "diff", "compare", "detect", "Experiment", "Error", "NotFormatError",
           "VersionError", "TruncatedError", "CorruptError", "IOFailedError", "InvalidArgumentError",
           "UnsupportedError", "ExistsError", "Diagnostic", "Validation", "Difference"]


def open(path, lazy=False):  # noqa: A001 - the package's entry point, as hpcdb.open
    """Reads a database in any format hpcdb reads into an Experiment.

    lazy=True (HPCToolkit v4.0 database directories): reads only the tree, the metrics and the
    profile identities; the values stay in the memory-mapped profile.db and each values() call
    reads those of the profiles it asks for. A database of any size opens in milliseconds;
    traces are not read (open it again without lazy for traces())."""
    if lazy:
        return Experiment(_core.read_lazy(os.fspath(path)))
    return Experiment(_core.read(os.fspath(path)))


def open_cube(path):
    """Opens a .cubex file for its values one metric at a time without reading the whole model
    (CubeFile.matrix / CubeFile.values): memory is one metric's matrix."""
    return CubeFile(path)


def detect(path):
    """The format of path from its bytes ("hpctoolkit-v4", "cube", ...)."""
    return _core.detect(os.fspath(path))


Diagnostic = collections.namedtuple("Diagnostic", "severity file offset rule detail")


class Validation(collections.namedtuple("Validation", "errors notes diagnostics")):
    """The result of validate(): counts and one Diagnostic per problem; true when valid."""

    def __bool__(self):
        return self.errors == 0


def validate(path):
    """Checks every rule of the format's specification. Returns a Validation (falsy when the file
    breaks a rule); raises hpcdb.Error when path cannot be read at all."""
    errors, notes, diags = _core.validate(os.fspath(path))
    return Validation(errors, notes, [Diagnostic(*d) for d in diags])


def convert(src, dst, to="v4", force=False, strict=False, compress=False):
    """Writes src (any readable format) as a v4.0 database directory (to="v4") or a .cubex file
    (to="cube"). Returns the list of what the output format cannot carry (one line per kind);
    strict=True refuses to write then. A measurements directory becomes a database as
    `hpcdb analyze` makes it."""
    return _core.convert(os.fspath(src), os.fspath(dst), to, force, strict, compress)


class Difference(collections.namedtuple("Difference", "count lines")):
    """The result of diff(): number of differences and their descriptions; true when they differ."""

    def __bool__(self):
        return self.count != 0


def diff(a, b, rel_tolerance=1e-9, scope=None, max_reported=0):
    """Semantic comparison of two experiments (or paths): contexts by calling path, profiles by
    identity, metrics by name and scope, values within rel_tolerance. scope restricts it to one
    scope's values (e.g. "execution" across formats)."""
    ea = a if isinstance(a, Experiment) else open(a)
    eb = b if isinstance(b, Experiment) else open(b)
    return Difference(*_core.diff(ea.core, eb.core, float(rel_tolerance), int(max_reported), scope))


def compare(a, b, metric=None, line_tolerance=0, exact_lines=False):
    """Runs aligned by calling path, as `hpcdb compare` aligns them (docs/compare.md): one row per
    aligned node (index "node"; "path", "name", "parent", "is_frame", "only_in" "A"/"B"/"", the
    "match" rule), with a_incl, b_incl, delta_incl, ratio_incl, the same _excl, per-profile
    a_mean/b_mean, a_max/b_max, a_imbalance/b_imbalance, and for repeats spread_a/spread_b/noise.

    a and b are Experiments or paths, or lists of them (repeated runs: each side their mean).
    metric: a name for both sides, or a pair (metric of A, metric of B); None: A's default metric
    and the same (or a documented equivalent) on B."""
    side_a = list(a) if isinstance(a, (list, tuple)) else [a]
    side_b = list(b) if isinstance(b, (list, tuple)) else [b]
    if not side_a or not side_b:
        raise ValueError("compare: runs are needed on both sides")
    runs = [e if isinstance(e, Experiment) else open(e) for e in side_a + side_b]
    if any(e.info["lazy"] for e in runs):
        raise ValueError("compare: an experiment opened with lazy=True holds no values (pass its path)")
    ma, mb = metric if isinstance(metric, (list, tuple)) else (metric, metric)
    metrics = [ma] * len(side_a) + [mb] * len(side_b)
    return _compare.aligned(runs, metrics, len(side_a), line_tolerance, exact_lines)
