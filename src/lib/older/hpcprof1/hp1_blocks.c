/* SPDX-License-Identifier: BSD-3-Clause */
/* The entries of the HPCPROF-* files and the structure of their value
 * blocks and trace lines (bounds, index order, end markers). */
#include "older/hpcprof1/hp1_file.h"

void hpcprof1_pinfo_read(const hpcprof1_file *f, uint32_t i, hpcprof1_pinfo *pi) {
  const uint8_t *e = f->d + f->sec_off[0] + HPCPROF1_PROFILE_INFO_SIZE * (uint64_t)i;
  pi->at = f->sec_off[0] + HPCPROF1_PROFILE_INFO_SIZE * (uint64_t)i;
  pi->tuple = rd_be64(e);
  for (int k = 0; k < 3; k++) pi->reserved[k] = rd_be64(e + 8 + 8 * k);
  pi->n_values = rd_be64(e + 32);
  pi->n_ctxs = rd_be32(e + 40);
  pi->block = rd_be64(e + 44);
}

int hpcprof1_tuple_check(const hpcprof1_file *f, uint64_t p, uint64_t where, uint16_t *n_ids, uint64_t *elems,
                         hpcprof1_problem *pb) {
  uint64_t lo = f->sec_off[1], size = f->sec_size[1];
  if (p < lo || !in_bounds(size, p - lo, 2))
    return hpcprof1_problem_set(pb, where, "pointer-target",
                                "identifier tuple pointer 0x%llx is not inside the Identifier Tuple section",
                                (unsigned long long)p);
  *n_ids = rd_be16(f->d + p);
  *elems = p + 2;
  if (!in_bounds(size, p - lo + 2, 18 * (uint64_t)*n_ids))
    return hpcprof1_problem_set(pb, p, "tuple-bounds", "%u identifier elements run past the section", *n_ids);
  return 0;
}

int hpcprof1_tuple_element(const uint8_t *e, uint16_t *kind, hpcdb_id *id) {
  uint16_t raw = rd_be16(e), interpret = raw >> 14;
  uint64_t physical = rd_be64(e + 2), logical = rd_be64(e + 10);
  *kind = raw & 0x3fffu;
  /* "both valid" and "logical only" are the model's isPhysical bit; the two
   * logical-id scopes (local, global) are kept in flags bits 14-15 */
  id->kind = *kind;
  id->flags = (uint16_t)(interpret == 3 ? 0 : HPCDB_ID_PHYSICAL);
  if (interpret == 1 || interpret == 2) id->flags |= (uint16_t)(interpret << 14);
  id->physical_id = physical;
  id->logical_id = (uint32_t)logical;
  return logical > UINT32_MAX ? -1 : 0;
}

/* Bytes of a block: n_values × vsize + (n_index + 1) × isize, inside the body. */
static int block_bounds(const hpcprof1_file *f, uint64_t at, uint64_t block, uint64_t n_values, uint64_t vsize,
                        uint64_t n_index, uint64_t isize, hpcprof1_problem *pb) {
  uint64_t vbytes, ibytes, total;
  if (!mul_ok(n_values, vsize, &vbytes) || !mul_ok(n_index + 1, isize, &ibytes) || !add_ok(vbytes, ibytes, &total) ||
      !in_bounds(f->body, block, total) || block < 24)
    return hpcprof1_problem_set(pb, at, "values-bounds",
                                "%llu values and %llu index entries at 0x%llx do not fit in the file",
                                (unsigned long long)n_values, (unsigned long long)n_index, (unsigned long long)block);
  return 0;
}

/* How a value block names its values: by context (profile.db) or by metric
 * (cct.db). The index after the values is (key, start) pairs, keys strictly
 * ascending, starts from 0 up to the value count, then the end marker. */
typedef struct index_shape {
  unsigned key_size; /* 4 (context id) or 2 (metric id) */
  uint32_t end_marker;
  const char *key;         /* "context" or "metric" */
  const char *sorted_rule; /* "sorted-ctx" or "sorted-metric" */
} index_shape;

