/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: the zero-copy access to a v4.0 database (hpcdb_db_*). The
 * input is ids (access_ids.h: profile, context, metric, flags) and a
 * directory image of meta.db, profile.db and cct.db; the database is opened
 * and one value, one profile and one context are read by the fuzzer's ids
 * (as given, or brought into range by the flags), checking the contracts:
 * an absent value reads as 0, a scan gives only ids in range of the file. */
#include <stdlib.h>

#include "access_ids.h"
#include "cmd_image.h"
#include "hpcdb/hpcdb.h"

typedef struct scan_check {
  uint32_t calls;
} scan_check;

static int count_value(void *user, uint32_t a, uint32_t b, double value) {
  (void)a, (void)b, (void)value;
  scan_check *c = user;
  return ++c->calls > 1000000 ? 1 : 0; /* a scan stops when told to */
}

static void read_by_ids(const hpcdb_db *db, const uint8_t *ids) {
  uint32_t flags = access_u32(ids, 3);
  uint32_t n_prof = hpcdb_db_profile_count(db), n_ctx = hpcdb_db_context_count(db);
  uint32_t prof = access_pick(access_u32(ids, 0), n_prof, flags & 1);
  uint32_t ctx = access_pick(access_u32(ids, 1), n_ctx ? n_ctx : 1, flags & 2);
  uint32_t metric = access_u32(ids, 2) & (flags & 4 ? 0x1ffffu : 0xffffu); /* 0x10000: HPCDB_ALL_METRICS */
  double v = -1;
  int rc = hpcdb_db_profile_value(db, prof, ctx, (uint16_t)metric, &v);
  if (rc == 0 && v != 0) abort(); /* absent reads as 0 */
  v = -1;
  rc = hpcdb_db_context_value(db, ctx, (uint16_t)metric, prof, &v);
  if (rc == 0 && v != 0) abort();
  scan_check c = {0};
  rc = hpcdb_db_profile_scan(db, prof, count_value, &c);
  if (rc == 1 && c.calls <= 1000000) abort(); /* 1 only from the callback */
  c.calls = 0;
  hpcdb_db_context_scan(db, ctx, metric, count_value, &c);
  hpcdb_profile p = {0};
  if (hpcdb_db_profile_values(db, prof, &p) == 0) {
    for (uint32_t k = 0; k < p.n_ctxs; k++)
      if (p.ctx_starts[k] > p.ctx_starts[k + 1] || p.ctx_starts[k + 1] > p.n_values) abort();
    hpcdb_profile_clear_values(&p);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char dir[4096], input[4096];
  if (size < ACCESS_IDS_SIZE) return 0;
  if (cmd_image_unpack(data + ACCESS_IDS_SIZE, size - ACCESS_IDS_SIZE, dir, sizeof dir, input, sizeof input) < 0)
    return 0;
  hpcdb_db *db = NULL;
  if (hpcdb_db_open(&db, dir) == 0) {
    read_by_ids(db, data);
    hpcdb_db_close(db);
  }
  cmd_image_remove(dir);
  return 0;
}
