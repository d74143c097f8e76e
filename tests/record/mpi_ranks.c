/* SPDX-License-Identifier: BSD-3-Clause */
/* An MPI program: every rank runs rank_work(), then they meet in a barrier. */
#include <mpi.h>

#include "work.h"

__attribute__((noinline)) void rank_work(void) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < 0.3) spin(100000);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  rank_work();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
