/* SPDX-License-Identifier: BSD-3-Clause */
/* cct.db: the transpose of the non-summary profiles. Header, Context Info
 * section (one {CI} per context id 0..max), then one block per context in id
 * order: (profIndex, value) pairs sorted by metric then profile at a 4-byte
 * boundary, the metric indices right after them.
 *
 * Memory stays bounded however large the database: one pass counts the
 * values of each context; then contexts are taken in chunks holding at most
 * chunk_values values (divided among the threads), gathered from every
 * profile, sorted and encoded into one buffer, and written. Chunks do not depend on each other until they are
 * written, so with more than one thread each thread takes the next chunk and
 * they are written in order (a chunk starts at a 4-byte boundary and its
 * offsets are relative until then): the file is the same whatever the number
 * of threads. The chunk's {CI} entries are patched in place at the start of
 * the file. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomic_file.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/pool.h"
#include "hpctk4/hpctk4_write.h"

#define SZ_CI 32
#define SZ_VAL 12
#define SZ_IDX 10
#define MAX_CHUNK_CTXS (1u << 20)
#define MAX_THREADS 8
/* A chunk's {CI} patch ends on a multiple of this (a page, see write_chunk). */
#define CI_PATCH_ALIGN 4096u

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
  if (max >= UINT32_MAX)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "context id %llu leaves no room for cct.db's u32 nCtxs",
                      (unsigned long long)max);
  uint64_t recorded = recorded_contexts(exp);
  *n_ctxs = (uint32_t)(recorded > max + 1 ? recorded : max + 1);
  return 0;
}

/* The experiment's profiles as the source of values (the source's context is
 * mutable for other sources: the experiment is held by a model_source). */
typedef struct model_source {
  const hpcdb_experiment *exp;
} model_source;

static int model_count(void *ctx, uint64_t *count) {
  const hpcdb_experiment *exp = ((const model_source *)ctx)->exp;
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    const hpcdb_profile *p = &exp->profiles[i];
    if (is_summary(p)) continue;
    for (uint32_t k = 0; k < p->n_ctxs; k++) count[p->ctx_ids[k]] += p->ctx_starts[k + 1] - p->ctx_starts[k];
  }
  return 0;
}

static int model_gather(void *ctx, uint32_t i, uint32_t c0, uint32_t c1, uint64_t *fill, entry *chunk,
                        hpctk4_read_buf *buf) {
  (void)buf; /* the values are in memory */
  const hpcdb_profile *p = &((const model_source *)ctx)->exp->profiles[i];
  if (is_summary(p)) return 0;
  uint32_t lo = 0, hi = p->n_ctxs; /* the first context >= c0 */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (p->ctx_ids[mid] < c0) lo = mid + 1;
    else hi = mid;
  }
  for (uint32_t k = lo; k < p->n_ctxs && p->ctx_ids[k] < c1; k++) {
    uint64_t *slot = &fill[p->ctx_ids[k] - c0];
    for (uint64_t v = p->ctx_starts[k]; v < p->ctx_starts[k + 1]; v++)
      chunk[(*slot)++] = (entry){i, p->metric_ids[v], p->values[v]};
  }
  return 0;
}

/* One thread's room for a chunk: its gathered values, their encoding, its {CI}s. */
typedef struct chunk_buf {
  uint32_t c0, c1;
  entry *values;
  uint64_t values_cap;
  uint64_t *fill; /* per context of the chunk: next free slot */
  uint8_t *infos; /* the chunk's {CI} entries, offsets relative to the chunk; then room for zeros to a page boundary */
  uint8_t *out;   /* the chunk's blocks */
  uint64_t out_len, out_cap;
  uint64_t *slot;       /* per metric id: count, then next position (0 between blocks) */
  uint16_t *metrics;    /* the distinct metric ids of a block */
  hpctk4_read_buf read; /* the source's */
} chunk_buf;

