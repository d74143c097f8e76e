# SPDX-License-Identifier: BSD-3-Clause
"""The hpcdb._core extension for `pip install --no-build-isolation .` (pyproject.toml holds the metadata).

Which C library the module gets:
- HPCDB_LIBRARY=/path/to/libhpcdb.a (e.g. a CMake build tree's): linked in statically; fastest,
  and the way the tests build it;
- otherwise an installed hpcdb found by `pkg-config --static hpcdb` (after `cmake --install`);
- otherwise the library's own sources (src/lib) are compiled into the module, so the source tree
  alone is enough (a minute or two of compiling).
Either way the module carries the library in itself: no libhpcdb.so has to be found at run time."""
import ctypes.util
import glob
import os
import shlex
import subprocess

import numpy
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
DEPS = ["libarchive", "yaml-0.1", "libelf", "libdw", "capstone", "zlib", "expat"]
FALLBACK_LINK = ["-larchive", "-lyaml", "-ldw", "-lelf", "-lcapstone", "-lz", "-lexpat"]


def pkg_config(*args):
    try:
        return shlex.split(subprocess.run(["pkg-config"] + list(args), check=True, capture_output=True,
                                          text=True).stdout)
    except (OSError, subprocess.CalledProcessError):
        return None


def rel(paths):
    return sorted(os.path.relpath(p, HERE) for p in paths)


sources = rel(glob.glob(os.path.join(HERE, "python", "src", "*.c")))
include_dirs = [os.path.join("include"), numpy.get_include()]
extra_objects, extra_link, macros = [], [], [("_POSIX_C_SOURCE", "200809L"), ("_DEFAULT_SOURCE", None)]
library = os.environ.get("HPCDB_LIBRARY")
installed = None if library else pkg_config("--static", "--cflags", "--libs", "hpcdb")
if library:
    extra_objects = [library]
    extra_link = ["-Wl,--exclude-libs,ALL"]  # the module exports PyInit__core alone
    extra_link += pkg_config("--libs", *DEPS) or FALLBACK_LINK
elif installed:
    include_dirs += [f[2:] for f in installed if f.startswith("-I")]
    extra_link = [f for f in installed if not f.startswith("-I")]
else:
    sources += rel(glob.glob(os.path.join(HERE, "src", "lib", "**", "*.c"), recursive=True))
    include_dirs.append(os.path.join("src", "lib"))
    # the libraries the C code opens on first use, by the names CMake gives them (CMakeLists.txt)
    for macro, lib in (("HPCDB_ARCHIVE_SONAME", "archive"), ("HPCDB_CAPSTONE_SONAME", "capstone")):
        macros.append((macro, '"%s"' % (ctypes.util.find_library(lib) or "lib%s.so" % lib)))
    extra_link = pkg_config("--libs", *DEPS) or FALLBACK_LINK

# setuptools' scratch files go under build-pip/ (ignored by git), apart from CMake's build/.
setup(options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
      ext_modules=[Extension(
    "hpcdb._core", sources=sources, include_dirs=include_dirs,
    define_macros=macros,
    extra_compile_args=["-std=c11", "-fvisibility=hidden"], extra_objects=extra_objects,
    extra_link_args=extra_link + ["-lpthread", "-lm"])])
