# SPDX-License-Identifier: BSD-3-Clause
"""`pip install --no-build-isolation .` (pyproject.toml holds the metadata): the hpcdb._core extension
is built by the project's own CMake, the same build `make` runs, so there is one way the library and its
embedded page assets are compiled, whichever way hpcdb is installed.

CMake configures a build tree under build-pip/cmake with the interpreter running pip, builds the
`hpcdb_python` target alone (the static library linked into the module, no tests, no programs), and
the module it produces is what pip installs. The module carries the library in itself: no libhpcdb.so
has to be found at run time."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
CMAKE_BUILD = os.path.join(HERE, "build-pip", "cmake")


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        configure = ["cmake", "-S", HERE, "-B", CMAKE_BUILD, "-DCMAKE_BUILD_TYPE=Release",
                     "-DPython3_EXECUTABLE=" + sys.executable, "-DHPCDB_PACKAGE_ONLY=ON"]
        subprocess.run(configure, check=True)
        jobs = str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", CMAKE_BUILD, "--target", "hpcdb_python", "-j", jobs], check=True)
        built = glob.glob(os.path.join(CMAKE_BUILD, "python", "hpcdb", "_core*.so"))
        if len(built) != 1:
            raise RuntimeError("CMake built %d hpcdb._core modules in %s, expected one" % (len(built), CMAKE_BUILD))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


# setuptools' scratch files go under build-pip/ (ignored by git), apart from CMake's build/.
setup(options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
      ext_modules=[CMakeExtension("hpcdb._core")], cmdclass={"build_ext": CMakeBuild})
