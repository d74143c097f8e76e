/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_analyze: a measurements directory to the experiment hpcprof writes.
 * Files are taken in name order; each is unified into the tree, propagated,
 * registered as a profile, then written to profile.db by the writer (a
 * thread of its own with more than one worker, so the next files are
 * decoded and propagated meanwhile) and dropped. The summary is made at the
 * end from profile.db, context by context, while cct.db is written. Memory
 * holds the unified tree and a few files' values, not the input. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/structure_map.h"
#include "common/error.h"
#include "common/pool.h"
#include "common/vec.h"
#include "common/worker.h"
#include "hpcdb/analysis.h"
#include "hpcdb/common.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/hpctk4_write.h"
#include "hpcdb/model.h"
#include "hpcrun/hpcrun_paths.h"
#include "hpctk4/hpctk4_write.h"
#include "model/model_build.h"

#define MAX_WORKERS 64
/* .hpctrace header flag: the samples are of calls (GPU streams' kernels),
 * attributed to the frame's relation to its caller, as hpcprof does. */
#define HPCTRACE_FLAG_CALL_TRACE 0x4ull

static const char *const standard_kinds[] = {"SUMMARY",   "NODE",       "RANK",      "THREAD",
                                             "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"};

/* The tree, metric count and metric scopes as they were once a batch was
 * unified: what the batch's propagation reads, while (with several workers)
 * the next batch is unified. */
typedef struct prop_view {
  unified_tree tree; /* a copy: info and n_ids stay as they were */
  uint32_t n_metrics;
  uint8_t *scopes; /* per metric: the scopes it has */
  uint64_t cap_scopes;
} prop_view;

typedef struct run {
  hpcdb_experiment *exp;
  const hpcdb_analyze_options *opt;
  unified_tree tree;
  summary_acc summary;
  loop_lex_summary loops; /* the summary's lex_aware of loops */
  hpcdb_warning_fn warn;
  void *user;
  hpcdb_analyze_result *res;
  hpcdb_hpctk4_stream *stream; /* with options->output */
  int have_range;
  profile_writer *writer;     /* with options->output */
  propagate_scratch *scratch; /* per worker */
  prop_view view;
  unsigned workers;
  analysis_pass *pass;           /* the distributed analysis' first half (analysis_run_pass), else NULL */
  const analysis_values *values; /* its second half (analysis_run_values), else NULL */
  uint64_t n_files;              /* for options->progress */
} run;

static const char *pair_value(const hpcrun_nvlist *l, const char *name) {
  for (uint32_t i = 0; i < l->n; i++)
    if (strcmp(l->items[i].name.s, name) == 0) return l->items[i].value.s;
  return NULL;
}

/* Kind names up to kind: a file's dictionary's name, else the standard one. */
static int ensure_kind(run *r, const hpcrun_file *f, uint16_t kind) {
  while (r->exp->n_kind_names <= kind) {
    uint32_t k = r->exp->n_kind_names;
    const char *name = NULL;
    for (uint16_t i = 0; i < f->n_kinds && !name; i++)
      if ((f->kinds[i].kind & HPCRUN_KIND_MASK) == k) name = f->kinds[i].name.s;
    if (!name && k < 8) name = standard_kinds[k];
    char fallback[16];
    if (!name) {
      snprintf(fallback, sizeof fallback, "KIND%u", k);
      name = fallback;
    }
    HPCDB_TRY(hpcdb_add_kind_name(r->exp, name, NULL));
  }
  return 0;
}

/* 02.00/03.00 files have no id tuple: host-id (hex), mpi-rank, thread-id. */
static uint16_t header_identity(const hpcrun_file *f, hpcdb_id *ids) {
  static const struct {
    const char *pair;
    int base;
    uint16_t kind, flags;
  } parts[] = {{"host-id", 16, 1, HPCDB_ID_PHYSICAL}, {"mpi-rank", 10, 2, 0}, {"thread-id", 10, 3, 0}};
  uint16_t n = 0;
  for (int i = 0; i < 3; i++) {
    const char *s = pair_value(&f->header, parts[i].pair);
    char *end;
    if (!s || !*s) continue;
    unsigned long long v = strtoull(s, &end, parts[i].base);
    if (*end || (parts[i].kind != 1 && v > UINT32_MAX)) continue;
    ids[n++] = (hpcdb_id){parts[i].kind, parts[i].flags, parts[i].kind == 1 ? 0 : (uint32_t)v, v};
  }
  return n;
}

/* The thread's identity from its id tuple: the kind's top two bits say
 * whether the physical id means something; only "logical only" has none. */