typedef struct cct_writer {
  const hpctk4_cct_source *src;
  hpcdb_atomic_file *f;
  uint32_t n_ctxs;
  uint64_t infos_at, chunk_values;
  uint64_t *count; /* values per context id */
  pthread_mutex_t lock;
  pthread_cond_t turn_done;
  uint32_t next_c0;         /* the first context no thread has taken yet */
  uint64_t next_turn, turn; /* chunk sequence numbers: handed out, written */
  int rc;                   /* the first failure, and its message (errors are per thread) */
  char error[1024];
} cct_writer;

static int buf_init(chunk_buf *b, uint32_t chunk_ctxs) {
  memset(b, 0, sizeof *b);
  b->fill = malloc(((size_t)chunk_ctxs + 1) * sizeof *b->fill);
  b->infos = malloc(((size_t)chunk_ctxs + 1) * SZ_CI + CI_PATCH_ALIGN);
  b->slot = calloc((size_t)UINT16_MAX + 1, sizeof *b->slot);
  b->metrics = malloc(((size_t)UINT16_MAX + 1) * sizeof *b->metrics);
  return b->fill && b->infos && b->slot && b->metrics ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory writing cct.db");
}

static void buf_free(chunk_buf *b) {
  free(b->values);
  free(b->fill);
  free(b->infos);
  free(b->out);
  free(b->slot);
  free(b->metrics);
  free(b->read.data);
}

static int out_reserve(chunk_buf *b, uint64_t more) {
  uint64_t n = 0;
  if (!add_ok(b->out_len, more, &n) || n > SIZE_MAX)
    return hpcdb_fail(HPCDB_ENOMEM, "cct.db chunk of more than %llu bytes", (unsigned long long)b->out_len);
  if (n <= b->out_cap && b->out) return 0;
  uint64_t cap = b->out_cap ? b->out_cap : 1 << 16;
  while (cap < n) cap = cap > SIZE_MAX / 2 ? n : cap * 2;
  uint8_t *p = realloc(b->out, (size_t)cap);
  if (!p) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a cct.db chunk of %llu bytes", (unsigned long long)cap);
  b->out = p;
  b->out_cap = cap;
  return 0;
}

static int u16_cmp(const void *a, const void *b) {
  uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
  return (x > y) - (x < y);
}

/* Encodes one context's block (after padding to 4 bytes) and fills its {CI}.
 * The entries arrive in profile order (profiles are gathered in turn), so a
 * stable counting sort by metric gives the (metric, profile) order the format
 * wants in O(n). */
static int encode_block(chunk_buf *b, const entry *e, uint64_t n, uint8_t *ci) {
  uint32_t n_metrics = 0;
  for (uint64_t v = 0; v < n; v++)
    if (b->slot[e[v].metric]++ == 0) b->metrics[n_metrics++] = e[v].metric;
  if (n_metrics > UINT16_MAX) {
    for (uint32_t m = 0; m < n_metrics; m++) b->slot[b->metrics[m]] = 0;
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "a context has values of 65536 metrics (u16 nMetrics)");
  }
  if (n_metrics > 16) {
    qsort(b->metrics, n_metrics, sizeof *b->metrics, u16_cmp);
  } else { /* the usual few distinct metrics: insertion sort */
    for (uint32_t i = 1; i < n_metrics; i++)
      for (uint32_t k = i; k > 0 && b->metrics[k - 1] > b->metrics[k]; k--) {
        uint16_t t = b->metrics[k];
        b->metrics[k] = b->metrics[k - 1];
        b->metrics[k - 1] = t;
      }
  }
  uint64_t start = (b->out_len + 3) / 4 * 4;
  HPCDB_TRY(out_reserve(b, start - b->out_len + SZ_VAL * n + SZ_IDX * (uint64_t)n_metrics));
  memset(b->out + b->out_len, 0, (size_t)(start - b->out_len));
  uint8_t *vals = b->out + start, *idx = vals + SZ_VAL * n;
  uint64_t at = 0;
  for (uint32_t m = 0; m < n_metrics; m++) { /* slot[metric]: from a count to the next position */
    uint64_t c = b->slot[b->metrics[m]];
    wr_le16(idx + SZ_IDX * (uint64_t)m, b->metrics[m]);
    wr_le64(idx + SZ_IDX * (uint64_t)m + 2, at);
    b->slot[b->metrics[m]] = at;
    at += c;
  }
  for (uint64_t v = 0; v < n; v++) {
    uint8_t *q = vals + SZ_VAL * b->slot[e[v].metric]++;
    wr_le32(q, e[v].profile);
    wr_le_f64(q + 4, e[v].value);
  }
  for (uint32_t m = 0; m < n_metrics; m++) b->slot[b->metrics[m]] = 0;
  wr_le64(ci + 0x00, n);
  wr_le64(ci + 0x08, start);
  wr_le16(ci + 0x10, (uint16_t)n_metrics);
  wr_le64(ci + 0x18, start + SZ_VAL * n);
  b->out_len = start + SZ_VAL * n + SZ_IDX * (uint64_t)n_metrics;
  return 0;
}

