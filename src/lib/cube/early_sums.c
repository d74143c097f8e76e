/* SPDX-License-Identifier: BSD-3-Clause */
/* The sums of a plain tar's metrics started before anchor.xml is parsed.
 * Parsing the anchor (expat) takes about as long as summing the data
 * members, and only the cnode tree of the anchor is needed to sum them: a
 * helper thread takes the tree from the anchor's bytes (tree_scan.c), then
 * sums each metric as cube_sum_pass does for a DOUBLE metric stored
 * inclusive, guessing what the anchor will say (8-byte values, the location
 * count from the member sizes; no cnode an entry point, each root's rows
 * kept so that the reader can make some of them entry points after; each
 * location's exclusive values summed without the roots'). Once
 * the anchor is parsed the reader marks the metrics it does not want,
 * helps with the rest, and uses a metric's sums only where its tree is the
 * scanned one and its guesses were right; anything else is read as before. */
#include "cube/early_sums.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/worker.h"

enum { PENDING, TAKEN, SKIPPED }; /* cube_early_metric.state */

/* Roots whose rows are kept; a forest of more is not summed early. */
#define MAX_ROOTS 64u

static int claim(cube_early_metric *m) {
  int pending = PENDING;
  return atomic_compare_exchange_strong(&m->state, &pending, TAKEN);
}

/* A metric's result arrays for nl locations (exc_totals only when wanted): 1, or 0 without memory. */
static int alloc_sums(const cube_early *e, cube_early_metric *m, uint64_t nl) {
  uint32_t nc = e->n_cnodes;
  m->exc = malloc(((size_t)nc + 1) * sizeof *m->exc);
  m->inc = malloc(((size_t)nc + 1) * sizeof *m->inc);
  m->counts = calloc(nl, sizeof *m->counts);
  m->root_inc = malloc(nl * (e->n_roots + 1) * sizeof *m->root_inc);
  m->root_exc = malloc(nl * (e->n_roots + 1) * sizeof *m->root_exc);
  if (e->totals) m->exc_totals = calloc(nl, sizeof *m->exc_totals);
  return m->exc && m->inc && m->counts && m->root_inc && m->root_exc && (!e->totals || m->exc_totals);
}

static void free_sums(cube_early_metric *m) {
  free(m->exc), free(m->inc), free(m->counts), free(m->root_inc), free(m->root_exc), free(m->exc_totals);
  m->exc = m->inc = m->root_inc = m->root_exc = m->exc_totals = NULL;
  m->counts = NULL;
}

/* Streamed (sum_stream.c) when no per-location totals are wanted and the
 * rows lie in storage order: 1 when summed. The index is small: mapped. */
static int stream_metric(const cube_early *e, cube_early_metric *m) {
  uint32_t nc = e->n_cnodes;
  cube_member_view ix = {0};
  cube_values v = {0};
  uint8_t magic[10];
  int ok = 0;
  if (e->totals || m->dt->size < 10 || !cube_member_read(e->x, m->dt->offset, magic, sizeof magic) ||
      memcmp(magic, "CUBEX.DATA", 10) != 0 || cube_member_view_open(e->x, m->ix->offset, m->ix->size, &ix) != 1 ||
      cube_index_parse(&v, ix.data, ix.len, nc, e->path) < 0 || v.n_rows == 0)
    goto done;
  uint64_t nl = (m->dt->size - 10) / 8 / v.n_rows; /* the most locations the data holds */
  if (nl == 0 || nl > UINT32_MAX / 8 || !alloc_sums(e, m, nl)) goto done;
  cube_stream_tree t = {nc, (uint32_t)nl, e->parent, e->kids_at, e->order, e->pos, e->roots, e->n_roots};
  cube_stream_rows rows = {e->x, m->dt->offset + 10, v.n_rows, v.row_pos, v.big_endian != cube_native_big_endian()};
  cube_stream_sums out = {m->exc, m->inc, m->counts, m->root_inc, m->root_exc};
  ok = cube_sum_stream(&t, &rows, &out);
  if (ok) m->n_locations = (uint32_t)nl, m->ok = 1;
  else free_sums(m);
done:
  cube_values_free(&v);
  cube_member_view_close(&ix);
  return ok;
}

/* One metric's sums, as cube_sum_pass makes them, into m; nothing (m->ok 0)
 * where a guess fails. Its own scratch, so that two threads can sum at once. */
