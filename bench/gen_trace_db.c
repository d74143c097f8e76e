/* SPDX-License-Identifier: BSD-3-Clause */
/* Generates a v4.0 database whose traces have known content, at any size:
 * P profiles of N elements each. CPU threads (RANK r THREAD t) run leaf
 * context c_((p + k / run_p) mod K) over precomputed intervals of about
 * PERIOD ns (runs of run_p = 1 + p mod 5 elements), "not running" every
 * 97th element; every G-th profile is a GPU stream (GPUCONTEXT, STREAM)
 * whose kernels last 1 ns (every 5th one PERIOD/2) between idle gaps of
 * about 2 PERIOD. meta.db and profile.db come from the library's writer;
 * trace.db is written here, line by line, so its size is not bounded by
 * memory. The same arguments give the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bytes.h"
#include "hpcdb/hpcdb.h"

enum { LEAVES = 12, KERNELS = 4, PHASES = 3 };
static const char *const leaf_names[LEAVES] = {"compute_a", "compute_b", "MPI_Wait",  "MPI_Allreduce",
                                                "io_write",  "stencil",   "MPI_Send",  "reduce_local",
                                                "pack",      "unpack",    "MPI_Recv",  "halo_exchange"};

typedef struct options {
  uint32_t profiles, gpu_every;
  uint64_t events, period, start;
  const char *out;
} options;

static uint32_t leaf_id(uint32_t i) { return 100 + 2 * i + 1; } /* the line context under leaf function i */
static uint32_t kernel_id(uint32_t i) { return 200 + i; }

static int die(const char *what) {
  fprintf(stderr, "gen_trace_db: %s: %s\n", what, hpcdb_last_error());
  return 2;
}

static int add_fn(hpcdb_experiment *e, const char *name, uint32_t *fn) {
  hpcdb_function f = {name, 0, 0x1000, 0, 10, 0};
  return hpcdb_add_function(e, &f, fn);
}

static int add_ctx(hpcdb_experiment *e, uint32_t id, uint32_t parent, int call, uint32_t fn, uint32_t line,
                   uint32_t *out) {
  hpcdb_context c = {0};
  c.id = id;
  c.kind = HPCDB_CTX_NORMAL;
  c.relation = call ? HPCDB_REL_CALL : HPCDB_REL_LEXICAL;
  c.lexical_type = call ? HPCDB_LEX_FUNCTION : HPCDB_LEX_LINE;
  c.function = call ? fn : HPCDB_NONE;
  c.file = call ? HPCDB_NONE : 0;
  c.module = HPCDB_NONE;
  c.line = line;
  c.propagation = call ? 0 : 1;
  return hpcdb_add_context(e, &c, parent, out);
}

/* entry -> main -> phase_j -> leaf function i -> its line (the traced
 * context, id leaf_id(i), under phase i mod 3); main -> gpu kernels. */
static int build_tree(hpcdb_experiment *e) {
  uint32_t mod, file, fn, entry, main_ix, phase[PHASES], ix;
  if (hpcdb_add_module(e, "/opt/app/bin/traced", 0, &mod) < 0 || hpcdb_add_file(e, "traced.c", 0, &file) < 0)
    return -1;
  hpcdb_context c = {0};
  c.id = 1;
  c.kind = HPCDB_CTX_ENTRY;
  c.entry_point = HPCDB_ENTRY_MAIN;
  c.name = "main thread";
  c.function = c.file = c.module = HPCDB_NONE;
  if (hpcdb_add_context(e, &c, 0, &entry) < 0 || add_fn(e, "main", &fn) < 0 ||
      add_ctx(e, 2, entry, 1, fn, 0, &main_ix) < 0)
    return -1;
  for (uint32_t j = 0; j < PHASES; j++) {
    char name[16];
    snprintf(name, sizeof name, "phase_%u", j);
    if (add_fn(e, name, &fn) < 0 || add_ctx(e, 10 + j, main_ix, 1, fn, 0, &phase[j]) < 0) return -1;
  }
  for (uint32_t i = 0; i < LEAVES; i++)
    if (add_fn(e, leaf_names[i], &fn) < 0 || add_ctx(e, leaf_id(i) - 1, phase[i % PHASES], 1, fn, 0, &ix) < 0 ||
        add_ctx(e, leaf_id(i), ix, 0, 0, 20 + i, &ix) < 0)
      return -1;
  for (uint32_t i = 0; i < KERNELS; i++) {
    char name[16];
    snprintf(name, sizeof name, "gpu_kernel_%u", i);
    if (add_fn(e, name, &fn) < 0 || add_ctx(e, kernel_id(i), main_ix, 1, fn, 0, &ix) < 0) return -1;
  }
  return 0;
}

static int is_gpu(const options *o, uint32_t p) { return o->gpu_every && p % o->gpu_every == o->gpu_every - 1; }