/* Gathers and encodes the contexts [c0, c1) into b. */
static int make_chunk(const cct_writer *w, chunk_buf *b, uint32_t c0, uint32_t c1) {
  uint64_t total = 0;
  for (uint32_t c = c0; c < c1; c++) {
    b->fill[c - c0] = total;
    total += w->count[c];
  }
  if (total > b->values_cap || !b->values) {
    free(b->values);
    b->values_cap = total ? total : 1;
    b->values =
        b->values_cap <= SIZE_MAX / sizeof *b->values ? malloc((size_t)b->values_cap * sizeof *b->values) : NULL;
    if (!b->values) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %llu values", (unsigned long long)total);
  }
  for (uint32_t i = 0; i < w->src->n_profiles; i++)
    HPCDB_TRY(w->src->gather(w->src->ctx, i, c0, c1, b->fill, b->values, &b->read));
  b->c0 = c0;
  b->c1 = c1;
  b->out_len = 0;
  memset(b->infos, 0, (size_t)(c1 - c0) * SZ_CI);
  uint64_t at = 0;
  for (uint32_t c = c0; c < c1; c++) {
    HPCDB_TRY(encode_block(b, b->values + at, w->count[c], b->infos + SZ_CI * (uint64_t)(c - c0)));
    at += w->count[c];
  }
  return 0;
}

/* Appends the chunk at the next 4-byte boundary and patches its {CI}s; the
 * source visits its contexts. */
static int write_chunk(cct_writer *w, chunk_buf *b) {
  if (w->src->visit) {
    uint64_t at = 0;
    for (uint32_t c = b->c0; c < b->c1; at += w->count[c++])
      if (w->count[c]) HPCDB_TRY(w->src->visit(w->src->ctx, c, b->values + at, w->count[c]));
  }
  HPCDB_TRY(atomic_file_pad(w->f, 4));
  uint64_t base = w->f->written;
  for (uint32_t c = b->c0; c < b->c1; c++) {
    uint8_t *ci = b->infos + SZ_CI * (uint64_t)(c - b->c0);
    wr_le64(ci + 0x08, rd_le64(ci + 0x08) + base);
    wr_le64(ci + 0x18, rd_le64(ci + 0x18) + base);
  }
  HPCDB_TRY(atomic_file_write(w->f, b->out, (size_t)b->out_len));
  /* on to a page boundary through the zeros of the later chunks' {CI}s (the
   * previous chunk's patch ended there too): a direct file then has no page
   * it must read back from the disk to patch it, a read that waits behind
   * other files' fsyncs */
  uint64_t from = w->infos_at + SZ_CI * (uint64_t)b->c0, end = from + SZ_CI * (uint64_t)(b->c1 - b->c0);
  uint64_t region_end = w->infos_at + SZ_CI * (uint64_t)w->n_ctxs;
  uint64_t to = (end + CI_PATCH_ALIGN - 1) / CI_PATCH_ALIGN * CI_PATCH_ALIGN;
  if (to > region_end) to = region_end;
  memset(b->infos + (end - from), 0, (size_t)(to - end));
  return atomic_file_pwrite(w->f, from, b->infos, (size_t)(to - from));
}

