/* SPDX-License-Identifier: BSD-3-Clause */
/* An OpenMP program with MPI optional (-DWITH_MPI): smooth()'s region is entered from one
 * calling context, relax()'s from two (step_a and step_b), so its workers' part has no single
 * place in the master's tree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef WITH_MPI
#include <mpi.h>
#endif

#define N 200000

static double grid[N], out[N];

__attribute__((noinline)) static void smooth(int sweeps) {
  for (int s = 0; s < sweeps; s++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++) out[i] = (grid[i - 1] + grid[i] + grid[i + 1]) / 3.0 + sin(out[i]) * 1e-9;
  }
}

__attribute__((noinline)) static void relax(int sweeps) {
  for (int s = 0; s < sweeps; s++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++) grid[i] = 0.5 * grid[i] + 0.25 * (out[i - 1] + out[i + 1]) + cos(grid[i]) * 1e-9;
  }
}

__attribute__((noinline)) void step_a(int sweeps) { relax(sweeps); }
__attribute__((noinline)) void step_b(int sweeps) { relax(sweeps); }

int main(int argc, char **argv) {
#ifdef WITH_MPI
  MPI_Init(&argc, &argv);
#endif
  int sweeps = argc > 1 ? atoi(argv[1]) : 400;
  for (int i = 0; i < N; i++) grid[i] = i % 7;
  smooth(sweeps);
  step_a(sweeps);
  step_b(sweeps);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += grid[i] + out[i];
#ifdef WITH_MPI
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
#endif
  printf("%.3f\n", sum);
  return 0;
}
