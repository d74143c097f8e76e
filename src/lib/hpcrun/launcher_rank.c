/* SPDX-License-Identifier: BSD-3-Clause */
/* The rank a launcher gave this process (hpcdb_launcher_rank); compiled into libhpcdb_record.so too. */
#include <errno.h>
#include <stdlib.h>

#include "hpcdb/hpcrun.h"

long hpcdb_launcher_rank(const char **variable) {
  static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK",
                                      "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const char *v = getenv(names[i]);
    char *end;
    if (!v || *v < '0' || *v > '9') continue;
    errno = 0;
    long rank = strtol(v, &end, 10);
    if (*end || errno) continue;
    if (variable) *variable = names[i];
    return rank;
  }
  return -1;
}
