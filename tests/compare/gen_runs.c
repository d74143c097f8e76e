/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs with known costs for the compare tests, through the public model and
 * writers.
 *   gen_runs pair DIR      DIR/a.d and DIR/b.d (v4.0): in B solve's loop costs
 *                          twice as much and its lines moved down 2, setup is
 *                          gone, checkpoint is new, rank 1 got slower
 *   gen_runs scaling DIR   DIR/cubes/scal.p{P}.r1/profile.cubex for P = 2..256, as
 *                          Extra-P reads a Cube file set, and DIR/v4/p{P}.d: P
 *                          ranks each costing solve 3*p, exchange 2*log2(p),
 *                          setup 5 + 0.1*p^2 (seconds, metric "time")
 * The tree: main thread > main > app.c:10 > solve > loop app.c:20 > app.c:21,
 * main > app.c:11 > exchange, main > app.c:12 > setup (or checkpoint). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/hpcdb.h"

typedef struct leaf {
  const char *function; /* the callee under main; NULL: none */
  double cost[2];       /* per rank */
} leaf;

typedef struct run {
  uint32_t ranks;
  uint32_t solve_shift; /* lines of solve moved down */
  leaf solve, exchange, third;
} run;

static hpcdb_experiment *exp_;
static uint32_t next_id, mod, file;

static int die(const char *what) {
  fprintf(stderr, "gen_runs: %s: %s\n", what, hpcdb_last_error());
  exit(2);
}

static uint32_t add(uint32_t parent, uint8_t relation, uint8_t lexical, const char *fn, uint32_t line) {
  hpcdb_context c = {0};
  c.id = next_id++;
  c.kind = HPCDB_CTX_NORMAL;
  c.relation = relation;
  c.lexical_type = lexical;
  c.function = c.file = c.module = HPCDB_NONE;
  c.propagation = 1;
  if (fn) {
    uint32_t f = HPCDB_NONE;
    for (uint32_t i = 0; i < exp_->n_functions; i++)
      if (!strcmp(exp_->functions[i].name, fn)) f = i;
    if (f == HPCDB_NONE) {
      hpcdb_function d = {fn, mod, 0x1000u + 0x100u * exp_->n_functions, file, line, 0};
      if (hpcdb_add_function(exp_, &d, &f) < 0) die("function");
    }
    c.function = f;
  } else {
    c.file = file;
    c.line = line;
  }
  uint32_t idx;
  if (hpcdb_add_context(exp_, &c, parent, &idx) < 0) die("context");
  return idx;
}

/* Values: point at the leaves, execution (inclusive) on the way up. */
typedef struct values {
  uint32_t n;
  uint32_t ctx[64];
  uint16_t metric[64];
  double v[64];
} values;

static void add_to(values *vs, uint32_t id, uint16_t metric, double v) {
  uint32_t k = 0;
  while (k < vs->n && !(vs->ctx[k] == id && vs->metric[k] == metric)) k++;
  if (k == vs->n) vs->ctx[vs->n] = id, vs->metric[vs->n] = metric, vs->v[vs->n++] = 0;
  vs->v[k] += v;
}

static void put(values *vs, uint32_t idx, double v) {
  for (uint32_t i = idx; i != HPCDB_NONE; i = exp_->contexts[i].parent) add_to(vs, exp_->contexts[i].id, 1, v);
  add_to(vs, exp_->contexts[idx].id, 0, v);
}

