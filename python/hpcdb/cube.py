# SPDX-License-Identifier: BSD-3-Clause
"""hpcdb.open_cube: a Cube file's values one metric at a time, without the model.

For the large-file use pycubexr serves: anchor.xml is parsed, then each
matrix() call streams one metric's data member into a NumPy array
(cnodes × locations); memory is that array and one row."""
import os

from ._lazy import pandas as pd

from . import _core


class CubeFile:
    """A .cubex file opened for direct access (``hpcdb.open_cube(path)``)."""

    def __init__(self, path):
        self._c = _core.open_cube(os.fspath(path))
        self.metrics = self._c.metric_names()
        self.cnodes = self._c.cnode_ids()
        self.n_locations = self._c.n_locations()

    def matrix(self, metric, inclusive=True):
        """The metric's values (name or index) as [cnode (document order), location]: float64, or
        for an integer metric uint64 / int64 (as pycubexr types them), the flavour Cube does not
        store computed modulo 2^64 as CubeLib does, never through a float."""
        index = self.metrics.index(metric) if isinstance(metric, str) else int(metric)
        return self._c.values(index, bool(inclusive))

    def values(self, metric, inclusive=True):
        """The same as a DataFrame: index cnode id, one column per location (no copy)."""
        df = pd.DataFrame(self.matrix(metric, inclusive), index=pd.Index(self.cnodes, name="cnode"), copy=False)
        df.columns.name = "location"
        return df
