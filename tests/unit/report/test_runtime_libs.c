/* SPDX-License-Identifier: BSD-3-Clause */
/* --collapse libs folds the system's and the runtimes' libraries, never a program's own, wherever
 * it is installed. */
#include "report/report_data.h"
#include "testlib.h"

int main(void) {
  const char *runtime[] = {"/usr/lib/x86_64-linux-gnu/libc.so.6",
                           "/lib/x86_64-linux-gnu/libm.so.6",
                           "/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.1",
                           "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_btl_vader.so",
                           "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0",
                           "/usr/lib/llvm-14/lib/libomp.so.5",
                           "/usr/local/cuda-12.2/lib64/libcudart.so.12",
                           "/opt/rocm-6.0/lib/libamdhip64.so.6",
                           "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3",
                           "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
                           "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
                           "/lib64/ld-linux-x86-64.so.2"};
  const char *own[] = {"/usr/lib/x86_64-linux-gnu/liblammps.so.0", "/home/me/app/build/libsolver.so", "/usr/bin/hpcc",
                       "/usr/lib/x86_64-linux-gnu/libmyphysics.so.2", NULL};
  for (size_t i = 0; i < sizeof runtime / sizeof *runtime; i++) CHECK(report_runtime_library(runtime[i]));
  for (size_t i = 0; i < sizeof own / sizeof *own; i++) CHECK(!report_runtime_library(own[i]));
  return TEST_END();
}
