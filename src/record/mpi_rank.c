/* SPDX-License-Identifier: BSD-3-Clause */
/* The rank of a process whose launcher set none of the variables hpcdb_launcher_rank knows: asked of
 * MPI itself (MPI_Comm_rank on MPI_COMM_WORLD) when MPI_Init or MPI_Init_thread returns, as
 * HPCToolkit's libmonitor does. MPI_COMM_WORLD is the address of ompi_mpi_comm_world in Open MPI
 * and the integer 0x44000000 in the MPICH ABI (MPICH, Intel MPI, MVAPICH, Cray MPICH). Trace files
 * opened before (being written under a temporary name) get the rank in the name they end with. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "record.h"

#define MPICH_COMM_WORLD 0x44000000

static long rank_from_mpi(void) {
  int rank = -1;
  void *ompi_world = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
  void *comm_rank = dlsym(RTLD_DEFAULT, "PMPI_Comm_rank");
  if (!comm_rank) return -1;
  int rc = ompi_world ? ((int (*)(void *, int *))comm_rank)(ompi_world, &rank)
                      : ((int (*)(int, int *))comm_rank)(MPICH_COMM_WORLD, &rank);
  return rc == 0 && rank >= 0 ? rank : -1;
}

static void learn_rank(void) {
  if (!rec_proc.cfg.enabled || rec_proc.rank >= 0) return;
  long rank = rank_from_mpi();
  if (rank < 0) return;
  rec_proc.rank = rank;
  char path[4400];
  for (rec_thread *t = __atomic_load_n(&rec_proc.threads, __ATOMIC_ACQUIRE); t && rec_proc.cfg.trace; t = t->next) {
    if (!t->trace.final_path) continue;
    rec_file_name(path, sizeof path, t->id, "hpctrace");
    char *name = strdup(path);
    /* the old name is left, not freed: a thread ending now may be reading it */
    if (name) __atomic_store_n(&t->trace.final_path, name, __ATOMIC_RELEASE);
  }
}

REC_EXPORT int MPI_Init(int *argc, char ***argv) {
  int (*real)(int *, char ***) = (int (*)(int *, char ***))rec_real("MPI_Init");
  if (!real) return 1; /* an error code: no MPI library below (a weak reference called it) */
  int rc = real(argc, argv);
  if (rc == 0) learn_rank();
  return rc;
}

REC_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int (*real)(int *, char ***, int, int *) = (int (*)(int *, char ***, int, int *))rec_real("MPI_Init_thread");
  if (!real) return 1;
  int rc = real(argc, argv, required, provided);
  if (rc == 0) learn_rank();
  return rc;
}