static int add_profile(run *r, const hpcrun_file *f, uint32_t *out) {
  const hpcrun_sparse *sp = &f->sparse;
  uint16_t n = f->major == 4 ? sp->n_ids : 3;
  hpcdb_id *ids = calloc(n ? n : 1, sizeof *ids);
  if (!ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for an id tuple");
  if (f->major != 4) n = header_identity(f, ids);
  for (uint16_t i = 0; i < sp->n_ids && f->major == 4; i++) {
    const hpcrun_id_elem *e = &sp->ids[i];
    int interp = e->kind >> HPCRUN_KIND_INTERPRET_SHIFT;
    ids[i] = (hpcdb_id){e->kind & HPCRUN_KIND_MASK, interp != HPCRUN_IDS_LOGIC_ONLY ? HPCDB_ID_PHYSICAL : 0,
                        (uint32_t)e->logical, e->physical};
  }
  int rc = 0;
  for (uint16_t i = 0; i < n && rc == 0; i++) rc = ensure_kind(r, f, ids[i].kind);
  /* hpcprof's table is every kind of every file's dictionary, used or not
   * (sinks/metadb.cpp: the names of idtupleNames(), indexed by kind), so a
   * CPU-only run still names GPUSTREAM and CORE as hpcrun declares them. */
  for (uint16_t i = 0; i < f->n_kinds && rc == 0; i++) rc = ensure_kind(r, f, f->kinds[i].kind & HPCRUN_KIND_MASK);
  if (rc == 0) rc = hpcdb_add_profile(r->exp, 0, 1, ids, n, out);
  free(ids);
  return rc;
}

/* The thread's non-zero values in CSR form (built in the parallel stage):
 * contexts ascending, prop metric ids (metric × 4 + scope) ascending. Only
 * the ids of shown scopes are looked at, and each is stored without a
 * branch (the next one overwrites it when it is zero): which values are zero
 * follows no pattern a branch predictor could learn. */
static int build_csr(const uint8_t *scopes, const thread_values *tv, hpcdb_profile *out) {
  uint64_t width = (uint64_t)tv->n_metrics * N_SCOPES, cap = tv->n_ctxs * width;
  memset(out, 0, sizeof *out);
  HPCDB_TRY(model_csr_alloc(out, tv->n_ctxs, cap));
  uint16_t *shown = malloc((width ? width : 1) * sizeof *shown);
  if (!shown) return hpcdb_fail(HPCDB_ENOMEM, "out of memory storing a profile");
  uint64_t n_shown = 0;
  for (uint64_t j = 0; j < width; j++)
    if (scopes[j / N_SCOPES] & 1u << (j % N_SCOPES)) shown[n_shown++] = (uint16_t)j;
  uint32_t k = 0;
  uint64_t n = 0;
  for (uint32_t slot = 0; slot < tv->n_ctxs; slot++) {
    uint64_t start = n;
    const double *row = tv->v + (uint64_t)slot * width;
    for (uint64_t q = 0; q < n_shown; q++) { /* n stays below the entries looked at so far: within cap */
      double x = row[shown[q]];
      out->metric_ids[n] = shown[q];
      out->values[n] = x;
      n += x != 0;
    }
    if (n > start) {
      out->ctx_ids[k] = tv->ctx[slot];
      out->ctx_starts[k++] = start;
    }
  }
  free(shown);
  out->ctx_starts[k] = n;
  model_csr_trim(out, k, n);
  return 0;
}

static int cmp_time(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1]; /* record order breaks ties: stable */
}

void prepared_trace_free(prepared_trace *p) {
  free(p->times);
  free(p->ctxs);
  memset(p, 0, sizeof *p);
}

/* Reads the trace beside a profile (none is fine): node ids mapped to
 * contexts, sorted by time (hpcrun may record out of order); trace_finish
 * makes it the model's. */