static int check_index(const hpcprof1_file *f, uint64_t idx, uint32_t n, uint64_t n_values, const index_shape *s,
                       hpcprof1_problem *pb) {
  uint64_t stride = s->key_size + 8, prev_start = 0;
  uint32_t prev = 0;
  for (uint32_t k = 0; k <= n; k++) {
    uint64_t at = idx + stride * (uint64_t)k;
    const uint8_t *e = f->d + at;
    uint32_t key = s->key_size == 4 ? rd_be32(e) : rd_be16(e);
    uint64_t start = rd_be64(e + s->key_size);
    if (k == n) {
      if (key != s->end_marker)
        return hpcprof1_problem_set(pb, at, "end-marker", "%s id 0x%x where the end marker 0x%x belongs", s->key, key,
                                    s->end_marker);
      if (start != n_values)
        return hpcprof1_problem_set(pb, at + s->key_size, "start-index", "end index %llu is not the value count %llu",
                                    (unsigned long long)start, (unsigned long long)n_values);
    } else if ((k == 0 && start != 0) || start < prev_start || start > n_values) {
      return hpcprof1_problem_set(pb, at + s->key_size, "start-index",
                                  "%s index %llu is out of order or past the %llu values", s->key,
                                  (unsigned long long)start, (unsigned long long)n_values);
    } else if (k > 0 && key <= prev) {
      return hpcprof1_problem_set(pb, at, s->sorted_rule, "%s id %u after %u: not strictly ascending", s->key, key,
                                  prev);
    }
    prev_start = start;
    prev = key;
  }
  return 0;
}

int hpcprof1_pblock_check(const hpcprof1_file *f, const hpcprof1_pinfo *pi, hpcprof1_problem *pb) {
  static const index_shape by_context = {4, HPCPROF1_PROFILE_END_CTX, "context", "sorted-ctx"};
  if (pi->n_values == 0 && pi->n_ctxs == 0) return 0; /* an empty profile may point anywhere */
  if (block_bounds(f, pi->at + 44, pi->block, pi->n_values, 10, pi->n_ctxs, 12, pb)) return -1;
  return check_index(f, hpcprof1_pblock_index(pi), pi->n_ctxs, pi->n_values, &by_context, pb);
}

void hpcprof1_cinfo_read(const hpcprof1_file *f, uint32_t i, hpcprof1_cinfo *ci) {
  const uint8_t *e = f->d + f->sec_off[0] + HPCPROF1_CCT_INFO_SIZE * (uint64_t)i;
  ci->at = f->sec_off[0] + HPCPROF1_CCT_INFO_SIZE * (uint64_t)i;
  ci->ctx_id = rd_be32(e);
  ci->n_values = rd_be64(e + 4);
  ci->n_metrics = rd_be16(e + 12);
  ci->block = rd_be64(e + 14);
}

int hpcprof1_cblock_check(const hpcprof1_file *f, const hpcprof1_cinfo *ci, hpcprof1_problem *pb) {
  static const index_shape by_metric = {2, HPCPROF1_CCT_END_METRIC, "metric", "sorted-metric"};
  if (ci->n_values == 0 && ci->n_metrics == 0) return 0; /* no values: no block */
  if (block_bounds(f, ci->at + 14, ci->block, ci->n_values, 12, ci->n_metrics, 10, pb)) return -1;
  return check_index(f, hpcprof1_cblock_index(ci), ci->n_metrics, ci->n_values, &by_metric, pb);
}

void hpcprof1_tline_read(const hpcprof1_file *f, uint32_t i, hpcprof1_tline *t) {
  const uint8_t *e = f->d + f->sec_off[0] + HPCPROF1_TRACE_HEADER_SIZE * (uint64_t)i;
  t->at = f->sec_off[0] + HPCPROF1_TRACE_HEADER_SIZE * (uint64_t)i;
  t->prof_index = rd_be32(e);
  t->type = rd_be16(e + 4);
  t->begin = rd_be64(e + 6);
  t->end = rd_be64(e + 14);
}

int hpcprof1_tline_check(const hpcprof1_file *f, const hpcprof1_tline *t, uint64_t *n, hpcprof1_problem *pb) {
  *n = 0;
  if (t->begin == t->end) return 0; /* real files point empty lines past the end */
  if (t->begin > t->end || !in_bounds(f->body, t->begin, t->end - t->begin) || t->begin < 24)
    return hpcprof1_problem_set(pb, t->at + 6, "line-bounds", "trace line [0x%llx, 0x%llx) is not inside the file",
                                (unsigned long long)t->begin, (unsigned long long)t->end);
  if ((t->end - t->begin) % 12 != 0)
    return hpcprof1_problem_set(pb, t->at + 14, "line-size", "trace line of %llu bytes is not whole 12-byte samples",
                                (unsigned long long)(t->end - t->begin));
  *n = (t->end - t->begin) / 12;
  return 0;
}
