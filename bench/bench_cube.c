/* SPDX-License-Identifier: BSD-3-Clause */
/* Reads every metric of a Cube file through the direct-access API, one
 * metric at a time into one cnode x location matrix, and prints the time and
 * a checksum: bench_cube FILE.cubex [inclusive|exclusive]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hpcdb/hpcdb.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_cube FILE.cubex [inclusive|exclusive]\n");
    return 2;
  }
  int inclusive = argc < 3 || strcmp(argv[2], "exclusive") != 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  hpcdb_cube *c;
  if (hpcdb_cube_open(&c, argv[1]) < 0) {
    fprintf(stderr, "bench_cube: %s\n", hpcdb_last_error());
    return 2;
  }
  size_t cells = (size_t)hpcdb_cube_n_cnodes(c) * hpcdb_cube_n_locations(c);
  double *out = malloc((cells + 1) * sizeof *out), sum = 0;
  for (uint32_t m = 0; out && m < hpcdb_cube_n_metrics(c); m++) {
    if (hpcdb_cube_metric_values(c, m, inclusive, out) < 0) {
      fprintf(stderr, "bench_cube: %s\n", hpcdb_last_error());
      return 2;
    }
    for (size_t i = 0; i < cells; i++) sum += out[i];
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%u metrics x %u cnodes x %u locations: %.3f s, checksum %.17g\n", hpcdb_cube_n_metrics(c),
         hpcdb_cube_n_cnodes(c), hpcdb_cube_n_locations(c),
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), sum);
  free(out);
  hpcdb_cube_close(c);
  return 0;
}