static int prepare_trace(const char *profile_path, const mapped_profile *m, prepared_trace *out) {
  char *path = hpcrun_swap_suffix(profile_path, ".hpcrun", ".hpctrace");
  if (!path) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace's name"); /* not "no trace" */
  if (!hpcrun_is_file(path)) {
    free(path);
    return 0;
  }
  hpcrun_trace_file *t;
  int rc = hpcrun_trace_load(&t, path, NULL);
  free(path);
  if (rc < 0) return rc;
  uint64_t *rec = malloc((t->n ? t->n : 1) * 3 * sizeof *rec);
  out->times = malloc((t->n ? t->n : 1) * sizeof *out->times);
  out->ctxs = malloc((t->n ? t->n : 1) * sizeof *out->ctxs);
  if (!rec || !out->times || !out->ctxs) {
    free(rec);
    prepared_trace_free(out);
    hpcrun_trace_free(t);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace");
  }
  uint64_t kept = 0;
  int call_trace = (t->flags & HPCTRACE_FLAG_CALL_TRACE) != 0; /* samples name the frame's procedure */
  for (uint64_t i = 0; i < t->n; i++) {
    uint32_t k = mapped_profile_index(m, t->cct_ids[i]);
    if (k == HPCDB_NONE) continue; /* a node the profile lacks: hpcprof drops the sample */
    uint32_t ctx = call_trace ? m->node_rel[k] : m->node_ctx[k];
    rec[3 * kept] = t->times[i];
    rec[3 * kept + 1] = i;
    rec[3 * kept++ + 2] = ctx;
  }
  qsort(rec, kept, 3 * sizeof *rec, cmp_time);
  for (uint64_t i = 0; i < kept; i++) {
    out->times[i] = rec[3 * i];
    out->ctxs[i] = (uint32_t)rec[3 * i + 2];
  }
  out->n = kept;
  out->present = 1;
  free(rec);
  hpcrun_trace_free(t);
  return 0;
}

void trace_finish(const unified_tree *t, prepared_trace *p) {
  uint64_t n = 0;
  for (uint64_t i = 0; i < p->n; i++) {
    uint32_t ctx = t->info[p->ctxs[i]].visible; /* hidden contexts: their parent */
    if (ctx == 0 && n > 0 && p->ctxs[n - 1] == 0) continue;
    p->times[n] = p->times[i];
    p->ctxs[n++] = ctx;
  }
  p->n = n;
}

static void note_time_range(run *r, const hpcrun_file *f) {
  const char *lo = pair_value(&f->header, "trace-min-time");
  const char *hi = pair_value(&f->header, "trace-max-time");
  if (!lo || !hi) return;
  uint64_t a = strtoull(lo, NULL, 10), b = strtoull(hi, NULL, 10);
  if (a == 0 && b == 0) return;
  hpcdb_set_trace_range(r->exp, !r->have_range || a < r->exp->trace_min ? a : r->exp->trace_min,
                        !r->have_range || b > r->exp->trace_max ? b : r->exp->trace_max);
  r->have_range = 1;
}

/* One measurement file on its way through the pipeline. */
typedef struct file_job {
  const char *path;
  hpcrun_file *f;
  uint32_t n_trees; /* 1 for 04.00, the epochs before */
  measured_tree *trees;
  mapped_profile *maps; /* per tree */
  uint32_t **metric_maps;
  uint32_t n_metrics;  /* the experiment's when the values were propagated */
  hpcdb_profile csr;   /* the values to store (arrays only) */
  loop_lex_list loops; /* the loops' loop-exclusive lex_aware values, for the summary */
  prepared_trace trace;
  raw_profile raw;  /* the distributed analysis' first half: what the file leaves for the second */
  raw_profile *src; /* its second half: the file's raw cells */
  int rc;
  char error[1024]; /* the worker's message (errors are per thread) */
  char note[1100];  /* a warning that does not stop the file (an unreadable trace) */
} file_job;

static void job_fail(file_job *j, int rc) {
  j->rc = rc;
  snprintf(j->error, sizeof j->error, "%s", hpcdb_last_error());
}

static void job_release(file_job *j) {
  for (uint32_t k = 0; k < j->n_trees; k++) {
    if (j->metric_maps) free(j->metric_maps[k]);
    if (j->maps) mapped_profile_free(&j->maps[k]);
  }
  free(j->metric_maps);
  free(j->maps);
  free(j->trees);
  analysis_csr_free(&j->csr);
  loop_lex_list_free(&j->loops);
  prepared_trace_free(&j->trace);
  raw_profile_free(&j->raw);
  hpcrun_file_free(j->f);
  memset(j, 0, sizeof *j);
}

/* The trees of a file and room for their mappings. */
static int prepare_trees(file_job *j) {
  const hpcrun_file *f = j->f;
  j->n_trees = f->major == 4 ? 1 : f->n_epochs;
  size_t n = j->n_trees ? j->n_trees : 1;
  j->trees = calloc(n, sizeof *j->trees);
  j->maps = calloc(n, sizeof *j->maps);
  j->metric_maps = calloc(n, sizeof *j->metric_maps);
  if (!j->trees || !j->maps || !j->metric_maps) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t k = 0; k < j->n_trees; k++) {
    if (f->major == 4) j->trees[k] = (measured_tree){&f->t, &f->sparse, NULL};
    else j->trees[k] = (measured_tree){&f->epochs[k].t, NULL, f->epochs[k].values};
    uint32_t nm = j->trees[k].tab->n_metrics;
    if (!(j->metric_maps[k] = calloc(nm ? nm : 1, sizeof **j->metric_maps)))
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  return 0;
}