/* The next chunk's contexts, under the lock: as many as fit chunk_values. */
static int take_chunk(cct_writer *w, uint32_t *c0, uint32_t *c1, uint64_t *turn) {
  if (w->rc < 0 || w->next_c0 >= w->n_ctxs) return 0;
  uint32_t a = w->next_c0, z = a + 1;
  uint64_t total = w->count[a];
  while (z < w->n_ctxs && z - a < MAX_CHUNK_CTXS && total + w->count[z] <= w->chunk_values) total += w->count[z++];
  *c0 = a;
  *c1 = z;
  *turn = w->next_turn++;
  w->next_c0 = z;
  return 1;
}

/* One thread's loop: take a chunk, make it, wait for its turn, write it. */
static void work(cct_writer *w, chunk_buf *b) {
  pthread_mutex_lock(&w->lock);
  for (;;) {
    uint32_t c0, c1;
    uint64_t turn;
    if (!take_chunk(w, &c0, &c1, &turn)) break;
    pthread_mutex_unlock(&w->lock);
    int rc = make_chunk(w, b, c0, c1);
    pthread_mutex_lock(&w->lock);
    while (w->turn != turn && w->rc == 0) pthread_cond_wait(&w->turn_done, &w->lock);
    if (rc == 0 && w->rc == 0) rc = write_chunk(w, b); /* the file is this thread's during its turn */
    if (rc < 0 && w->rc == 0) {
      w->rc = rc;
      snprintf(w->error, sizeof w->error, "%s", hpcdb_last_error());
    }
    w->turn++;
    pthread_cond_broadcast(&w->turn_done);
  }
  pthread_mutex_unlock(&w->lock);
}

typedef struct blocks_job {
  cct_writer *w;
  uint32_t chunk_ctxs;
  chunk_buf own; /* the caller's, made before any thread starts */
} blocks_job;

static void blocks_worker(void *arg, unsigned t) {
  blocks_job *j = arg;
  if (t == 0) {
    work(j->w, &j->own);
    return;
  }
  chunk_buf b;
  if (buf_init(&b, j->chunk_ctxs) == 0) work(j->w, &b); /* without its buffer a thread leaves it to the others */
  buf_free(&b);
}

static int write_blocks(cct_writer *w, unsigned threads, uint32_t chunk_ctxs) {
  blocks_job j = {w, chunk_ctxs, {0}};
  int rc = buf_init(&j.own, chunk_ctxs);
  if (rc == 0) pool_run(threads < MAX_THREADS ? threads : MAX_THREADS, blocks_worker, &j);
  buf_free(&j.own);
  if (rc < 0) return rc;
  return w->rc < 0 ? hpcdb_fail(w->rc, "%s", w->error) : 0;
}

void hpctk4_cct_header(uint8_t head[HPCTK4_CCT_HEAD], uint32_t n_ctxs) {
  uint64_t section = HPCTK4_HEADER_SIZE(1);
  memset(head, 0, HPCTK4_CCT_HEAD);
  hpctk4_write_header(head, "ctxt");
  hpctk4_set_section(head, 0, 16 + SZ_CI * (uint64_t)n_ctxs, section);
  wr_le64(head + section, HPCTK4_CCT_HEAD);
  wr_le32(head + section + 8, n_ctxs);
  head[section + 12] = SZ_CI;
}

