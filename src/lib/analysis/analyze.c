/* hpcdb_analyze: a measurements directory to the experiment hpcprof writes.
 * Files are taken in name order; each is unified into the tree, propagated,
 * added to the summary, stored as a profile and dropped, so memory holds the
 * unified tree, the summary and the profiles' sparse values, not the input. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "hpcrun/hpcrun_paths.h"

static const char *const standard_kinds[] = {"SUMMARY",   "NODE",       "RANK",      "THREAD",
                                             "GPUDEVICE", "GPUCONTEXT", "GPUSTREAM", "CORE"};

typedef struct run {
  hpcdb_experiment *exp;
  const hpcdb_analyze_options *opt;
  unified_tree tree;
  summary_acc summary;
  hpcdb_warning_fn warn;
  void *user;
  hpcdb_analyze_result *res;
  hpcdb_hpctk4_stream *stream; /* with options->output */
  int have_range;
} run;

static const char *pair_value(const hpcrun_nvlist *l, const char *name) {
  for (uint32_t i = 0; i < l->n; i++)
    if (strcmp(l->items[i].name.s, name) == 0) return l->items[i].value.s;
  return NULL;
}

/* Kind names: the standard ones, then whatever a file's dictionary adds. */
static int ensure_kind(run *r, const hpcrun_file *f, uint16_t kind) {
  while (r->exp->n_kind_names <= kind) {
    uint32_t k = r->exp->n_kind_names;
    const char *name = k < 8 ? standard_kinds[k] : NULL;
    for (uint16_t i = 0; i < f->n_kinds && !name; i++)
      if ((f->kinds[i].kind & HPCRUN_KIND_MASK) == k) name = f->kinds[i].name.s;
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
  static const struct { const char *pair; int base; uint16_t kind, flags; } parts[] = {
      {"host-id", 16, 1, HPCDB_ID_PHYSICAL}, {"mpi-rank", 10, 2, 0}, {"thread-id", 10, 3, 0}};
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
  if (rc == 0) rc = hpcdb_add_profile(r->exp, 0, 1, ids, n, out);
  free(ids);
  return rc;
}

/* The thread's non-zero values in CSR form (built in the parallel stage):
 * contexts ascending, prop metric ids (metric × 4 + scope) ascending. */
static int build_csr(const thread_values *tv, hpcdb_profile *out) {
  uint64_t cap = (uint64_t)tv->n_ctxs * tv->n_metrics * N_SCOPES;
  memset(out, 0, sizeof *out);
  out->ctx_ids = malloc(((size_t)tv->n_ctxs + 1) * sizeof *out->ctx_ids);
  out->ctx_starts = malloc(((size_t)tv->n_ctxs + 1) * sizeof *out->ctx_starts);
  out->metric_ids = malloc((cap ? cap : 1) * sizeof *out->metric_ids);
  out->values = malloc((cap ? cap : 1) * sizeof *out->values);
  if (!out->ctx_ids || !out->ctx_starts || !out->metric_ids || !out->values)
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory storing a profile");
  uint32_t k = 0;
  uint64_t n = 0;
  for (uint32_t slot = 0; slot < tv->n_ctxs; slot++) {
    uint64_t start = n;
    const double *row = tv->v + (uint64_t)slot * tv->n_metrics * N_SCOPES;
    for (uint64_t j = 0; j < (uint64_t)tv->n_metrics * N_SCOPES; j++) {
      if (row[j] == 0) continue;
      out->metric_ids[n] = (uint16_t)j;
      out->values[n++] = row[j];
    }
    if (n > start) {
      out->ctx_ids[k] = tv->ctx[slot];
      out->ctx_starts[k++] = start;
    }
  }
  out->ctx_starts[k] = n;
  out->n_ctxs = k;
  out->n_values = n;
  return 0;
}

static void csr_free(hpcdb_profile *p) {
  free(p->ctx_ids);
  free(p->ctx_starts);
  free(p->metric_ids);
  free(p->values);
  memset(p, 0, sizeof *p);
}

static int cmp_time(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1]; /* record order breaks ties: stable */
}