/* Stage 1 (parallel): read and decode the file. */
static void stage_load(run *r, file_job *j, unsigned worker) {
  (void)worker;
  int rc = hpcrun_file_load(&j->f, j->path, NULL);
  if (rc == 0 && j->f->major == 4) rc = hpcrun_sparse_check(j->f, j->path); /* add_sparse indexes with them */
  if (rc == 0) rc = prepare_trees(j);
  if (rc < 0) job_fail(j, rc);
}

/* Stage 2 (in file order): map the nodes into the unified tree. */
static void stage_unify(run *r, file_job *j) {
  for (uint32_t k = 0; k < j->n_trees; k++) {
    int rc = unify_file(&r->tree, j->path, j->f, j->trees[k].tab, r->opt->all_stats, &j->maps[k], j->metric_maps[k]);
    if (rc < 0) {
      job_fail(j, rc);
      return;
    }
  }
}

/* Propagated values (tv, from the scratch) into the CSR form to store and
 * the loops' values for the summary. */
static int store_values(const unified_tree *t, const uint8_t *scopes, thread_values *tv, propagate_scratch *scratch,
                        file_job *j) {
  j->n_metrics = tv->n_metrics;
  int rc = loop_lex_take(t, tv, &j->loops);
  if (rc == 0) rc = build_csr(scopes, tv, &j->csr);
  thread_values_free(tv, scratch);
  return rc;
}

/* Stage 3 (parallel; the tree is only read): propagate the thread's values
 * and map its trace (ids refer to the last, or only, tree); in the
 * distributed analysis' first half, only collect its raw cells and trace. */
static void stage_propagate(run *r, file_job *j, unsigned worker) {
  propagate_scratch *scratch = &r->scratch[worker];
  const unified_tree *t = &r->view.tree;
  prepared_trace *trace = r->pass ? &j->raw.trace : &j->trace;
  thread_values tv;
  int rc;
  if (r->pass) {
    rc = collect_raw(t, j->trees, j->maps, j->metric_maps, j->n_trees, &j->raw);
  } else {
    rc = propagate_file(t, r->view.n_metrics, j->trees, j->maps, j->metric_maps, j->n_trees, scratch, &tv);
    if (rc == 0) rc = store_values(t, r->view.scopes, &tv, scratch, j);
  }
  if (rc == 0 && j->n_trees > 0) {
    rc = prepare_trace(j->path, &j->maps[j->n_trees - 1], trace);
    if (rc < 0 && rc != HPCDB_ENOMEM && !r->opt->strict) { /* as hpcprof: the profile stays, without its trace */
      snprintf(j->note, sizeof j->note, "trace of %s skipped: %s", j->path, hpcdb_last_error());
      prepared_trace_free(trace);
      rc = 0;
    }
    if (rc == 0 && trace->present && !r->pass) trace_finish(t, trace);
  }
  if (rc < 0) job_fail(j, rc);
}

/* Stage 4 (in file order): the profile's identity and trace go into the
 * experiment; its values to the writer (the summary is made from profile.db
 * later) or, without an output, into the summary and the experiment; in the
 * distributed analysis' first half, its raw cells and trace are kept. */
static int stage_register(run *r, file_job *j) {
  uint32_t profile;
  HPCDB_TRY(add_profile(r, j->f, &profile));
  if (j->note[0] && r->warn) r->warn(r->user, j->note);
  if (!r->exp->title) {
    const char *name = pair_value(&j->f->header, "program-name");
    if (name) HPCDB_TRY(hpcdb_set_title(r->exp, name, NULL));
  }
  note_time_range(r, j->f);
  if (r->pass) {
    j->raw.profile = profile;
    return r->pass->keep(r->pass->keep_user, &j->raw);
  }
  HPCDB_TRY(loop_lex_add(&r->loops, &j->loops));
  r->res->values += j->csr.n_values;
  if (j->trace.present) {
    HPCDB_TRY(hpcdb_add_trace(r->exp, profile, j->trace.n, j->trace.times, j->trace.ctxs, NULL));
    r->res->traces_read++;
  }
  if (!r->stream) {
    hpcdb_profile *c = &j->csr;
    HPCDB_TRY(summary_add(&r->summary, c, r->tree.n_ids, j->n_metrics));
    int rc = hpcdb_profile_adopt_csr(r->exp, profile, c->n_ctxs, c->ctx_ids, c->ctx_starts, c->n_values, c->metric_ids,
                                     c->values);
    memset(c, 0, sizeof *c); /* adopted, or freed on failure */
    return rc;
  }
  return profile_writer_put(r->writer, profile, &j->csr);
}