static void sum_metric(const cube_early *e, cube_early_metric *m) {
  if (stream_metric(e, m)) return;
  uint32_t nc = e->n_cnodes;
  cube_member_view ix = {0}, dt = {0};
  cube_values v = {0};
  const uint8_t **rows = malloc(((size_t)nc + 1) * sizeof *rows);
  double *zero = NULL, *scratch = NULL;
  if (!rows || cube_member_view_open(e->x, m->ix->offset, m->ix->size, &ix) != 1 ||
      cube_member_view_open(e->x, m->dt->offset, m->dt->size, &dt) != 1 || dt.len < 10 ||
      memcmp(dt.data, "CUBEX.DATA", 10) != 0 || cube_index_parse(&v, ix.data, ix.len, nc, e->path) < 0 || v.n_rows == 0)
    goto done;
  uint64_t nl = (dt.len - 10) / 8 / v.n_rows; /* the most locations the data holds */
  cube_values_free(&v);
  if (nl == 0 || nl > UINT32_MAX / CUBE_SUM_PASS_ROWS ||
      cube_values_decode(&v, ix.data, ix.len, dt.data, dt.len, 8, (uint32_t)nl, nc, e->path, "") < 0)
    goto done;
  zero = calloc(nl, sizeof *zero);
  scratch = malloc(nl * CUBE_SUM_PASS_ROWS * sizeof *scratch);
  if (!zero || !scratch || !alloc_sums(e, m, nl)) goto done;
  for (uint32_t c = 0; c < nc; c++) rows[c] = (const uint8_t *)zero;
  for (uint32_t k = 0; k < v.n_rows; k++) rows[e->order[v.row_pos[k]]] = v.data + (size_t)k * nl * 8;
  cube_sum_tree t = {nc, (uint32_t)nl, e->kids_at, e->kids, e->no_entries, 1, m->exc_totals, e->is_root};
  cube_sum_pass(&t, rows, v.big_endian, scratch, m->exc, m->inc, m->counts);
  for (uint32_t i = 0; i < e->n_roots; i++)
    cube_sum_rows_of(&t, rows, v.big_endian, e->roots[i], m->root_inc + i * nl, m->root_exc + i * nl);
  m->n_locations = (uint32_t)nl;
  m->ok = 1;
done:
  cube_values_free(&v);
  cube_member_view_close(&ix);
  cube_member_view_close(&dt);
  free(rows);
  free(zero);
  free(scratch);
}

/* Takes pending metrics in archive order until none is left. */
static void sum_pending(cube_early *e) {
  for (uint32_t i = 0; i < e->n_metrics && !atomic_load(&e->stop); i++)
    if (claim(&e->metrics[i])) sum_metric(e, &e->metrics[i]);
}

/* m skipped when the anchor names it, and not as one of e->names. */
static void skip_unnamed(cube_early *e, cube_early_metric *m, const uint8_t *xml, size_t len) {
  unsigned long id;
  char *name = cube_member_metric_id(m->dt->name, ".data", &id) ? cube_scan_metric_name(xml, len, id) : NULL;
  int wanted = !name;
  for (uint32_t k = 0; name && k < e->n_names; k++) wanted |= e->names[k] && !strcmp(e->names[k], name);
  if (!wanted) cube_early_skip(m);
  free(name);
}

/* The tree from the anchor's bytes, its children lists, the metrics' row
 * order and its roots: 1, or 0 when there is none to use. */
static int scan_tree(cube_early *e) {
  cube_member_view anchor;
  if (cube_member_view_open(e->x, e->anchor->offset, e->anchor->size, &anchor) != 1) return 0;
  int ok = cube_scan_cnode_tree(anchor.data, anchor.len, &e->parent, &e->n_cnodes) && e->n_cnodes > 0;
  for (uint32_t i = 0; ok && e->n_names && i < e->n_metrics; i++) /* skip what is plainly another metric */
    skip_unnamed(e, &e->metrics[i], anchor.data, anchor.len);
  cube_member_view_close(&anchor);
  uint32_t nc = e->n_cnodes;
  ok = ok && (e->kids_at = malloc(((size_t)nc + 2) * sizeof *e->kids_at)) != NULL &&
       (e->kids = malloc(((size_t)nc + 1) * sizeof *e->kids)) != NULL &&
       (e->order = malloc(((size_t)nc + 1) * sizeof *e->order)) != NULL &&
       (e->pos = malloc(((size_t)nc + 1) * sizeof *e->pos)) != NULL &&
       (e->no_entries = calloc((size_t)nc + 1, 1)) != NULL && (e->is_root = calloc((size_t)nc + 1, 1)) != NULL &&
       (e->roots = malloc(MAX_ROOTS * sizeof *e->roots)) != NULL &&
       cube_children(nc, e->parent, e->kids_at, e->kids) == 0 &&
       cube_inclusive_order(nc, e->parent, e->kids_at, e->kids, e->order) == 0;
  for (uint32_t p = 0; ok && p < nc; p++) e->pos[e->order[p]] = p;
  for (uint32_t c = 0; ok && c < nc; c++)
    if (e->parent[c] == UINT32_MAX) {
      ok = e->n_roots < MAX_ROOTS;
      if (ok) e->roots[e->n_roots++] = c, e->is_root[c] = 1;
    }
  return ok;
}

