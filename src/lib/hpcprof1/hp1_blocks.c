/* The entries of the HPCPROF-* files and the structure of their value
 * blocks and trace lines (bounds, index order, end markers). */
#include "hpcprof1/hp1_file.h"

void hp1_pinfo_read(const hp1_file *f, uint32_t i, hp1_pinfo *pi) {
  const uint8_t *e = f->d + f->sec_off[0] + HP1_PROFILE_INFO_SIZE * (uint64_t)i;
  pi->at = f->sec_off[0] + HP1_PROFILE_INFO_SIZE * (uint64_t)i;
  pi->tuple = rd_be64(e);
  for (int k = 0; k < 3; k++) pi->reserved[k] = rd_be64(e + 8 + 8 * k);
  pi->n_values = rd_be64(e + 32);
  pi->n_ctxs = rd_be32(e + 40);
  pi->block = rd_be64(e + 44);
}

int hp1_tuple_check(const hp1_file *f, uint64_t p, uint64_t where, uint16_t *n_ids, uint64_t *elems,
                    hp1_problem *pb) {
  uint64_t lo = f->sec_off[1], size = f->sec_size[1];
  if (p < lo || !in_bounds(size, p - lo, 2))
    return hp1_problem_set(pb, where, "pointer-target",
                           "identifier tuple pointer 0x%llx is not inside the Identifier Tuple section",
                           (unsigned long long)p);
  *n_ids = rd_be16(f->d + p);
  *elems = p + 2;
  if (!in_bounds(size, p - lo + 2, 18 * (uint64_t)*n_ids))
    return hp1_problem_set(pb, p, "tuple-bounds", "%u identifier elements run past the section", *n_ids);
  return 0;
}