/* A batch of jobs run by worker threads through one parallel stage. */
typedef struct batch {
  run *r;
  file_job *jobs;
  size_t n;
  void (*stage)(run *, file_job *, unsigned worker);
  pthread_mutex_t lock;
  size_t next;
} batch;

static void batch_worker(void *arg, unsigned worker) {
  batch *b = arg;
  for (;;) {
    pthread_mutex_lock(&b->lock);
    size_t i = b->next++;
    pthread_mutex_unlock(&b->lock);
    if (i >= b->n) return;
    if (b->jobs[i].rc == 0) b->stage(b->r, &b->jobs[i], worker);
  }
}

static void batch_init(batch *b, run *r, file_job *jobs, size_t n, void (*stage)(run *, file_job *, unsigned worker)) {
  *b = (batch){r, jobs, n, stage, PTHREAD_MUTEX_INITIALIZER, 0};
}

/* Runs b's jobs on up to workers threads, this one included (workers 0..). */
static void run_batch(batch *b, unsigned workers) {
  if (workers > b->n) workers = (unsigned)b->n;
  pool_run(workers, batch_worker, b);
}

static void run_parallel(run *r, file_job *jobs, size_t n, void (*stage)(run *, file_job *, unsigned worker),
                         unsigned workers) {
  batch b;
  batch_init(&b, r, jobs, n, stage);
  run_batch(&b, workers);
}

/* Handles a failed job: a warning and a skip, or the end of the run. */
static int settle_failure(run *r, file_job *j) {
  if (r->opt->strict || j->rc == HPCDB_ENOMEM) return hpcdb_fail(j->rc, "%s", j->error);
  r->res->profiles_skipped++;
  if (r->warn) {
    char msg[1200];
    snprintf(msg, sizeof msg, "skipped %s: %s", j->path, j->error);
    r->warn(r->user, msg);
  }
  return 0;
}

/* What the other workers do while this thread unifies a batch: propagate
 * the batch before it (when pipelined), then decode the batch after it
 * (decoding touches nothing shared). */
typedef struct helper {
  run *r;
  batch prop, load;
  const unify_ahead *ahead; /* made ready first, or NULL */
  worker_thread thread;
} helper;

static void helper_init(helper *h, run *r, file_job *prop, size_t n_prop, file_job *load, size_t n_load) {
  h->r = r;
  batch_init(&h->prop, r, prop, n_prop, stage_propagate);
  batch_init(&h->load, r, load, n_load, stage_load);
  h->ahead = NULL;
  h->thread.started = 0;
}

/* On workers 0 .. workers - 1. */
static void helper_run(helper *h, unsigned workers) {
  run_batch(&h->prop, workers);
  run_batch(&h->load, workers);
}

static void *helper_main(void *arg) {
  helper *h = arg;
  if (h->ahead) unify_ahead_run(h->ahead);
  helper_run(h, h->r->workers - 1);
  return NULL;
}

static void helper_start(helper *h) {
  worker_start(&h->thread, h->prop.n + h->load.n > 0 && h->r->workers > 1, helper_main, h);
}

/* Takes the helper's jobs no worker has started yet, on this thread (the
 * last worker: the helper's are the others), then waits for the helper; or
 * does all its work here when no thread could start. */
static void helper_finish(helper *h) {
  if (h->thread.started) {
    batch_worker(&h->prop, h->r->workers - 1);
    batch_worker(&h->load, h->r->workers - 1);
    worker_join(&h->thread);
  } else {
    if (h->ahead) unify_ahead_run(h->ahead);
    helper_run(h, h->r->workers);
  }
}

/* Takes the view the next propagation reads (no propagation is running). */
static int view_take(run *r, const unified_tree *t) {
  prop_view *v = &r->view;
  v->tree = *t;
  v->n_metrics = t->exp->n_metrics;
  HPCDB_TRY(VEC_RESERVE(&v->scopes, &v->cap_scopes, (uint64_t)v->n_metrics + 1));
  for (uint32_t m = 0; m < v->n_metrics; m++) /* a metric shown only in- or exclusive has fewer */
    v->scopes[m] = (uint8_t)analysis_metric_scopes(&t->exp->metrics[m]);
  return 0;
}