/* The trace beside a profile, with node ids mapped to contexts, sorted by time
 * (hpcrun may record out of order), and runs of "not running" (context 0)
 * collapsed to their first sample. */
static int add_trace(run *r, const char *profile_path, uint32_t profile, const mapped_profile *m) {
  const ctx_info *info = r->tree.info;
  char *path = hpcrun_swap_suffix(profile_path, ".hpcrun", ".hpctrace");
  if (!path || !hpcrun_is_file(path)) {
    free(path);
    return 0;
  }
  hpcrun_trace_file *t;
  int rc = hpcrun_trace_load(&t, path, NULL);
  free(path);
  if (rc < 0) return rc;
  uint64_t *rec = malloc((t->n ? t->n : 1) * 3 * sizeof *rec);
  if (!rec) {
    hpcrun_trace_free(t);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace");
  }
  for (uint64_t i = 0; i < t->n; i++) {
    uint32_t ctx = mapped_profile_ctx(m, t->cct_ids[i]);
    rec[3 * i] = t->times[i];
    rec[3 * i + 1] = i;
    rec[3 * i + 2] = ctx == HPCDB_NONE ? 0 : info[ctx].visible; /* hidden contexts: their parent */
  }
  qsort(rec, t->n, 3 * sizeof *rec, cmp_time);
  uint64_t *times = malloc((t->n ? t->n : 1) * sizeof *times);
  uint32_t *ctxs = malloc((t->n ? t->n : 1) * sizeof *ctxs);
  uint64_t n = 0;
  if (times && ctxs) {
    for (uint64_t i = 0; i < t->n; i++) {
      uint32_t ctx = (uint32_t)rec[3 * i + 2];
      if (ctx == 0 && n > 0 && ctxs[n - 1] == 0) continue;
      times[n] = rec[3 * i];
      ctxs[n++] = ctx;
    }
    rc = hpcdb_add_trace(r->exp, profile, n, times, ctxs, NULL);
    if (rc == 0) r->res->traces_read++;
  } else {
    rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory for a trace");
  }
  free(rec);
  free(times);
  free(ctxs);
  hpcrun_trace_free(t);
  return rc;
}

static void note_time_range(run *r, const hpcrun_file *f) {
  const char *lo = pair_value(&f->header, "trace-min-time");
  const char *hi = pair_value(&f->header, "trace-max-time");
  if (!lo || !hi) return;
  uint64_t a = strtoull(lo, NULL, 10), b = strtoull(hi, NULL, 10);
  if (a == 0 && b == 0) return;
  if (!r->have_range || a < r->exp->trace_min) r->exp->trace_min = a;
  if (!r->have_range || b > r->exp->trace_max) r->exp->trace_max = b;
  r->have_range = 1;
}

/* One measurement file on its way through the pipeline. */
typedef struct file_job {
  const char *path;
  hpcrun_file *f;
  uint32_t n_trees;      /* 1 for 04.00, the epochs before */
  measured_tree *trees;
  mapped_profile *maps;  /* per tree */
  uint32_t **metric_maps;
  thread_values tv;
  hpcdb_profile csr; /* the values to store (arrays only) */
  int rc;
  char error[1024]; /* the worker's message (errors are per thread) */
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
  thread_values_free(&j->tv);
  csr_free(&j->csr);
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
    if (f->major == 4)
      j->trees[k] = (measured_tree){&f->t, &f->sparse, NULL};
    else
      j->trees[k] = (measured_tree){&f->epochs[k].t, NULL, f->epochs[k].values};
    uint32_t nm = j->trees[k].tab->n_metrics;
    if (!(j->metric_maps[k] = calloc(nm ? nm : 1, sizeof **j->metric_maps)))
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  return 0;
}

