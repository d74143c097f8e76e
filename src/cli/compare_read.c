/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli_util.h"
#include "compare_cli.h"

/* The runs are opened at once, one per core (each opening is one thread's
 * work), as sources: a v4.0 database directory mapped and a Cube file
 * through its member reader (the comparison reads their values as it needs
 * them: one summary at a time, the per-profile figures of the rows shown),
 * anything else loaded whole. */
typedef struct reader {
  const char *const *paths;
  uint32_t n;
  hpcdb_source **srcs;
  char (*errors)[1024];
  atomic_uint next;
} reader;

static void *read_some(void *user) {
  reader *rd = user;
  for (uint32_t r; (r = atomic_fetch_add(&rd->next, 1)) < rd->n;)
    if (hpcdb_source_open(&rd->srcs[r], rd->paths[r], NULL) < 0)
      snprintf(rd->errors[r], sizeof rd->errors[r], "%s", hpcdb_last_error());
  return NULL;
}

int compare_read_runs(const char *const *paths, uint32_t n, hpcdb_source **srcs) {
  char(*errors)[1024] = calloc(n, sizeof *errors);
  if (!errors) return -1;
  reader rd = {paths, n, srcs, errors, 0};
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  uint32_t n_threads = cores > 1 ? (uint32_t)cores : 1;
  if (n_threads > n) n_threads = n;
  pthread_t threads[64];
  uint32_t started = 0;
  for (uint32_t t = 1; t < n_threads && t < 64; t++)
    if (pthread_create(&threads[started], NULL, read_some, &rd) == 0) started++;
  read_some(&rd);
  for (uint32_t t = 0; t < started; t++) pthread_join(threads[t], NULL);
  int rc = 0;
  for (uint32_t r = 0; r < n && rc == 0; r++) {
    if (!srcs[r]) {
      fprintf(stderr, "hpcdb compare: %s\n", errors[r]);
      rc = -1;
    } else {
      cli_warnings(hpcdb_source_experiment(srcs[r]));
    }
  }
  free(errors);
  return rc;
}
