/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: a legacy *.metric-db file's header and dense values. */
#include <stddef.h>
#include <stdint.h>

#include "older/legacy/legacy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  legacy_metricdb_header h;
  uint64_t trailing;
  if (legacy_metricdb_header_parse(&h, data, size, "fuzz.metric-db", &trailing) != 0) return 0;
  static const uint16_t columns[4] = {3, 0, LEGACY_DROP, 1}; /* out of order, one dropped */
  hpcdb_profile c;
  if (legacy_metricdb_values(&c, data, size, "fuzz.metric-db", &h, columns, 4) == 0) legacy_csr_free(&c);
  return 0;
}
