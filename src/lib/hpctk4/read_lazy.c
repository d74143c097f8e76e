/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_hpctk4_read_lazy: a v4.0 database's tree, metrics and profile
 * identities without its values, which stay in profile.db for
 * hpcdb_db_profile_scan (memory-mapped, read on demand): a database of any
 * size opens in the time meta.db and the Profile Info array take. */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/mapped_file.h"
#include "hpcdb/common.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"
#include "hpctk4/hpctk4_read.h"

enum { SEC_INFOS, SEC_TUPLES, N_SECTIONS };

#define FAIL(f, status, section, off, rule, ...) hpcdb_fail_at(status, (f)->path, section, off, rule, __VA_ARGS__)

/* The identifier tuple at p into a new array (same rules as the full reader). */
static int id_tuple(const hpctk4_file *f, uint64_t p, uint64_t where, hpcdb_id **ids, uint16_t *n) {
  uint64_t lo = f->sec_off[SEC_TUPLES], size = f->sec_size[SEC_TUPLES];
  if (p % 8 != 0 || p < lo || !in_bounds(size, p - lo, 8))
    return FAIL(f, HPCDB_ECORRUPT, "Profile Info", where, "pointer-target",
                "pIdTuple 0x%llx is not an aligned tuple in the Identifier Tuples section", (unsigned long long)p);
  *n = rd_le16(f->data + p);
  if (!in_bounds(size, p - lo + 8, 16 * (uint64_t)*n))
    return FAIL(f, HPCDB_ECORRUPT, "Identifier Tuples", p, "section-bounds", "%u identifiers run past the section", *n);
  *ids = calloc(*n ? *n : 1, sizeof **ids);
  if (!*ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint16_t i = 0; i < *n; i++) {
    const uint8_t *e = f->data + p + 8 + 16 * (uint64_t)i;
    (*ids)[i] = (hpcdb_id){e[0], rd_le16(e + 2), rd_le32(e + 4), rd_le64(e + 8)};
  }
  return 0;
}

/* Every profile of profile.db, with its identity and flags and no values. */
static int add_profiles(hpcdb_experiment *exp, const hpctk4_file *f) {
  uint64_t s = f->sec_off[SEC_INFOS];
  if (!in_bounds(f->sec_size[SEC_INFOS], 0, 0xd))
    return FAIL(f, HPCDB_ECORRUPT, "Profile Info", s, "section-bounds", "section too small for its header");
  uint64_t p = rd_le64(f->data + s), stride = f->data[s + 0xc], total;
  uint32_t n = rd_le32(f->data + s + 8);
  if (stride < 0x2c)
    return FAIL(f, HPCDB_ECORRUPT, "Profile Info", s + 0xc, "stride", "szProfile %llu is smaller than 44",
                (unsigned long long)stride);
  if (!mul_ok(n, stride, &total) || p < s || (n && p % 8) || !in_bounds(f->sec_size[SEC_INFOS], p - s, total))
    return FAIL(f, HPCDB_ECORRUPT, "Profile Info", s, "section-bounds",
                "%u profile infos at 0x%llx are not an aligned array inside the section", n, (unsigned long long)p);
  for (uint32_t i = 0; i < n; i++) {
    uint64_t e = p + i * stride, p_tuple = rd_le64(f->data + e + 0x20);
    hpcdb_id *ids = NULL;
    uint16_t n_ids = 0;
    if (p_tuple) HPCDB_TRY(id_tuple(f, p_tuple, e + 0x20, &ids, &n_ids));
    int rc = hpcdb_add_profile(exp, rd_le32(f->data + e + 0x28), p_tuple != 0, ids, n_ids, NULL);
    free(ids);
    HPCDB_TRY(rc);
  }
  return 0;
}

static int parse_file(hpcdb_experiment *exp, const char *dir, const char *name, int meta) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
    return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", dir);
  hpcdb_mapped_file m;
  HPCDB_TRY(mapped_file_open(&m, path));
  int rc;
  if (meta) {
    rc = hpctk4_parse_meta(exp, m.data, m.len, path);
  } else {
    hpctk4_file f;
    rc = hpctk4_open_bytes(&f, m.data, m.len, path, "prof", "_prof.db", N_SECTIONS);
    if (rc == 0) rc = add_profiles(exp, &f);
  }
  return mapped_file_finish(&m, path, rc);
}

int hpcdb_hpctk4_read_lazy(hpcdb_experiment **out, hpcdb_db **db, const char *dir) {
  *out = NULL;
  *db = NULL;
  hpcdb_experiment *exp;
  HPCDB_TRY(hpcdb_experiment_new(&exp));
  int rc = parse_file(exp, dir, "meta.db", 1);
  if (rc == 0) rc = parse_file(exp, dir, "profile.db", 0);
  if (rc == 0) rc = hpcdb_db_open(db, dir);
  if (rc == 0 && hpcdb_db_profile_count(*db) != exp->n_profiles)
    rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: profile.db: %u profiles, then %u", dir, exp->n_profiles,
                    hpcdb_db_profile_count(*db));
  if (rc == 0) rc = hpcdb_set_origin(exp, dir);
  if (rc < 0) {
    hpcdb_experiment_free(exp);
    hpcdb_db_close(*db);
    *db = NULL;
    return rc;
  }
  *out = exp;
  return 0;
}