static int build_profiles(hpcdb_experiment *e, const options *o) {
  static const char *const names[] = {"NODE", "RANK", "THREAD", "GPUCONTEXT", "GPUSTREAM"};
  uint32_t kinds[5], metric, scope;
  for (int i = 0; i < 5; i++)
    if (hpcdb_add_kind_name(e, names[i], &kinds[i]) < 0) return -1;
  hpcdb_scope point = {"point", HPCDB_SCOPE_POINT, 0};
  hpcdb_summary sum = {0, "$$", HPCDB_COMBINE_SUM, 0};
  if (hpcdb_add_scope(e, &point, &scope) < 0 || hpcdb_add_metric(e, "samples", &metric) < 0 ||
      hpcdb_metric_add_instance(e, metric, scope, 0) < 0 || (sum.scope = scope, hpcdb_metric_add_summary(e, metric, &sum)) < 0 ||
      hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL) < 0)
    return -1;
  for (uint32_t p = 0; p < o->profiles; p++) {
    uint32_t rank = p / 8, t = p % 8, pi;
    hpcdb_id ids[3] = {{(uint16_t)kinds[0], HPCDB_ID_PHYSICAL, rank / 16, 0x7f000000u + rank / 16},
                       {(uint16_t)kinds[1], 0, rank, rank},
                       {(uint16_t)kinds[is_gpu(o, p) ? 4 : 2], 0, t, t}};
    uint32_t ctx = 2;
    uint16_t mid = 0;
    double v = 1;
    if (hpcdb_add_profile(e, 0, 1, ids, 3, &pi) < 0 || hpcdb_profile_set_values(e, pi, 1, &ctx, &mid, &v) < 0)
      return -1;
  }
  return 0;
}

/* Element k of profile p: its timestamp and context. */
static void element(const options *o, uint32_t p, uint64_t k, uint64_t *ts, uint32_t *ctx) {
  if (is_gpu(o, p)) {
    uint64_t j = k / 2, base = o->start + j * 2 * o->period + (p * 7919ull + j * 104729ull) % (o->period / 2);
    uint64_t len = j % 5 == 4 ? o->period / 2 : 1;
    *ts = k % 2 ? base + len : base;
    *ctx = k % 2 ? 0 : kernel_id((uint32_t)((j + p) % KERNELS));
  } else {
    *ts = o->start + k * o->period + (p * 7919ull + k * 104729ull) % (o->period / 2);
    uint64_t run = 1 + p % 5;
    *ctx = k % 97 == 96 ? 0 : leaf_id((uint32_t)((p + k / run) % LEAVES));
  }
}

static int put(FILE *f, const void *b, size_t n) { return fwrite(b, 1, n, f) == n ? 0 : -1; }

/* trace.db: header, Context Trace Headers (section 1), the lines, footer. */
static int write_trace(const options *o, const char *dir) {
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/trace.db", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp-gen", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  uint64_t n = o->profiles, sec = 0x20, arr = sec + 0x20, lines = arr + 24 * n, bytes = 12 * o->events;
  uint64_t lo = UINT64_MAX, hi = 0, ts;
  uint32_t ctx;
  for (uint32_t p = 0; p < n && o->events; p++) {
    element(o, p, 0, &ts, &ctx);
    if (ts < lo) lo = ts;
    element(o, p, o->events - 1, &ts, &ctx);
    if (ts > hi) hi = ts;
  }
  uint8_t h[0x40] = "HPCTOOLKITtrce";
  h[14] = 4;
  wr_le64(h + 16, 0x20 + 24 * n);
  wr_le64(h + 24, sec);
  wr_le64(h + sec, arr);
  wr_le32(h + sec + 8, (uint32_t)n);
  h[sec + 0xc] = 24;
  wr_le64(h + sec + 0x10, o->events ? lo : 0);
  wr_le64(h + sec + 0x18, o->events ? hi : 0);
  int rc = put(f, h, sizeof h);
  for (uint32_t p = 0; rc == 0 && p < n; p++) {
    uint8_t th[24] = {0};
    wr_le32(th, p + 1); /* profile.db index: the summary is 0 */
    wr_le64(th + 8, lines + bytes * p);
    wr_le64(th + 16, lines + bytes * (p + 1));
    rc = put(f, th, sizeof th);
  }
  uint8_t buf[12 * 4096];
  for (uint32_t p = 0; rc == 0 && p < n; p++)
    for (uint64_t k = 0; rc == 0 && k < o->events; k += 4096) {
      uint64_t m = o->events - k < 4096 ? o->events - k : 4096;
      for (uint64_t i = 0; i < m; i++) {
        element(o, p, k + i, &ts, &ctx);
        wr_le64(buf + 12 * i, ts);
        wr_le32(buf + 12 * i + 8, ctx);
      }
      rc = put(f, buf, 12 * m);
    }
  if (rc == 0) rc = put(f, "trace.db", 8);
  if (fclose(f) != 0) rc = -1;
  if (rc == 0) rc = rename(tmp, path);
  if (rc != 0) unlink(tmp);
  return rc;
}

int main(int argc, char **argv) {
  options o = {64, 4, 1000, 1000000, 1700000000000000000ull, NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-o") && v) o.out = argv[++i];
    else if (!strcmp(a, "--profiles") && v) o.profiles = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(a, "--events") && v) o.events = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(a, "--gpu-every") && v) o.gpu_every = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(a, "--period") && v) o.period = strtoull(argv[++i], NULL, 10);
    else o.out = NULL, i = argc;
  }
  if (!o.out || o.profiles == 0 || o.period < 4) {
    fprintf(stderr, "usage: gen_trace_db [--profiles P] [--events N] [--gpu-every G] [--period NS] -o DIR\n");
    return 2;
  }
  hpcdb_experiment *e = NULL;
  if (hpcdb_experiment_new(&e) < 0 || build_tree(e) < 0 || build_profiles(e, &o) < 0) return die("model");
  if (hpcdb_hpctk4_write(e, o.out, 0) < 0) return die(o.out);
  hpcdb_experiment_free(e);
  if (write_trace(&o, o.out) < 0) {
    fprintf(stderr, "gen_trace_db: %s: cannot write trace.db\n", o.out);
    return 2;
  }
  return 0;
}