/* Registers a propagated batch in file order. A failure to register or
 * write a profile ends the run (the output is no longer whole); a bad file
 * is skipped. */
static int register_batch(run *r, file_job *jobs, size_t n) {
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (jobs[i].rc == 0) {
      rc = stage_register(r, &jobs[i]);
      if (rc == 0) r->res->profiles_read++;
    } else {
      rc = settle_failure(r, &jobs[i]);
    }
    if (r->opt->progress)
      r->opt->progress(r->opt->progress_user, r->res->profiles_read + r->res->profiles_skipped, r->n_files);
  }
  return rc;
}

static void unify_batch(run *r, file_job *jobs, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (jobs[i].rc == 0) stage_unify(r, &jobs[i]);
}

/* One worker, or a pass of the distributed analysis: batch after batch, the
 * next one decoded on the other workers while this one is unified. */
static int batches_in_turn(run *r, const hpcrun_path_list *files, file_job *all, size_t per_batch) {
  int rc = 0;
  size_t n = files->n < per_batch ? files->n : per_batch;
  for (size_t i = 0; i < n; i++) all[i].path = files->paths[i];
  run_parallel(r, all, n, stage_load, r->workers);
  for (size_t first = 0, cur = 0; first < files->n && rc == 0; first += per_batch, cur ^= 1) {
    file_job *jobs = all + cur * per_batch, *next = all + (cur ^ 1) * per_batch;
    size_t n_next = files->n - first - n < per_batch ? files->n - first - n : per_batch;
    for (size_t i = 0; i < n_next; i++) next[i].path = files->paths[first + n + i];
    helper h;
    helper_init(&h, r, NULL, 0, next, n_next);
    helper_start(&h);
    unify_batch(r, jobs, n);
    helper_finish(&h);
    if ((rc = view_take(r, &r->tree)) == 0) {
      run_parallel(r, jobs, n, stage_propagate, r->workers);
      rc = register_batch(r, jobs, n);
    }
    unified_tree_release_retired(&r->tree);
    for (size_t i = 0; i < n; i++) job_release(&jobs[i]);
    n = n_next;
  }
  return rc;
}

/* Several workers: batch s is unified on this thread while the others
 * propagate batch s - 1 (over the view taken once it was unified: unifying
 * only adds to the tree, and the arrays it outgrows are kept until the
 * propagation is done) and decode batch s + 1; batch s - 1 is registered
 * after. Every sequential step keeps its order, so the output is the same. */
static int batches_pipelined(run *r, const hpcrun_path_list *files, file_job *all, size_t per_batch) {
  size_t n_batches = (files->n + per_batch - 1) / per_batch;
#define BATCH(b) (all + (b) % 3 * per_batch)
#define BATCH_N(b) ((b) < n_batches ? (files->n - (b)*per_batch < per_batch ? files->n - (b)*per_batch : per_batch) : 0)
  for (size_t i = 0; i < BATCH_N(0); i++) all[i].path = files->paths[i];
  run_parallel(r, all, BATCH_N(0), stage_load, r->workers);
  int rc = 0;
  uint32_t grown = 0; /* ids the last batch added: the next one's are about as many */
  for (size_t s = 0; s <= n_batches && rc == 0; s++) {
    helper h;
    helper_init(&h, r, s > 0 ? BATCH(s - 1) : NULL, s > 0 ? BATCH_N(s - 1) : 0, BATCH(s + 1), BATCH_N(s + 1));
    for (size_t i = 0; i < h.load.n; i++) h.load.jobs[i].path = files->paths[(s + 1) * per_batch + i];
    unify_ahead ahead = {0};
    if (grown && s < n_batches) { /* room for this batch and the next (no more than the rest's, alike) */
      uint64_t rest = (uint64_t)grown * (n_batches - s);
      unify_ahead_prepare(&r->tree, rest < 2 * (uint64_t)grown ? rest : 2 * (uint64_t)grown, rest, &ahead);
      h.ahead = &ahead;
    }
    helper_start(&h);
    uint32_t before = r->tree.n_ids;
    unify_batch(r, BATCH(s), BATCH_N(s));
    grown = r->tree.n_ids - before;
    helper_finish(&h);
    unify_ahead_done(&r->tree, &ahead);
    unified_tree_release_retired(&r->tree);
    if (s < n_batches) rc = view_take(r, &r->tree);
    if (s > 0) {
      if (rc == 0) rc = register_batch(r, h.prop.jobs, h.prop.n);
      for (size_t i = 0; i < h.prop.n; i++) job_release(&h.prop.jobs[i]);
    }
  }
#undef BATCH
#undef BATCH_N
  return rc;
}

