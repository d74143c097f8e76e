/* SPDX-License-Identifier: BSD-3-Clause */
/* An MPI program started with its launcher's rank variables hidden (run_case.sh mpi-comm-rank):
 * the recorder, loaded before main, sees no rank; main gives PMIx its variable back before
 * MPI_Init, so that only MPI_Comm_rank can tell the recorder the rank. */
#include <mpi.h>
#include <stdlib.h>

#include "work.h"

__attribute__((noinline)) void rank_work(void) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < 0.2) spin(100000);
}

int main(int argc, char **argv) {
  const char *hidden = getenv("HIDDEN_PMIX_RANK");
  if (hidden) setenv("PMIX_RANK", hidden, 1);
  MPI_Init(&argc, &argv);
  rank_work();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
