/* SPDX-License-Identifier: BSD-3-Clause */
/* The extent of a procedure found only as a call target (no symbol, no
 * DWARF): the instructions reachable from its entry, as hpcstruct's parser
 * finds them, without running into the next known procedure. */
#include <stdlib.h>

#include "binstruct/bs_internal.h"
#include "common/error.h"

int64_t bs_insn_index(const bs_insn *in, uint64_t n, uint64_t addr) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (in[mid].addr < addr) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && in[lo].addr == addr ? (int64_t)lo : -1;
}

int64_t bs_reachable_ranges(bs_unit *u, const bs_binary *b, bs_decoder *d, uint64_t start, uint64_t limit) {
  uint64_t len = limit > start ? limit - start : 0;
  const uint8_t *bytes = len ? bs_binary_code_at(b, start, &len) : NULL;
  if (!bytes) return 0;
  bs_insn *in = NULL;
  uint64_t n = 0, cap = 0;
  int rc = bs_decode(d, bytes, len, start, &in, &n, &cap);
  uint8_t *seen = rc == 0 && n ? calloc(n, 1) : NULL;
  uint64_t *work = seen ? malloc(n * sizeof *work) : NULL;
  int64_t count = 0;
  if (rc < 0 || !seen || !work) {
    free(in), free(seen), free(work);
    return rc < 0 ? rc : n ? hpcdb_fail(HPCDB_ENOMEM, "out of memory") : 0;
  }
  uint64_t sp = 0;
  seen[0] = 1;
  work[sp++] = 0;
  while (sp) {
    uint64_t i = work[--sp];
    int64_t next[2] = {-1, -1};
    uint8_t f = in[i].flow;
    if ((f == BS_FLOW_NEXT || f == BS_FLOW_PAD || f == BS_FLOW_CALL || f == BS_FLOW_COND) && i + 1 < n)
      next[0] = (int64_t)i + 1;
    if ((f == BS_FLOW_JUMP || f == BS_FLOW_COND) && in[i].target) next[1] = bs_insn_index(in, n, in[i].target);
    for (int k = 0; k < 2; k++)
      if (next[k] >= 0 && !seen[next[k]]) seen[next[k]] = 1, work[sp++] = (uint64_t)next[k];
  }
  for (uint64_t i = 0; i < n && rc == 0; i++) {
    if (!seen[i]) continue;
    uint64_t j = i;
    while (j + 1 < n && seen[j + 1]) j++;
    rc = bs_unit_add_range(u, in[i].addr, in[j].addr + in[j].len);
    count++;
    i = j;
  }
  free(in), free(seen), free(work);
  return rc < 0 ? rc : count;
}
