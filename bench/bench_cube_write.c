/* SPDX-License-Identifier: BSD-3-Clause */
/* Times hpcdb_cube_write alone: reads a database (not timed), then writes it
 * as a .cubex `runs` times (replacing the file) and prints each wall and CPU time:
 * bench_cube_write SOURCE OUT.cubex [runs]. The write includes the atomic
 * file's fsync; run under `strace -T -e trace=fsync` to see its share. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of this process so far, user and system (all threads): under
 * load the wall time says more about the other processes than about the write. */
static void cpu(double *user, double *sys) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  *user = (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec;
  *sys = (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_cube_write SOURCE OUT.cubex [runs]\n");
    return 2;
  }
  int runs = argc > 3 ? atoi(argv[3]) : 3;
  hpcdb_experiment *exp;
  if (hpcdb_read(&exp, argv[1]) < 0) {
    fprintf(stderr, "bench_cube_write: %s\n", hpcdb_last_error());
    return 2;
  }
  hpcdb_cube_write_options o = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, HPCDB_WRITE_FORCE};
  for (int r = 0; r < runs; r++) {
    double t0 = now(), u0, s0, u1, s1;
    cpu(&u0, &s0);
    if (hpcdb_cube_write(exp, argv[2], &o) < 0) {
      fprintf(stderr, "bench_cube_write: %s\n", hpcdb_last_error());
      return 2;
    }
    double t1 = now();
    cpu(&u1, &s1);
    printf("write %d: %.3f s wall, %.3f s cpu (%.3f user + %.3f system)\n", r + 1, t1 - t0, u1 - u0 + s1 - s0,
           u1 - u0, s1 - s0);
  }
  hpcdb_experiment_free(exp);
  return 0;
}
