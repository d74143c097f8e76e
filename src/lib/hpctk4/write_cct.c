/* cct.db: the transpose of the non-summary profiles. Header, Context Info
 * section (one {CI} per context id 0..max), then one block per context in id
 * order: (profIndex, value) pairs sorted by metric then profile at a 4-byte
 * boundary, the metric indices right after them.
 *
 * Memory stays bounded however large the database: one pass counts the
 * values of each context; then contexts are taken in chunks holding at most
 * chunk_values values, gathered from every profile (each profile keeps a
 * cursor, so each value is visited once), sorted and written. The chunk's
 * {CI} entries are patched in place at the start of the file. */
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "hpctk4/hpctk4_write.h"

#define SZ_CI 32
#define SZ_VAL 12
#define SZ_IDX 10
#define MAX_CHUNK_CTXS (1u << 20)

typedef hpctk4_cct_entry entry;

static int is_summary(const hpcdb_profile *p) { return (p->flags & HPCDB_PROFILE_SUMMARY) != 0; }

/* The nCtxs the v4.0 reader found in the source cct.db (hpcprof counts ids
 * that carry no value and are not in the tree): kept when larger, so that a
 * database read and written again keeps its shape. 0 when absent. */
static uint64_t recorded_contexts(const hpcdb_experiment *exp) {
  for (uint32_t i = 0; i < exp->n_attrs; i++)
    if (exp->attrs[i].key && exp->attrs[i].value && strcmp(exp->attrs[i].key, "hpctk4.cct.nCtxs") == 0) {
      char *end;
      unsigned long long n = strtoull(exp->attrs[i].value, &end, 10);
      return *end == '\0' && n <= UINT32_MAX ? n : 0;
    }
  return 0;
}

int hpctk4_cct_context_count(const hpcdb_experiment *exp, uint32_t *n_ctxs) {
  uint64_t max = 0;
  for (uint32_t i = 0; i < exp->n_contexts; i++)
    if (exp->contexts[i].id > max) max = exp->contexts[i].id;
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    if (p->n_ctxs && p->ctx_ids[p->n_ctxs - 1] > max) max = p->ctx_ids[p->n_ctxs - 1];
  }
  if (max >= UINT32_MAX) return hpcdb_fail(HPCDB_EUNSUPPORTED, "context id %llu leaves no room for cct.db's u32 nCtxs", (unsigned long long)max);
  uint64_t recorded = recorded_contexts(exp);
  *n_ctxs = (uint32_t)(recorded > max + 1 ? recorded : max + 1);
  return 0;
}

typedef struct cct_writer {
  const hpctk4_cct_source *src;
  hpcdb_atomic_file *f;
  uint64_t *count;   /* values per context id */
  uint32_t *cursor;  /* per profile: next index into ctx_ids */
  entry *chunk;      /* the gathered values of one chunk */
  uint64_t chunk_cap;
  uint64_t *fill;    /* per context of the chunk: next free slot */
  uint8_t *infos;    /* the chunk's {CI} entries */
  uint8_t *out;      /* one block at a time */
  uint64_t out_cap;
  uint64_t *slot;    /* per metric id: count, then next position (0 between blocks) */
  uint16_t *metrics; /* the distinct metric ids of a block */
} cct_writer;

/* Gathers the values of contexts [c0, c1) from every non-summary profile. */
static void gather(cct_writer *w, uint32_t c0, uint32_t c1) {
  uint64_t at = 0;
  for (uint32_t c = c0; c < c1; c++) {
    w->fill[c - c0] = at;
    at += w->count[c];
  }
  for (uint32_t i = 0; i < w->src->n_profiles; i++) w->src->gather(w->src->ctx, i, &w->cursor[i], c0, c1, w->fill, w->chunk);
}

/* The experiment's profiles as the source of values. */
static void model_count(void *ctx, uint64_t *count) {
  const hpcdb_experiment *exp = ctx;
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    if (is_summary(p)) continue;
    for (uint32_t k = 0; k < p->n_ctxs; k++) count[p->ctx_ids[k]] += p->ctx_starts[k + 1] - p->ctx_starts[k];
  }
}

