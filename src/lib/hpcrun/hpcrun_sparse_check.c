/* The structure of a 04.00 file's sparse values that every consumer indexes
 * with: the slices lie within the values, each metric id is in the table,
 * each context has one slice and each metric one value per slice. The parser
 * only reads the arrays; the validator reports these one by one, and readers
 * (the model, the analysis) call this before using them. */
#include <stdlib.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "hpcrun/hpcrun_file.h"

static int check_slice(const char *path, const hpcrun_file *f, uint32_t i, const hpcdb_u64map *nodes,
                       hpcdb_u64map *seen, uint32_t *stamp) {
  const hpcrun_sparse *s = &f->sparse;
  uint64_t off = s->ctxs_off + 12 * (uint64_t)i, lo = s->ctx_starts[i], hi = s->ctx_starts[i + 1], dummy;
  if (lo > hi || hi > s->n_values)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", off + 4, "start-sorted",
                         "values [%llu, %llu) are not a slice of the %llu values", (unsigned long long)lo,
                         (unsigned long long)hi, (unsigned long long)s->n_values);
  if (!u64map_get(nodes, s->ctx_ids[i], &dummy))
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", off, "value-cct-exists",
                         "context %u is not a cct node", s->ctx_ids[i]);
  /* Real files do not sort contexts; a second slice for one is an error. */
  if (u64map_get(seen, s->ctx_ids[i], &dummy))
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", off, "value-cct-unique",
                         "context %u has a second value slice", s->ctx_ids[i]);
  if (u64map_put(seen, s->ctx_ids[i], i) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t k = lo; k < hi; k++) {
    uint16_t m = s->metric_ids[k];
    if (m >= f->t.n_metrics)
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", s->values_off + 10 * k + 8, "metric-id-range",
                           "metric id %u, but the table has %u metrics", m, f->t.n_metrics);
    if (stamp[m] == i + 1)
      return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", s->values_off + 10 * k + 8, "value-metric-unique",
                           "context %u has two values for metric %u", s->ctx_ids[i], m);
    stamp[m] = i + 1; /* metric m has a value in slice i */
  }
  return 0;
}

int hpcrun_sparse_check(const hpcrun_file *f, const char *path) {
  const hpcrun_sparse *s = &f->sparse;
  if (s->ctx_starts[s->n_nz_ctxs] != s->n_values)
    return hpcdb_fail_at(HPCDB_ECORRUPT, path, "sparse values", s->ctxs_off + 12 * (uint64_t)s->n_nz_ctxs + 4,
                         "sentinel-start", "the last start index %llu is not the value count %llu",
                         (unsigned long long)s->ctx_starts[s->n_nz_ctxs], (unsigned long long)s->n_values);
  hpcdb_u64map seen = {0}, nodes = {0};
  uint32_t *stamp = calloc((size_t)f->t.n_metrics + 1, sizeof *stamp);
  int rc = stamp ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t k = 0; k < f->t.n_nodes && rc == 0; k++)
    if (u64map_put(&nodes, f->t.nodes[k].id, k) != 0) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < s->n_nz_ctxs && rc == 0; i++) rc = check_slice(path, f, i, &nodes, &seen, stamp);
  u64map_free(&seen);
  u64map_free(&nodes);
  free(stamp);
  return rc;
}
