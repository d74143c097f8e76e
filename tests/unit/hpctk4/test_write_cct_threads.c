/* SPDX-License-Identifier: BSD-3-Clause */
/* cct.db made by several threads, chunk by chunk, is the file one thread
 * makes in one chunk: on random models, for 2 and 3 threads and chunks of 1
 * to 7 values (many chunks, taken and written out of step). */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_write.h"
#include "random_experiment.h"
#include "testlib.h"

#define SEEDS 100

int main(void) {
  const char *dir = testlib_tmpdir("write_cct_threads");
  char one[4096], many[4096];
  snprintf(one, sizeof one, "%s/one.db", dir);
  snprintf(many, sizeof many, "%s/many.db", dir);
  unsigned compared = 0;
  for (uint64_t seed = 1; seed <= SEEDS; seed++) {
    hpcdb_experiment *e;
    CHECK_RC(random_experiment(&e, seed));
    if (!e) continue;
    CHECK_RC(hpctk4_write_cct(e, one, 0));
    for (unsigned threads = 2; threads <= 3; threads++) {
      CHECK_RC(hpctk4_write_cct_threads(e, many, threads * (1 + seed % 7), threads));
      if (!testlib_same_file(one, many)) {
        fprintf(stderr, "seed %llu, %u threads: cct.db differs\n", (unsigned long long)seed, threads);
        CHECK(0);
      }
      compared++;
    }
    hpcdb_experiment_free(e);
  }
  CHECK(compared > SEEDS); /* the generator made models */
  return TEST_END();
}