static void model_gather(void *ctx, uint32_t i, uint32_t *cursor, uint32_t c0, uint32_t c1, uint64_t *fill,
                         entry *chunk) {
  const hpcdb_profile *p = &((const hpcdb_experiment *)ctx)->profiles[i];
  if (is_summary(p)) return;
  uint32_t k = *cursor;
  for (; k < p->n_ctxs && p->ctx_ids[k] < c1; k++) {
    uint64_t *slot = &fill[p->ctx_ids[k] - c0];
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++)
      chunk[(*slot)++] = (entry){i, p->metric_ids[v], p->values[v]};
  }
  *cursor = k;
}

static int out_reserve(cct_writer *w, uint64_t n) {
  if (n <= w->out_cap) return 0;
  if (n > SIZE_MAX) return hpcdb_fail(HPCDB_ENOMEM, "cct.db block of %llu bytes", (unsigned long long)n);
  uint8_t *p = realloc(w->out, (size_t)n);
  if (!p) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a cct.db block of %llu bytes", (unsigned long long)n);
  w->out = p;
  w->out_cap = n;
  return 0;
}

static int u16_cmp(const void *a, const void *b) {
  uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
  return (x > y) - (x < y);
}

/* Writes one context's block and fills its {CI}. The entries arrive in
 * profile order (gather visits profiles in turn), so a stable counting sort
 * by metric gives the (metric, profile) order the format wants in O(n). */
static int write_block(cct_writer *w, entry *e, uint64_t n, uint8_t *ci) {
  HPCDB_TRY(atomic_file_pad(w->f, 4));
  uint32_t n_metrics = 0;
  for (uint64_t v = 0; v < n; v++)
    if (w->slot[e[v].metric]++ == 0) w->metrics[n_metrics++] = e[v].metric;
  if (n_metrics > UINT16_MAX) {
    for (uint32_t m = 0; m < n_metrics; m++) w->slot[w->metrics[m]] = 0;
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "a context has values of 65536 metrics (u16 nMetrics)");
  }
  if (n_metrics > 16) {
    qsort(w->metrics, n_metrics, sizeof *w->metrics, u16_cmp);
  } else { /* the usual few distinct metrics: insertion sort */
    for (uint32_t i = 1; i < n_metrics; i++)
      for (uint32_t k = i; k > 0 && w->metrics[k - 1] > w->metrics[k]; k--) {
        uint16_t t = w->metrics[k];
        w->metrics[k] = w->metrics[k - 1];
        w->metrics[k - 1] = t;
      }
  }
  uint64_t start = w->f->written;
  HPCDB_TRY(out_reserve(w, SZ_VAL * n + SZ_IDX * (uint64_t)n_metrics));
  uint8_t *vals = w->out, *idx = w->out + SZ_VAL * n;
  uint64_t at = 0;
  for (uint32_t m = 0; m < n_metrics; m++) { /* slot[metric]: from a count to the next position */
    uint64_t c = w->slot[w->metrics[m]];
    wr_le16(idx + SZ_IDX * (uint64_t)m, w->metrics[m]);
    wr_le64(idx + SZ_IDX * (uint64_t)m + 2, at);
    w->slot[w->metrics[m]] = at;
    at += c;
  }
  for (uint64_t v = 0; v < n; v++) {
    uint64_t pos = w->slot[e[v].metric]++;
    wr_le32(vals + SZ_VAL * pos, e[v].prof);
    wr_le_f64(vals + SZ_VAL * pos + 4, e[v].value);
  }
  for (uint32_t m = 0; m < n_metrics; m++) w->slot[w->metrics[m]] = 0;
  wr_le64(ci + 0x00, n);
  wr_le64(ci + 0x08, start);
  wr_le16(ci + 0x10, (uint16_t)n_metrics);
  wr_le64(ci + 0x18, start + SZ_VAL * n);
  return atomic_file_write(w->f, w->out, (size_t)(SZ_VAL * n + SZ_IDX * (uint64_t)n_metrics));
}

