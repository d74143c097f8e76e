"""hpcdb: HPC performance databases (HPCToolkit v4.0 and older generations, hpcrun
measurements, Cube v4) as NumPy arrays and pandas DataFrames, read by hpcdb's C library.

    exp = hpcdb.open(path)
    exp.metrics, exp.profiles, exp.contexts, exp.values(...), exp.matrix(...),
    exp.summary, exp.traces(), exp.to_hatchet()
    hpcdb.validate(path), hpcdb.convert(src, dst, to="v4"|"cube"), hpcdb.diff(a, b)

Errors raise hpcdb.Error subclasses carrying the library's message."""
import collections
import os

from . import _core
from .errors import (BY_STATUS, CorruptError, Error, ExistsError, InvalidArgumentError, IOFailedError,
                     NotFormatError, TruncatedError, UnsupportedError, VersionError)
from .cube import CubeFile
from .experiment import Experiment

_core.set_errors(Error, dict(BY_STATUS))

__version__ = _core.library_version
__all__ = ["open", "open_cube", "CubeFile", "validate", "convert", "diff", "detect", "Experiment", "Error", "NotFormatError",
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