static void *helper(void *arg) {
  cube_early *e = arg;
  int scanned = scan_tree(e);
  pthread_mutex_lock(&e->lock);
  e->tree = scanned ? SCANNED : NO_TREE;
  pthread_cond_broadcast(&e->scanned);
  pthread_mutex_unlock(&e->lock);
  if (scanned) sum_pending(e);
  return NULL;
}

/* The first member named "<id><suffix>" whose id is `id`. */
static const cube_indexed_member *first_of(const cube_member_index *x, const char *suffix, unsigned long id) {
  unsigned long other;
  for (uint32_t i = 0; i < x->n; i++)
    if (cube_member_metric_id(x->members[i].name, suffix, &other) && other == id) return &x->members[i];
  return NULL;
}

void cube_early_start(cube_early *e, const cube_member_index *x, const char *path, const char *const *names,
                      uint32_t n_names, int totals) {
  memset(e, 0, sizeof *e);
  e->totals = totals;
  e->x = x;
  e->path = path;
  e->names = names, e->n_names = n_names;
  e->anchor = cube_member_find(x, "anchor.xml");
  if (!e->anchor || !(e->metrics = calloc((size_t)x->n + 1, sizeof *e->metrics))) return;
  for (uint32_t i = 0; i < x->n; i++) { /* each metric's first .data and first .index */
    unsigned long id;
    const cube_indexed_member *ix;
    if (!cube_member_metric_id(x->members[i].name, ".data", &id) || first_of(x, ".data", id) != &x->members[i] ||
        !(ix = first_of(x, ".index", id)))
      continue;
    cube_early_metric *m = &e->metrics[e->n_metrics++];
    m->ix = ix, m->dt = &x->members[i];
  }
  if (e->n_metrics == 0 || pthread_mutex_init(&e->lock, NULL) != 0) return;
  if (pthread_cond_init(&e->scanned, NULL) != 0) {
    pthread_mutex_destroy(&e->lock);
    return;
  }
  e->synced = 1;
  worker_start(&e->helper, 1, helper, e);
}

void cube_early_skip(cube_early_metric *m) {
  int pending = PENDING;
  atomic_compare_exchange_strong(&m->state, &pending, SKIPPED);
}

void cube_early_finish(cube_early *e, const uint32_t *parent, uint32_t n_cnodes) {
  if (!e->helper.started) return;
  pthread_mutex_lock(&e->lock); /* the scan is short: wait for the tree */
  while (e->tree == SCANNING) pthread_cond_wait(&e->scanned, &e->lock);
  pthread_mutex_unlock(&e->lock);
  e->verified =
      e->tree == SCANNED && e->n_cnodes == n_cnodes && !memcmp(e->parent, parent, (size_t)n_cnodes * sizeof *parent);
  if (e->verified) { /* a guess that fails sets this thread's message: the caller's is kept */
    char kept[1024];
    snprintf(kept, sizeof kept, "%s", hpcdb_last_error());
    sum_pending(e);
    hpcdb_fail(0, "%s", kept);
  } else {
    atomic_store(&e->stop, 1);
  }
  worker_join(&e->helper);
}

const cube_early_metric *cube_early_find(const cube_early *e, const cube_indexed_member *ix,
                                         const cube_indexed_member *dt) {
  for (uint32_t i = 0; e->verified && i < e->n_metrics; i++)
    if (e->metrics[i].ix == ix && e->metrics[i].dt == dt) return e->metrics[i].ok ? &e->metrics[i] : NULL;
  return NULL;
}

void cube_early_free(cube_early *e) {
  if (e->helper.started) { /* the reader failed before it finished them */
    atomic_store(&e->stop, 1);
    worker_join(&e->helper);
  }
  for (uint32_t i = 0; i < e->n_metrics; i++) {
    cube_early_metric *m = &e->metrics[i];
    free_sums(m);
  }
  if (e->synced) {
    pthread_cond_destroy(&e->scanned);
    pthread_mutex_destroy(&e->lock);
  }
  free(e->metrics);
  free(e->parent), free(e->kids_at), free(e->kids), free(e->order), free(e->pos), free(e->no_entries), free(e->is_root),
      free(e->roots);
  memset(e, 0, sizeof *e);
}
