/* SPDX-License-Identifier: BSD-3-Clause */
/* The profile.db reader against bytes laid out by hand from
 * specs/hpctoolkit-db-v4.0.md (not by our writer): header, Profile Info
 * section with a {PI} stride larger than today's (a future minor version
 * may extend it: the reader must step by szProfile), an identifier tuple,
 * and two profile-major value blocks with unaligned values. */
#include <string.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"
#include "hpctk4/hpctk4_read.h"
#include "testlib.h"

static uint8_t file[0x120];

static void u8(size_t at, uint8_t v) { file[at] = v; }
static void u16(size_t at, uint16_t v) { wr_le16(file + at, v); }
static void u32(size_t at, uint32_t v) { wr_le32(file + at, v); }
static void u64(size_t at, uint64_t v) { wr_le64(file + at, v); }
static void f64(size_t at, double d) { wr_le_f64(file + at, d); }

/* Offsets: header 0x00, Profile Info section 0x30 (header 0x10 bytes, two
 * {PI} of 48 bytes from 0x40), IdTuples section 0xa0 (one tuple of 40
 * bytes), summary values 0xc8 + indices 0xd4, thread values 0xe0 +
 * indices 0x100, footer 0x118. */
static void build(void) {
  memset(file, 0, sizeof file);
  memcpy(file, "HPCTOOLKITprof", 14);
  u8(0x0e, 4), u8(0x0f, 7);         /* a future minor version */
  u64(0x10, 0x70), u64(0x18, 0x30); /* ProfileInfos */
  u64(0x20, 0x28), u64(0x28, 0xa0); /* IdTuples */
  u64(0x30, 0x40), u32(0x38, 2), u8(0x3c, 48);
  /* {PI} 0: the canonical summary: 1 value, 1 context, no id tuple */
  u64(0x40, 1), u64(0x48, 0xc8), u32(0x50, 1), u64(0x58, 0xd4), u64(0x60, 0), u32(0x68, 1);
  memset(file + 0x70, 0xab, 8); /* the 8 bytes a future version added */
  /* {PI} 1: a thread: 3 values, 2 contexts, RANK 3 THREAD 1 */
  u64(0x70 + 0, 3), u64(0x78, 0xe0), u32(0x80, 2), u64(0x88, 0x100), u64(0x90, 0xa0), u32(0x98, 0);
  memset(file + 0x9c, 0, 4);
  /* the id tuple: nIds 2, then {kind u8, flags u16 at +2, logicalId u32 at +4, physicalId u64 at +8} */
  u16(0xa0, 2);
  u8(0xa8, 2), u16(0xaa, 0), u32(0xac, 3), u64(0xb0, 3);
  u8(0xb8, 3), u16(0xba, 1), u32(0xbc, 1), u64(0xc0, 0x1234);
  /* summary: {metricId u16, value f64} then {ctxId u32, startIndex u64} */
  u16(0xc8, 1), f64(0xca, 2.5);
  u32(0xd4, 0), u64(0xd8, 0);
  /* thread: ctx 5 -> metrics 0 and 2, ctx 7 -> metric 0 */
  u16(0xe0, 0), f64(0xe2, 1.0), u16(0xea, 2), f64(0xec, 4.0), u16(0xf4, 0), f64(0xf6, 0.5);
  u32(0x100, 5), u64(0x104, 0), u32(0x10c, 7), u64(0x110, 2);
  memcpy(file + 0x118, "_prof.db", 8);
}

static hpcdb_experiment *fresh(void) {
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) != 0) return NULL;
  static const char *const kinds[] = {"SUMMARY", "NODE", "RANK", "THREAD"};
  for (int k = 0; k < 4; k++) hpcdb_add_kind_name(exp, kinds[k], NULL);
  return exp;
}

static void reads_the_hand_made_file(void) {
  build();
  hpcdb_experiment *exp = fresh();
  CHECK_RC(hpctk4_parse_profile(exp, file, sizeof file, "hand/profile.db"));
  CHECK(exp->n_profiles == 2);
  if (exp->n_profiles != 2) return;
  const hpcdb_profile *s = &exp->profiles[0], *t = &exp->profiles[1];
  double v = 0;
  CHECK((s->flags & HPCDB_PROFILE_SUMMARY) && !s->has_id_tuple);
  CHECK(s->n_values == 1 && hpcdb_profile_value(s, 0, 1, &v) && v == 2.5);
  CHECK(!(t->flags & HPCDB_PROFILE_SUMMARY) && t->has_id_tuple && t->n_ids == 2);
  CHECK(t->ids[0].kind == 2 && t->ids[0].logical_id == 3 && t->ids[0].physical_id == 3 && t->ids[0].flags == 0);
  CHECK(t->ids[1].kind == 3 && t->ids[1].logical_id == 1 && t->ids[1].physical_id == 0x1234 && t->ids[1].flags == 1);
  CHECK(t->n_ctxs == 2 && t->n_values == 3 && t->ctx_ids[0] == 5 && t->ctx_ids[1] == 7);
  CHECK(hpcdb_profile_value(t, 5, 0, &v) && v == 1.0);
  CHECK(hpcdb_profile_value(t, 5, 2, &v) && v == 4.0);
  CHECK(hpcdb_profile_value(t, 7, 0, &v) && v == 0.5);
  CHECK(!hpcdb_profile_value(t, 7, 2, &v));
  hpcdb_experiment_free(exp);
}

/* Each of these breaks one rule the reader relies on. */
static void rejects(const char *what, void (*damage)(void)) {
  build();
  damage();
  hpcdb_experiment *exp = fresh();
  int rc = hpctk4_parse_profile(exp, file, sizeof file, "hand/profile.db");
  if (rc == 0) fprintf(stderr, "accepted: %s\n", what);
  CHECK(rc < 0);
  hpcdb_experiment_free(exp);
}
static void bad_footer(void) { file[0x11f] = 'x'; }
static void bad_major(void) { u8(0x0e, 3); }
static void section_past_end(void) { u64(0x20, 0x1000); }
static void values_past_end(void) { u64(0x78, 0x118); }
static void indices_before_values(void) { u64(0x88, 0xd0); }
static void start_index_beyond(void) { u64(0x110, 9); }
static void contexts_unsorted(void) { u32(0x10c, 4); }
static void tuple_outside_section(void) { u64(0x90, 0x30); }
static void stride_too_small(void) { u8(0x3c, 8); }

int main(void) {
  reads_the_hand_made_file();
  rejects("footer", bad_footer);
  rejects("major version 3", bad_major);
  rejects("section beyond the file", section_past_end);
  rejects("values beyond the file", values_past_end);
  rejects("pCtxIndices before pValues", indices_before_values);
  rejects("startIndex beyond nValues", start_index_beyond);
  rejects("ctxIds not ascending", contexts_unsorted);
  rejects("id tuple outside its section", tuple_outside_section);
  rejects("szProfile smaller than {PI}", stride_too_small);
  return TEST_END();
}
