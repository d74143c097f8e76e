/* SPDX-License-Identifier: BSD-3-Clause */
/* A small MPI program for tests/mpi's "recorded" case: every rank computes a
 * while in two functions, with a second thread, then the ranks sum a value,
 * so that hpcdb record has several ranks' and threads' samples to write. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) static double inner(long n) {
  double s = 0;
  for (long i = 1; i < n; i++) s += 1.0 / (double)i;
  return s;
}

__attribute__((noinline)) static double outer(long n) {
  double s = 0;
  for (int k = 0; k < 4; k++) s += inner(n);
  return s;
}

static void *worker(void *arg) {
  sink = outer((long)arg);
  return NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, (void *)20000000L);
  double local = outer(30000000L), total = 0;
  pthread_join(t, NULL);
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  sink = total;
  MPI_Finalize();
  return 0;
}
