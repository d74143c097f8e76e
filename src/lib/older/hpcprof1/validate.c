/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcprof1_validate: profile.db, cct.db and trace.db of a directory, each
 * alone and cct.db against profile.db; the reporting helpers they share. */
#include <stdio.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "common/mapped_file.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "older/hpcprof1/hp1_validate.h"
#include "older/hpcprof1/hpcprof1.h"

void hpcprof1_report(hpcprof1_validator *v, const char *path, const hpcprof1_problem *pb) {
  HPCPROF1_ERR(v, path, pb->offset, pb->rule, "%s", pb->detail);
}

int hpcprof1_known_ctx(const hpcprof1_validator *v, uint32_t id) {
  if (!v->known) return 1;
  size_t lo = 0, hi = v->n_known;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v->known[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < v->n_known && v->known[lo] == id;
}

uint64_t hpcprof1_value_hash(uint32_t ctx, uint16_t metric, uint32_t profile, uint64_t bits) {
  return hash_u64(bits ^ ((uint64_t)ctx << 32 | profile) * 0x9e3779b97f4a7c15ULL ^
                  ((uint64_t)metric + 1) * 0xc2b2ae3d27d4eb4fULL);
}

int hpcprof1_overlaps_tables(const hpcprof1_file *f, uint64_t off, uint64_t n) {
  if (n == 0) return 0;
  if (off < 24 + 16 * (uint64_t)f->n_sections) return 1;
  for (unsigned s = 0; s < 2; s++)
    if (f->sec_size[s] && off < f->sec_off[s] + f->sec_size[s] && f->sec_off[s] < off + n) return 1;
  return 0;
}

typedef void (*check_fn)(hpcprof1_validator *v, const char *path, const uint8_t *d, uint64_t len);

/* Validates dir/name with check when the file exists; -1 when it cannot be read. */
static int one_file(hpcprof1_validator *v, const char *dir, const char *name, check_fn check, int *present) {
  char path[4096];
  struct stat st;
  *present = 0;
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
    return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", dir);
  if (stat(path, &st) != 0) return 0;
  hpcdb_mapped_file mf;
  HPCDB_TRY(mapped_file_open(&mf, path));
  *present = 1;
  check(v, path, mf.data, mf.len);
  mapped_file_close(&mf);
  return 0;
}

int hpcprof1_validate(hpcdb_validation *result, const char *dir, const uint32_t *known_ctx_ids, size_t n_known,
                      hpcdb_diagnostic_fn fn, void *user) {
  return hpcprof1_validate_declared(result, dir, known_ctx_ids, n_known, NULL, NULL, fn, user);
}

int hpcprof1_validate_declared(hpcdb_validation *result, const char *dir, const uint32_t *known_ctx_ids, size_t n_known,
                               const uint8_t *thread_metrics, const uint8_t *summary_metrics, hpcdb_diagnostic_fn fn,
                               void *user) {
  hpcprof1_validator v = {{result, fn, user}, known_ctx_ids, n_known, {thread_metrics, summary_metrics}, 0, 0, 0, 0, 0};
  int present;
  HPCDB_TRY(one_file(&v, dir, "profile.db", hpcprof1_validate_profile, &present));
  HPCDB_TRY(one_file(&v, dir, "cct.db", hpcprof1_validate_cct, &present));
  HPCDB_TRY(one_file(&v, dir, "trace.db", hpcprof1_validate_trace, &present));
  return 0;
}
