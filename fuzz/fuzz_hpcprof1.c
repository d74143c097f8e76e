/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the HPCPROF-* files of the 2021-22 drafts from arbitrary
 * bytes: the profile.db reader (with and without a metric map), the trace.db
 * reader, and the validator of each of the three files. */
#include <stddef.h>
#include <stdint.h>

#include "hpcdb/hpcdb.h"
#include "older/hpcprof1/hp1_validate.h"
#include "older/hpcprof1/hpcprof1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return 0;
  uint32_t first = 0;
  uint16_t map[4] = {3, HPCPROF1_DROP, 0, 1};
  hpcprof1_metric_map m = {map, 4, map + 1, 3};
  if (hpcprof1_parse_profiles(exp, data, size, "fuzz/profile.db", (size & 1) ? &m : NULL, &first) != 0)
    hpcdb_add_profile(exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &first);
  hpcprof1_parse_traces(exp, data, size, "fuzz/trace.db", first);
  hpcdb_experiment_free(exp);

  static const uint32_t known[] = {0, 1, 2, 5, 9};
  hpcdb_validation r = {0, 0};
  static uint8_t declared[65536];
  declared[1] = declared[2] = 1;
  hpcprof1_validator v = {
      {&r, NULL, NULL}, (size & 2) ? known : NULL, 5, {declared, (size & 4) ? declared : NULL}, 0, 0, 0, 0, 0};
  hpcprof1_validate_profile(&v, "fuzz/profile.db", data, size);
  hpcprof1_validate_cct(&v, "fuzz/cct.db", data, size);
  hpcprof1_validate_trace(&v, "fuzz/trace.db", data, size);
  return 0;
}