static int write_blocks(cct_writer *w, uint32_t n_ctxs, uint64_t infos_at, uint64_t chunk_values) {
  for (uint32_t c0 = 0; c0 < n_ctxs;) {
    uint32_t c1 = c0 + 1;
    uint64_t total = w->count[c0];
    while (c1 < n_ctxs && c1 - c0 < MAX_CHUNK_CTXS && total + w->count[c1] <= chunk_values) total += w->count[c1++];
    if (total > w->chunk_cap || !w->chunk) {
      free(w->chunk);
      w->chunk_cap = total ? total : 1;
      w->chunk = w->chunk_cap <= SIZE_MAX / sizeof *w->chunk ? malloc((size_t)w->chunk_cap * sizeof *w->chunk) : NULL;
      if (!w->chunk) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)total);
    }
    gather(w, c0, c1);
    memset(w->infos, 0, (size_t)(c1 - c0) * SZ_CI);
    uint64_t at = 0;
    for (uint32_t c = c0; c < c1; c++) {
      HPCDB_TRY(write_block(w, w->chunk + at, w->count[c], w->infos + SZ_CI * (uint64_t)(c - c0)));
      at += w->count[c];
    }
    HPCDB_TRY(atomic_file_pwrite(w->f, infos_at + SZ_CI * (uint64_t)c0, w->infos, (size_t)(c1 - c0) * SZ_CI));
    c0 = c1;
  }
  return 0;
}

static int write_all(cct_writer *w, uint32_t n_ctxs, uint64_t chunk_values) {
  uint8_t head[HPCTK4_HEADER_SIZE(1) + 16] = {0};
  uint64_t section = HPCTK4_HEADER_SIZE(1), infos_at = section + 16, total;
  hpctk4_write_header(head, "ctxt");
  hpctk4_set_section(head, 0, 16 + SZ_CI * (uint64_t)n_ctxs, section);
  wr_le64(head + section, infos_at);
  wr_le32(head + section + 8, n_ctxs);
  head[section + 12] = SZ_CI;
  HPCDB_TRY(atomic_file_write(w->f, head, sizeof head));
  if (!mul_ok(SZ_CI, n_ctxs, &total)) return hpcdb_fail(HPCDB_ENOMEM, "too many contexts");
  static const uint8_t zeros[4096];
  for (uint64_t left = total; left > 0;) { /* placeholders, patched chunk by chunk */
    size_t n = left > sizeof zeros ? sizeof zeros : (size_t)left;
    HPCDB_TRY(atomic_file_write(w->f, zeros, n));
    left -= n;
  }
  HPCDB_TRY(write_blocks(w, n_ctxs, infos_at, chunk_values));
  HPCDB_TRY(atomic_file_pad(w->f, 8));
  return atomic_file_write(w->f, "__ctx.db", 8);
}

static int run(cct_writer *w, uint32_t n_ctxs, const char *path, uint64_t chunk_values) {
  uint32_t chunk_ctxs = n_ctxs < MAX_CHUNK_CTXS ? n_ctxs : MAX_CHUNK_CTXS;
  w->count = calloc(n_ctxs ? n_ctxs : 1, sizeof *w->count);
  w->cursor = calloc(w->src->n_profiles ? w->src->n_profiles : 1, sizeof *w->cursor);
  w->fill = malloc(((size_t)chunk_ctxs + 1) * sizeof *w->fill);
  w->infos = malloc(((size_t)chunk_ctxs + 1) * SZ_CI);
  w->slot = calloc((size_t)UINT16_MAX + 1, sizeof *w->slot);
  w->metrics = malloc(((size_t)UINT16_MAX + 1) * sizeof *w->metrics);
  if (!w->count || !w->cursor || !w->fill || !w->infos || !w->slot || !w->metrics)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", n_ctxs);
  w->src->count(w->src->ctx, w->count);
  hpcdb_atomic_file f;
  HPCDB_TRY(atomic_file_open(&f, path));
  w->f = &f;
  int rc = write_all(w, n_ctxs, chunk_values);
  if (rc == 0) return atomic_file_commit(&f);
  atomic_file_abort(&f);
  return rc;
}

int hpctk4_write_cct_from(const hpctk4_cct_source *src, uint32_t n_ctxs, const char *path, uint64_t chunk_values) {
  cct_writer w = {0};
  w.src = src;
  int rc = run(&w, n_ctxs, path, chunk_values ? chunk_values : HPCTK4_CCT_DEFAULT_CHUNK);
  free(w.count);
  free(w.cursor);
  free(w.chunk);
  free(w.fill);
  free(w.infos);
  free(w.out);
  free(w.slot);
  free(w.metrics);
  return rc;
}

int hpctk4_write_cct(const hpcdb_experiment *exp, const char *path, uint64_t chunk_values) {
  uint32_t n_ctxs;
  HPCDB_TRY(hpctk4_cct_context_count(exp, &n_ctxs));
  hpctk4_cct_source src = {exp->n_profiles, (void *)exp, model_count, model_gather};
  return hpctk4_write_cct_from(&src, n_ctxs, path, chunk_values);
}
