# SPDX-License-Identifier: BSD-3-Clause
"""pandas, imported when first used: `import hpcdb` and the NumPy-only calls (CubeFile.matrix)
do without its 30 MB."""
import importlib


class _LazyModule:
    def __init__(self, name):
        self._name = name
        self._module = None

    def __getattr__(self, attr):
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)


pandas = _LazyModule("pandas")