/* Files go through in batches: memory holds up to three batches of decoded
 * files and the writer's queue of values. */
static int analyze_files(run *r, const hpcrun_path_list *files) {
  r->workers = r->opt->threads > 1 ? r->opt->threads : 1;
  r->n_files = files->n;
  if (r->workers > MAX_WORKERS) r->workers = MAX_WORKERS;
  size_t per_batch = 2 * (size_t)r->workers;
  file_job *all = calloc(3 * per_batch, sizeof *all);
  r->scratch = calloc(r->workers, sizeof *r->scratch);
  if (!all || !r->scratch) {
    free(all);
    free(r->scratch);
    r->scratch = NULL;
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  int rc = r->stream ? profile_writer_open(&r->writer, r->stream, r->opt->threads) : 0;
  if (rc == 0)
    rc = r->workers > 1 && !r->pass ? batches_pipelined(r, files, all, per_batch)
                                    : batches_in_turn(r, files, all, per_batch);
  for (size_t i = 0; i < 3 * per_batch; i++) job_release(&all[i]); /* batches decoded for nothing */
  int closed = profile_writer_close(r->writer);
  r->writer = NULL;
  free(all);
  for (unsigned w = 0; w < r->workers; w++) propagate_scratch_free(&r->scratch[w]);
  free(r->scratch);
  r->scratch = NULL;
  free(r->view.scopes);
  memset(&r->view, 0, sizeof r->view);
  unified_tree_release_retired(&r->tree);
  return rc < 0 ? rc : closed;
}

int analysis_run_pass(analysis_pass *p, const hpcrun_path_list *files) {
  run r = {0};
  r.exp = p->exp;
  r.opt = p->opt;
  r.tree = *p->tree;
  r.warn = p->warn;
  r.user = p->user;
  r.res = p->res;
  r.pass = p;
  int rc = analyze_files(&r, files);
  *p->tree = r.tree; /* grown in place */
  p->have_range = r.have_range;
  return rc;
}

/* The second half's parallel stage: a file's raw cells propagated, its trace
 * made the model's. */
static void stage_values(run *r, file_job *j, unsigned worker) {
  const unified_tree *t = &r->view.tree;
  thread_values tv;
  int rc = propagate_raw(t, j->src, &r->scratch[worker], &tv);
  if (rc == 0) rc = store_values(t, r->view.scopes, &tv, &r->scratch[worker], j);
  if (rc == 0 && j->src->trace.present) trace_finish(t, &j->src->trace);
  if (rc < 0) job_fail(j, rc);
}

int analysis_run_values(analysis_values *v) {
  run r = {0};
  r.exp = v->exp;
  r.opt = v->opt;
  r.res = v->res;
  r.values = v;
  r.workers = r.opt->threads > 1 ? r.opt->threads : 1;
  if (r.workers > MAX_WORKERS) r.workers = MAX_WORKERS;
  size_t per_batch = 2 * (size_t)r.workers;
  file_job *jobs = calloc(per_batch, sizeof *jobs);
  r.scratch = calloc(r.workers, sizeof *r.scratch);
  int rc = jobs && r.scratch ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0) rc = view_take(&r, v->view);
  for (uint64_t first = 0; first < v->n_raws && rc == 0; first += per_batch) {
    size_t n = v->n_raws - first < per_batch ? (size_t)(v->n_raws - first) : per_batch;
    for (size_t i = 0; i < n; i++) jobs[i].src = &v->raws[first + i];
    run_parallel(&r, jobs, n, stage_values, r.workers);
    for (size_t i = 0; i < n && rc == 0; i++) { /* in order; a failure here is no file's (out of memory) */
      const raw_profile *raw = jobs[i].src;
      if (jobs[i].rc < 0) {
        rc = hpcdb_fail(jobs[i].rc, "%s", jobs[i].error);
        break;
      }
      r.res->values += jobs[i].csr.n_values;
      if (raw->trace.present) {
        if ((rc = hpcdb_add_trace(r.exp, raw->profile, raw->trace.n, raw->trace.times, raw->trace.ctxs, NULL)) < 0)
          break;
        r.res->traces_read++;
      }
      rc = v->sink(v->sink_user, raw->profile, &jobs[i].csr, &jobs[i].loops);
    }
    for (size_t i = 0; i < n; i++) {
      raw_profile_free(jobs[i].src); /* used */
      job_release(&jobs[i]);
    }
  }
  for (unsigned w = 0; r.scratch && w < r.workers; w++) propagate_scratch_free(&r.scratch[w]);
  free(r.scratch);
  free(r.view.scopes);
  free(jobs);
  return rc;
}