/* Stage 1 (parallel): read and decode the file. */
static void stage_load(run *r, file_job *j) {
  int rc = hpcrun_file_load(&j->f, j->path, NULL);
  if (rc == 0) rc = prepare_trees(j);
  if (rc < 0) job_fail(j, rc);
}

/* Stage 2 (in file order): map the nodes into the unified tree. */
static void stage_unify(run *r, file_job *j) {
  for (uint32_t k = 0; k < j->n_trees; k++) {
    int rc = unify_file(&r->tree, j->path, j->f, j->trees[k].tab, r->opt->all_stats, &j->maps[k],
                        j->metric_maps[k]);
    if (rc < 0) {
      job_fail(j, rc);
      return;
    }
  }
}

/* Stage 3 (parallel; the tree is only read): propagate the thread's values. */
static void stage_propagate(run *r, file_job *j) {
  int rc = propagate_file(&r->tree, j->trees, j->maps, j->metric_maps, j->n_trees, &j->tv);
  if (rc == 0) rc = build_csr(&j->tv, &j->csr);
  if (rc < 0) job_fail(j, rc);
}

/* Stage 4 (in file order): summary, profile, trace. */
static int stage_store(run *r, file_job *j) {
  uint32_t profile;
  HPCDB_TRY(summary_add(&r->summary, &j->tv, r->tree.n_ids, r->exp->n_metrics));
  HPCDB_TRY(add_profile(r, j->f, &profile));
  r->res->values += j->csr.n_values;
  if (r->stream) { /* to disk now; the model keeps the identity only */
    HPCDB_TRY(hpcdb_hpctk4_stream_profile(r->stream, profile, &j->csr));
  } else {
    hpcdb_profile *c = &j->csr;
    int rc = hpcdb_profile_adopt_csr(r->exp, profile, c->n_ctxs, c->ctx_ids, c->ctx_starts, c->n_values,
                                     c->metric_ids, c->values);
    memset(c, 0, sizeof *c); /* adopted, or freed on failure */
    HPCDB_TRY(rc);
  }
  if (j->n_trees > 0) /* trace ids refer to the last (or only) tree */
    HPCDB_TRY(add_trace(r, j->path, profile, &j->maps[j->n_trees - 1]));
  if (!r->exp->title) {
    const char *name = pair_value(&j->f->header, "program-name");
    if (name) HPCDB_TRY(hpcdb_set_title(r->exp, name, NULL));
  }
  note_time_range(r, j->f);
  return 0;
}

/* A batch of jobs run by worker threads through one parallel stage. */
typedef struct batch {
  run *r;
  file_job *jobs;
  size_t n;
  void (*stage)(run *, file_job *);
  pthread_mutex_t lock;
  size_t next;
} batch;

static void *batch_worker(void *arg) {
  batch *b = arg;
  for (;;) {
    pthread_mutex_lock(&b->lock);
    size_t i = b->next++;
    pthread_mutex_unlock(&b->lock);
    if (i >= b->n) return NULL;
    if (b->jobs[i].rc == 0) b->stage(b->r, &b->jobs[i]);
  }
}