int hpctk4_cct_encode(const hpctk4_cct_entry *e, const uint64_t *count, uint32_t n, hpctk4_wbuf *out, uint8_t *infos) {
  chunk_buf b;
  int rc = buf_init(&b, 1);
  memset(infos, 0, (size_t)n * SZ_CI);
  uint64_t at = 0;
  for (uint32_t k = 0; k < n && rc == 0; at += count[k++])
    rc = encode_block(&b, e + at, count[k], infos + SZ_CI * (uint64_t)k);
  if (rc == 0) {
    *out = (hpctk4_wbuf){b.out, b.out_len, b.out_cap};
    b.out = NULL;
  }
  buf_free(&b);
  return rc;
}

static int write_all(cct_writer *w, unsigned threads, uint32_t chunk_ctxs) {
  uint8_t head[HPCTK4_CCT_HEAD];
  uint64_t total;
  w->infos_at = HPCTK4_CCT_HEAD;
  hpctk4_cct_header(head, w->n_ctxs);
  HPCDB_TRY(atomic_file_write(w->f, head, sizeof head));
  if (!mul_ok(SZ_CI, w->n_ctxs, &total)) return hpcdb_fail(HPCDB_ENOMEM, "too many contexts");
  static const uint8_t zeros[4096];
  for (uint64_t left = total; left > 0;) { /* placeholders, patched chunk by chunk */
    size_t n = left > sizeof zeros ? sizeof zeros : (size_t)left;
    HPCDB_TRY(atomic_file_write(w->f, zeros, n));
    left -= n;
  }
  HPCDB_TRY(write_blocks(w, threads, chunk_ctxs));
  HPCDB_TRY(atomic_file_pad(w->f, 8));
  return atomic_file_write(w->f, "__ctx.db", 8);
}

int hpctk4_write_cct_from(const hpctk4_cct_source *src, uint32_t n_ctxs, const char *path, uint64_t chunk_values,
                          unsigned threads) {
  cct_writer w = {0};
  w.src = src;
  w.n_ctxs = n_ctxs;
  threads = threads ? threads : 1;
  w.chunk_values = chunk_values ? chunk_values : HPCTK4_CCT_DEFAULT_CHUNK;
  if (threads > 1) /* the threads share the memory one would have */
    w.chunk_values = w.chunk_values / threads ? w.chunk_values / threads : 1;
  w.count = calloc(n_ctxs ? n_ctxs : 1, sizeof *w.count);
  if (!w.count) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", n_ctxs);
  int rc = src->count(src->ctx, w.count);
  if (rc < 0) {
    free(w.count);
    return rc;
  }
  pthread_mutex_init(&w.lock, NULL);
  pthread_cond_init(&w.turn_done, NULL);
  hpcdb_atomic_file f;
  /* direct: the largest file of a database goes to the disk without a copy in
   * the page cache (fresh memory, expensive to touch in a VM); its {CI}
   * patches are a few pages per chunk */
  rc = atomic_file_open_direct(&f, path);
  if (rc == 0) {
    w.f = &f;
    rc = atomic_file_finish(&f, write_all(&w, threads, n_ctxs < MAX_CHUNK_CTXS ? n_ctxs : MAX_CHUNK_CTXS));
  }
  pthread_mutex_destroy(&w.lock);
  pthread_cond_destroy(&w.turn_done);
  free(w.count);
  return rc;
}

int hpctk4_write_cct_threads(const hpcdb_experiment *exp, const char *path, uint64_t chunk_values, unsigned threads) {
  uint32_t n_ctxs;
  HPCDB_TRY(hpctk4_cct_context_count(exp, &n_ctxs));
  model_source m = {exp};
  hpctk4_cct_source src = {exp->n_profiles, &m, model_count, model_gather, NULL};
  return hpctk4_write_cct_from(&src, n_ctxs, path, chunk_values, threads);
}

int hpctk4_write_cct(const hpcdb_experiment *exp, const char *path, uint64_t chunk_values) {
  return hpctk4_write_cct_threads(exp, path, chunk_values, 1);
}