static hpcdb_experiment *build(const run *r) {
  if (hpcdb_experiment_new(&exp_) < 0) die("new");
  next_id = 1;
  if (hpcdb_add_module(exp_, "/opt/app/bin/app", 0, &mod) < 0 || hpcdb_add_file(exp_, "/src/app.c", 0, &file) < 0)
    die("tables");
  hpcdb_scope point = {"point", HPCDB_SCOPE_POINT, 0}, exec = {"execution", HPCDB_SCOPE_EXECUTION, 255};
  uint32_t sp, se, m;
  if (hpcdb_add_scope(exp_, &point, &sp) < 0 || hpcdb_add_scope(exp_, &exec, &se) < 0 || hpcdb_add_metric(exp_, "time", &m) < 0 ||
      hpcdb_metric_add_instance(exp_, m, sp, 0) < 0 || hpcdb_metric_add_instance(exp_, m, se, 1) < 0)
    die("metric");
  hpcdb_summary s0 = {sp, "$$", HPCDB_COMBINE_SUM, 0}, s1 = {se, "$$", HPCDB_COMBINE_SUM, 1};
  if (hpcdb_metric_add_summary(exp_, m, &s0) < 0 || hpcdb_metric_add_summary(exp_, m, &s1) < 0) die("summary");
  hpcdb_context entry = {0};
  entry.id = next_id++;
  entry.kind = HPCDB_CTX_ENTRY;
  entry.entry_point = HPCDB_ENTRY_MAIN;
  entry.name = "main thread";
  entry.function = entry.file = entry.module = HPCDB_NONE;
  uint32_t e, leaf_idx[3];
  if (hpcdb_add_context(exp_, &entry, 0, &e) < 0) die("entry");
  uint32_t main_ = add(e, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, "main", 5);
  uint32_t solve = add(add(main_, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, NULL, 10), HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, "solve", 18);
  uint32_t loop = add(solve, HPCDB_REL_LEXICAL, HPCDB_LEX_LOOP, NULL, 20 + r->solve_shift);
  leaf_idx[0] = add(loop, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, NULL, 21 + r->solve_shift);
  uint32_t ex = add(add(main_, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, NULL, 11), HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, "exchange", 40);
  leaf_idx[1] = add(ex, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, NULL, 42);
  leaf_idx[2] = HPCDB_NONE;
  if (r->third.function) {
    uint32_t t = add(add(main_, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, NULL, 12), HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, r->third.function, 60);
    leaf_idx[2] = add(t, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, NULL, 61);
  }
  uint32_t kind;
  if (hpcdb_add_kind_name(exp_, "RANK", &kind) < 0 || hpcdb_add_profile(exp_, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL) < 0)
    die("profiles");
  const leaf *leaves[3] = {&r->solve, &r->exchange, &r->third};
  values sum = {0};
  for (uint32_t rank = 0; rank < r->ranks; rank++) {
    hpcdb_id id = {(uint16_t)kind, 0, rank, rank};
    uint32_t p;
    values vs = {0};
    if (hpcdb_add_profile(exp_, 0, 1, &id, 1, &p) < 0) die("profile");
    for (int l = 0; l < 3; l++) {
      if (leaf_idx[l] == HPCDB_NONE) continue;
      double v = leaves[l]->cost[rank < 2 ? rank : 1];
      put(&vs, leaf_idx[l], v);
      put(&sum, leaf_idx[l], v);
    }
    if (hpcdb_profile_set_values(exp_, p, vs.n, vs.ctx, vs.metric, vs.v) < 0) die("values");
  }
  if (hpcdb_profile_set_values(exp_, 0, sum.n, sum.ctx, sum.metric, sum.v) < 0) die("summary values");
  return exp_;
}

static void write_v4(const run *r, const char *dir) {
  hpcdb_experiment *e = build(r);
  if (hpcdb_hpctk4_write(e, dir, HPCDB_WRITE_FORCE) < 0) die(dir);
  hpcdb_experiment_free(e);
}

static void pair(const char *dir) {
  char path[4096];
  run a = {2, 0, {"solve", {2.0, 2.0}}, {"exchange", {0.5, 0.5}}, {"setup", {0.25, 0.25}}};
  run b = {2, 2, {"solve", {4.0, 4.0}}, {"exchange", {0.5, 1.5}}, {"checkpoint", {0.125, 0.125}}};
  snprintf(path, sizeof path, "%s/a.d", dir);
  write_v4(&a, path);
  snprintf(path, sizeof path, "%s/b.d", dir);
  write_v4(&b, path);
}

static void scaling(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/cubes", dir);
  mkdir(path, 0777);
  snprintf(path, sizeof path, "%s/v4", dir);
  mkdir(path, 0777);
  for (uint32_t p = 2; p <= 256; p *= 2) { /* 8 values: enough points for a model of three terms */
    double x = p;
    run r = {p, 0, {"solve", {3 * x, 3 * x}}, {"exchange", {2 * log2(x), 2 * log2(x)}}, {"setup", {5 + 0.1 * x * x, 5 + 0.1 * x * x}}};
    hpcdb_experiment *e = build(&r);
    snprintf(path, sizeof path, "%s/cubes/scal.p%u.r1", dir, p);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/cubes/scal.p%u.r1/profile.cubex", dir, p);
    hpcdb_cube_write_options o = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, HPCDB_WRITE_FORCE};
    if (hpcdb_cube_write(e, path, &o) < 0) die(path);
    snprintf(path, sizeof path, "%s/v4/p%u.d", dir, p);
    if (hpcdb_hpctk4_write(e, path, HPCDB_WRITE_FORCE) < 0) die(path);
    hpcdb_experiment_free(e);
  }
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "pair") && strcmp(argv[1], "scaling"))) {
    fprintf(stderr, "usage: gen_runs pair|scaling DIR\n");
    return 2;
  }
  mkdir(argv[2], 0777);
  if (!strcmp(argv[1], "pair")) pair(argv[2]);
  else scaling(argv[2]);
  return 0;
}