static void run_parallel(run *r, file_job *jobs, size_t n, void (*stage)(run *, file_job *)) {
  unsigned workers = r->opt->threads > 1 ? r->opt->threads : 1;
  if (workers > n) workers = (unsigned)n;
  batch b = {r, jobs, n, stage, PTHREAD_MUTEX_INITIALIZER, 0};
  pthread_t tids[64];
  unsigned started = 0;
  for (unsigned w = 1; w < workers && w < 64; w++)
    if (pthread_create(&tids[started], NULL, batch_worker, &b) == 0) started++;
  batch_worker(&b); /* this thread works too; fewer threads only means slower */
  for (unsigned w = 0; w < started; w++) pthread_join(tids[w], NULL);
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

/* Files go through in batches: memory holds one batch of decoded files. */
static int analyze_files(run *r, const hpcrun_path_list *files) {
  size_t per_batch = 2 * (r->opt->threads > 1 ? r->opt->threads : 1);
  file_job *jobs = calloc(per_batch, sizeof *jobs);
  if (!jobs) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  int rc = 0;
  for (size_t first = 0; first < files->n && rc == 0; first += per_batch) {
    size_t n = files->n - first < per_batch ? files->n - first : per_batch;
    for (size_t i = 0; i < n; i++) jobs[i].path = files->paths[first + i];
    run_parallel(r, jobs, n, stage_load);
    for (size_t i = 0; i < n; i++)
      if (jobs[i].rc == 0) stage_unify(r, &jobs[i]);
    run_parallel(r, jobs, n, stage_propagate);
    for (size_t i = 0; i < n && rc == 0; i++) {
      if (jobs[i].rc == 0 && (jobs[i].rc = stage_store(r, &jobs[i])) < 0)
        job_fail(&jobs[i], jobs[i].rc);
      if (jobs[i].rc == 0)
        r->res->profiles_read++;
      else
        rc = settle_failure(r, &jobs[i]);
    }
    for (size_t i = 0; i < n; i++) job_release(&jobs[i]);
  }
  free(jobs);
  return rc;
}

int hpcdb_analyze(hpcdb_experiment **out, const char *measurements,
                  const hpcdb_analyze_options *options, hpcdb_warning_fn warn, void *user,
                  hpcdb_analyze_result *result) {
  *out = NULL;
  hpcdb_analyze_options defaults = {0};
  hpcdb_analyze_result ignored;
  run r = {0};
  r.opt = options ? options : &defaults;
  r.res = result ? result : &ignored;
  memset(r.res, 0, sizeof *r.res);
  r.warn = warn;
  r.user = user;
  r.summary.all_stats = r.opt->all_stats;
  hpcrun_path_list files = {0};
  HPCDB_TRY(hpcrun_list_profiles(&files, measurements));
  int rc = 0;
  if (files.n == 0) {
    rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: no .hpcrun measurement files", measurements);
    goto done;
  }
  if ((rc = hpcdb_experiment_new(&r.exp)) < 0) goto done;
  if ((rc = unified_tree_init(&r.tree, r.exp, measurements)) < 0) goto done;
  r.exp->format = "hpctoolkit-v4";
  r.exp->version_major = 4;
  if (r.opt->output && (rc = hpcdb_hpctk4_stream_open(&r.stream, r.opt->output, r.opt->write_flags)) < 0) goto done;
  if ((rc = analysis_add_scopes(r.exp)) < 0 ||
      (rc = hpcdb_add_profile(r.exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL)) < 0)
    goto done;
  if ((rc = analyze_files(&r, &files)) < 0) goto done;
  if (r.res->profiles_read == 0) {
    rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: none of the %zu measurement files could be read", measurements,
                    files.n);
    goto done;
  }
  char description[512];
  snprintf(description, sizeof description,
           "Analyzed by hpcdb %s from %u measurement files (%u skipped) in %s.", hpcdb_version(),
           r.res->profiles_read, r.res->profiles_skipped, measurements);
  if ((rc = hpcdb_set_title(r.exp, r.exp->title ? r.exp->title : "hpcdb analysis", description)) < 0 ||
      (rc = summary_store(r.exp, &r.summary, r.tree.n_ids)) < 0)
    goto done;
  r.res->contexts = r.exp->n_contexts - 1;
  r.res->values += r.exp->profiles[0].n_values;
  if (r.stream) {
    rc = hpcdb_hpctk4_stream_finish(r.stream, r.exp);
    r.stream = NULL;
  }
done:
  hpcdb_hpctk4_stream_abort(r.stream);
  hpcrun_path_list_free(&files);
  unified_tree_free(&r.tree);
  summary_free(&r.summary);
  if (rc < 0) {
    hpcdb_experiment_free(r.exp);
    return rc;
  }
  *out = r.exp;
  return 0;
}