int hp1_tuple_element(const uint8_t *e, uint16_t *kind, hpcdb_id *id) {
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
static int block_bounds(const hp1_file *f, uint64_t at, uint64_t block, uint64_t n_values, uint64_t vsize,
                        uint64_t n_index, uint64_t isize, hp1_problem *pb) {
  uint64_t vbytes, ibytes, total;
  if (!mul_ok(n_values, vsize, &vbytes) || !mul_ok(n_index + 1, isize, &ibytes) || !add_ok(vbytes, ibytes, &total) ||
      !in_bounds(f->body, block, total) || block < 24)
    return hp1_problem_set(pb, at, "values-bounds", "%llu values and %llu index entries at 0x%llx do not fit in the file",
                           (unsigned long long)n_values, (unsigned long long)n_index, (unsigned long long)block);
  return 0;
}

int hp1_pblock_check(const hp1_file *f, const hp1_pinfo *pi, hp1_problem *pb) {
  if (pi->n_values == 0 && pi->n_ctxs == 0) return 0; /* an empty profile may point anywhere */
  if (block_bounds(f, pi->at + 44, pi->block, pi->n_values, 10, pi->n_ctxs, 12, pb)) return -1;
  uint64_t idx = hp1_pblock_index(pi);
  uint64_t prev_start = 0;
  uint32_t prev_ctx = 0;
  for (uint32_t k = 0; k <= pi->n_ctxs; k++) {
    const uint8_t *e = f->d + idx + 12 * (uint64_t)k;
    uint32_t ctx = rd_be32(e);
    uint64_t start = rd_be64(e + 4);
    if (k == pi->n_ctxs) {
      if (ctx != HP1_PROFILE_END_CTX)
        return hp1_problem_set(pb, idx + 12 * (uint64_t)k, "end-marker",
                               "context id 0x%x where the end marker 0x656e6421 belongs", ctx);
      if (start != pi->n_values)
        return hp1_problem_set(pb, idx + 12 * (uint64_t)k + 4, "start-index",
                               "end index %llu is not the value count %llu", (unsigned long long)start,
                               (unsigned long long)pi->n_values);
    } else if ((k == 0 && start != 0) || start < prev_start || start > pi->n_values) {
      return hp1_problem_set(pb, idx + 12 * (uint64_t)k + 4, "start-index",
                             "context index %llu is out of order or past the %llu values", (unsigned long long)start,
                             (unsigned long long)pi->n_values);
    } else if (k > 0 && ctx <= prev_ctx) {
      return hp1_problem_set(pb, idx + 12 * (uint64_t)k, "sorted-ctx",
                             "context id %u after %u: not strictly ascending", ctx, prev_ctx);
    }
    prev_start = start;
    prev_ctx = ctx;
  }
  return 0;
}

void hp1_cinfo_read(const hp1_file *f, uint32_t i, hp1_cinfo *ci) {
  const uint8_t *e = f->d + f->sec_off[0] + HP1_CCT_INFO_SIZE * (uint64_t)i;
  ci->at = f->sec_off[0] + HP1_CCT_INFO_SIZE * (uint64_t)i;
  ci->ctx_id = rd_be32(e);
  ci->n_values = rd_be64(e + 4);
  ci->n_metrics = rd_be16(e + 12);
  ci->block = rd_be64(e + 14);
}

int hp1_cblock_check(const hp1_file *f, const hp1_cinfo *ci, hp1_problem *pb) {
  if (ci->n_values == 0 && ci->n_metrics == 0) return 0; /* no values: no block */
  if (block_bounds(f, ci->at + 14, ci->block, ci->n_values, 12, ci->n_metrics, 10, pb)) return -1;
  uint64_t idx = hp1_cblock_index(ci), prev_start = 0;
  uint16_t prev = 0;
  for (uint32_t k = 0; k <= ci->n_metrics; k++) {
    const uint8_t *e = f->d + idx + 10 * (uint64_t)k;
    uint16_t metric = rd_be16(e);
    uint64_t start = rd_be64(e + 2);
    if (k == ci->n_metrics) {
      if (metric != HP1_CCT_END_METRIC)
        return hp1_problem_set(pb, idx + 10 * (uint64_t)k, "end-marker",
                               "metric id 0x%x where the end marker 0x6564 belongs", metric);
      if (start != ci->n_values)
        return hp1_problem_set(pb, idx + 10 * (uint64_t)k + 2, "start-index",
                               "end index %llu is not the value count %llu", (unsigned long long)start,
                               (unsigned long long)ci->n_values);
    } else if ((k == 0 && start != 0) || start < prev_start || start > ci->n_values) {
      return hp1_problem_set(pb, idx + 10 * (uint64_t)k + 2, "start-index",
                             "metric index %llu is out of order or past the %llu values", (unsigned long long)start,
                             (unsigned long long)ci->n_values);
    } else if (k > 0 && metric <= prev) {
      return hp1_problem_set(pb, idx + 10 * (uint64_t)k, "sorted-metric",
                             "metric id %u after %u: not strictly ascending", metric, prev);
    }
    prev_start = start;
    prev = metric;
  }
  return 0;
}

void hp1_tline_read(const hp1_file *f, uint32_t i, hp1_tline *t) {
  const uint8_t *e = f->d + f->sec_off[0] + HP1_TRACE_HEADER_SIZE * (uint64_t)i;
  t->at = f->sec_off[0] + HP1_TRACE_HEADER_SIZE * (uint64_t)i;
  t->prof_index = rd_be32(e);
  t->type = rd_be16(e + 4);
  t->begin = rd_be64(e + 6);
  t->end = rd_be64(e + 14);
}

int hp1_tline_check(const hp1_file *f, const hp1_tline *t, uint64_t *n, hp1_problem *pb) {
  *n = 0;
  if (t->begin == t->end) return 0; /* real files point empty lines past the end */
  if (t->begin > t->end || !in_bounds(f->body, t->begin, t->end - t->begin) || t->begin < 24)
    return hp1_problem_set(pb, t->at + 6, "line-bounds", "trace line [0x%llx, 0x%llx) is not inside the file",
                           (unsigned long long)t->begin, (unsigned long long)t->end);
  if ((t->end - t->begin) % 12 != 0)
    return hp1_problem_set(pb, t->at + 14, "line-size", "trace line of %llu bytes is not whole 12-byte samples",
                           (unsigned long long)(t->end - t->begin));
  *n = (t->end - t->begin) / 12;
  return 0;
}