int hpcdb_analyze(hpcdb_experiment **out, const char *measurements, const hpcdb_analyze_options *options,
                  hpcdb_warning_fn warn, void *user, hpcdb_analyze_result *result) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_ANALYZE_OPTIONS_VERSION, "hpcdb_analyze_options");
  *out = NULL;
  hpcdb_analyze_options defaults = HPCDB_ANALYZE_OPTIONS_INIT;
  hpcdb_analyze_result ignored;
  run r = {0};
  r.opt = options ? options : &defaults;
  r.res = result ? result : &ignored;
  memset(r.res, 0, sizeof *r.res);
  r.warn = warn;
  r.user = user;
  r.summary.all_stats = r.loops.all_stats = r.opt->all_stats;
  r.summary.loops = &r.loops;
  hpcrun_path_list files = {0};
  hpcdb_atomic_dir held = {0}; /* the database written, before its OpenMP regions are placed */
  HPCDB_TRY(hpcrun_list_profiles(&files, measurements));
  int rc = 0;
  if (files.n == 0) {
    rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: no .hpcrun measurement files", measurements);
    goto done;
  }
  if ((rc = hpcdb_experiment_new(&r.exp)) < 0) goto done;
  if ((rc = unified_tree_init(&r.tree, r.exp, measurements)) < 0) goto done;
  r.tree.defer_links = 1; /* linked once all files are unified */
  if (!r.opt->ignore_structs &&
      (rc = structure_map_open(&r.tree.structure, r.exp, measurements, r.opt, warn, user)) < 0)
    goto done;
  if ((rc = hpcdb_set_format(r.exp, "hpctoolkit-v4", 4, 0)) < 0) goto done;
  if (r.opt->output) {
    if ((rc = hpcdb_hpctk4_stream_open(&r.stream, r.opt->output, r.opt->write_flags)) < 0) goto done;
    hpcdb_hpctk4_stream_set_threads(r.stream, r.opt->threads);
  }
  if ((rc = analysis_add_scopes(r.exp)) < 0 ||
      (rc = hpcdb_add_profile(r.exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL)) < 0)
    goto done;
  if ((rc = analyze_files(&r, &files)) < 0 || (rc = model_link_contexts(r.exp)) < 0) goto done;
  uint32_t n_ids = r.tree.n_ids;
  unified_tree_free(&r.tree); /* only the experiment's tree is needed from here on */
  if (r.res->profiles_read == 0) {
    rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: none of the %zu measurement files could be read", measurements, files.n);
    goto done;
  }
  char description[512];
  snprintf(description, sizeof description, "Analyzed by hpcdb %s from %u measurement files (%u skipped) in %s.",
           hpcdb_version(), r.res->profiles_read, r.res->profiles_skipped, measurements);
  if ((rc = hpcdb_set_title(r.exp, r.exp->title ? r.exp->title : "hpcdb analysis", description)) < 0) goto done;
  r.res->contexts = r.exp->n_contexts - 1;
  if (r.stream) { /* the summary is made while cct.db is written */
    summary_maker maker;
    if ((rc = summary_maker_init(&maker, r.opt->all_stats, r.exp->n_metrics)) < 0) goto done;
    maker.loops = &r.loops;
    hpcdb_hpctk4_stream_set_summary(r.stream, 0, summary_make, &maker);
    rc = r.opt->openmp_raw ? hpcdb_hpctk4_stream_finish(r.stream, r.exp)
                           : hpctk4_stream_finish_held(r.stream, r.exp, &held);
    r.stream = NULL;
    r.res->values += maker.n_values;
    summary_maker_free(&maker);
  } else if ((rc = summary_store(r.exp, &r.summary, n_ids)) == 0) {
    r.res->values += r.exp->profiles[0].n_values;
  }
  if (rc == 0 && held.temp) rc = analysis_openmp_commit(&held, r.opt->threads, r.opt->write_flags);
done:
  atomic_dir_abort(&held);
  hpcdb_hpctk4_stream_abort(r.stream);
  hpcrun_path_list_free(&files);
  unified_tree_free(&r.tree);
  summary_free(&r.summary);
  loop_lex_summary_free(&r.loops);
  if (rc < 0) {
    hpcdb_experiment_free(r.exp);
    return rc;
  }
  *out = r.exp;
  return 0;
}
