/* SPDX-License-Identifier: BSD-3-Clause */
/* Which shared libraries are the system's and the runtimes' (report_runtime_library): what
 * --collapse libs folds. A program's own libraries (LAMMPS's liblammps.so.0, installed beside libc
 * by Debian) are never folded: a library is a runtime's by its name (the list below) or by where
 * the runtime installs itself, not by being in a system directory. */
#include <string.h>

#include "report/report_data.h"

/* Name prefixes: C and C++ runtimes, the loader, OpenMP, MPI and its transports, GPU runtimes,
 * BLAS / LAPACK / FFT, compression and unwinding. */
static const char *const runtime_names[] = {
    "libc.",          "libc-",        "libm.",      "libm-",        "libmvec",         "libpthread",
    "libdl.",         "libdl-",       "librt.",     "librt-",       "ld-linux",        "ld64.",
    "libresolv",      "libutil",      "libstdc++",  "libgcc_s",     "libgfortran",     "libquadmath",
    "libatomic",      "libgomp",      "libomp",     "libiomp",      "libmpi",          "libopen-pal",
    "libopen-rte",    "libompitrace", "mca_",       "libmca_",      "libpmix",         "libpmi",
    "libprrte",       "libhwloc",     "libevent",   "libucp",       "libucs",          "libuct",
    "libucm",         "libfabric",    "libpsm",     "libibverbs",   "librdmacm",       "libmlx",
    "libxpmem",       "libknem",      "libnuma",    "libmpich",     "libmpifort",      "libfmpich",
    "libcuda",        "libcudart",    "libcublas",  "libcufft",     "libcusparse",     "libcusolver",
    "libcurand",      "libnvrtc",     "libnvidia",  "libnccl",      "libcupti",        "libamdhip64",
    "libhsa-runtime", "libhsakmt",    "librocblas", "librocfft",    "librocsparse",    "librccl",
    "libroctracer",   "libOpenCL",    "libblas",    "libcblas",     "libopenblas",     "libblis",
    "libmkl",         "liblapack",    "libatlas",   "libscalapack", "libfftw3",        "libz.",
    "liblzma",        "libzstd",      "libbz2",     "libunwind",    "libhpcdb_record", "libmonitor",
    "libhpcrun",      "libtbb",       "libffi",     "libcrypto",    "libssl",          "linux-vdso",
    "[vdso]",         "<vmlinux"};

/* Where runtimes install themselves (any library below is one). */
static const char *const runtime_dirs[] = {
    "/openmpi/", "/mpich/",     "/ucx/",      "/pmix/", "/libfabric/", "/cuda/",    "/cuda-",    "/rocm/",
    "/rocm-",    "/opt/intel/", "/opt/cray/", "/blas/", "/lapack/",    "/openblas", "/intel64/", "/mkl/"};

int report_runtime_library(const char *path) {
  if (!path) return 0;
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  for (size_t i = 0; i < sizeof runtime_names / sizeof *runtime_names; i++)
    if (!strncmp(base, runtime_names[i], strlen(runtime_names[i]))) return 1;
  for (size_t i = 0; i < sizeof runtime_dirs / sizeof *runtime_dirs; i++)
    if (strstr(path, runtime_dirs[i])) return 1;
  return 0;
}
