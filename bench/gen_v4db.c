/* SPDX-License-Identifier: BSD-3-Clause */
/* Generates a synthetic HPCToolkit v4.0 database of a chosen size through the
 * public model and writer: P thread profiles (RANK r THREAD t) plus the
 * canonical summary, a random context tree of C contexts (functions, loops,
 * lines; depth up to 16), M metrics each with the execution and function
 * scopes and a Sum summary, and a fraction D of contexts with values per
 * profile. The same arguments give the same database. --perturb F (hpcdb
 * compare's benchmark): the same database but for a fraction F of the
 * contexts, chosen by a hash of their id, whose values are 1.5 times as large. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"

static uint64_t rng_state;
static uint64_t next_random(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return (uint32_t)(next_random() % n); }

/* Whether --perturb changes context id's values: a hash of the id, so the
 * random stream (and everything else generated) stays the same. */
static int perturbed(uint32_t id, double fraction) {
  uint64_t z = (id + 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
  return id != 0 && (double)((z ^ (z >> 31)) % 1000000) < fraction * 1e6;
}

static int die(const char *what) {
  fprintf(stderr, "gen_v4db: %s: %s\n", what, hpcdb_last_error());
  return 2;
}

typedef struct options {
  uint32_t profiles, contexts, metrics, threads_per_rank;
  double density, perturb;
  uint64_t seed;
  const char *out;
} options;

static int parse(options *o, int argc, char **argv) {
  *o = (options){64, 10000, 4, 4, 0.2, 0, 1, NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-o") && v) o->out = argv[++i];
    else if (!strcmp(a, "--profiles") && v) o->profiles = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(a, "--contexts") && v) o->contexts = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(a, "--metrics") && v) o->metrics = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(a, "--density") && v) o->density = strtod(argv[++i], NULL);
    else if (!strcmp(a, "--seed") && v) o->seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(a, "--perturb") && v) o->perturb = strtod(argv[++i], NULL);
    else return -1;
  }
  if (!o->out || o->profiles == 0 || o->contexts < 2 || o->metrics == 0 || o->metrics > 8000 ||
      o->density <= 0 || o->density > 1 || o->perturb < 0 || o->perturb > 1)
    return -1;
  return 0;
}

/* Static structure and the tree: contexts get ids 1..C in creation order. */
static int build_tree(hpcdb_experiment *exp, const options *o) {
  uint32_t mod, file;
  if (hpcdb_add_module(exp, "/opt/app/bin/synthetic", 0, &mod) < 0 ||
      hpcdb_add_file(exp, "src/synthetic.c", 0, &file) < 0)
    return -1;
  uint32_t nfuncs = o->contexts / 8 + 1;
  for (uint32_t f = 0; f < nfuncs; f++) {
    char name[32];
    snprintf(name, sizeof name, "function_%u", f);
    hpcdb_function fn = {name, mod, 0x1000 + 0x40ull * f, file, 10 + 20 * f, 0};
    if (hpcdb_add_function(exp, &fn, NULL) < 0) return -1;
  }
  hpcdb_context c = {0};
  c.id = 1;
  c.kind = HPCDB_CTX_ENTRY;
  c.entry_point = HPCDB_ENTRY_MAIN;
  c.name = "main thread";
  c.function = c.file = c.module = HPCDB_NONE;
  uint32_t entry;
  if (hpcdb_add_context(exp, &c, 0, &entry) < 0) return -1;
  uint32_t *depth = calloc((size_t)o->contexts + 2, sizeof *depth);
  if (!depth) return -1;
  for (uint32_t id = 2; id <= o->contexts; id++) {
    /* Parents are chosen among recent contexts so the tree gets deep and bushy. */
    uint32_t span = id - 1 < 64 ? id - 1 : 64;
    uint32_t parent_index = exp->n_contexts - 1 - below(span);
    while (depth[parent_index] >= 16) parent_index = exp->contexts[parent_index].parent;
    hpcdb_context k = {0};
    k.id = id;
    k.kind = HPCDB_CTX_NORMAL;
    k.function = k.file = k.module = HPCDB_NONE;
    uint32_t pick = below(4);
    if (pick == 0 || exp->contexts[parent_index].kind == HPCDB_CTX_ENTRY) {
      k.relation = HPCDB_REL_CALL;
      k.lexical_type = HPCDB_LEX_FUNCTION;
      k.function = below(nfuncs);
    } else {
      k.relation = HPCDB_REL_LEXICAL;
      k.lexical_type = pick == 1 ? HPCDB_LEX_LOOP : HPCDB_LEX_LINE;
      k.file = file;
      k.line = 1 + below(5000);
      k.propagation = 1;
    }
    uint32_t idx;
    if (hpcdb_add_context(exp, &k, parent_index, &idx) < 0) {
      free(depth);
      return -1;
    }
    depth[idx] = depth[parent_index] + 1;
  }
  free(depth);
  return 0;
}

static int build_metrics(hpcdb_experiment *exp, const options *o) {
  hpcdb_scope exec = {"execution", HPCDB_SCOPE_EXECUTION, 255};
  hpcdb_scope func = {"function", HPCDB_SCOPE_TRANSITIVE, 0};
  uint32_t s_exec, s_func;
  if (hpcdb_add_scope(exp, &exec, &s_exec) < 0 || hpcdb_add_scope(exp, &func, &s_func) < 0) return -1;
  for (uint32_t m = 0; m < o->metrics; m++) {
    char name[32];
    snprintf(name, sizeof name, "METRIC%u (events)", m);
    uint32_t idx;
    if (hpcdb_add_metric(exp, name, &idx) < 0 ||
        hpcdb_metric_add_instance(exp, idx, s_exec, (uint16_t)(2 * m)) < 0 ||
        hpcdb_metric_add_instance(exp, idx, s_func, (uint16_t)(2 * m + 1)) < 0)
      return -1;
    hpcdb_summary se = {s_exec, "$$", HPCDB_COMBINE_SUM, (uint16_t)(2 * m)};
    hpcdb_summary sf = {s_func, "$$", HPCDB_COMBINE_SUM, (uint16_t)(2 * m + 1)};
    if (hpcdb_metric_add_summary(exp, idx, &se) < 0 || hpcdb_metric_add_summary(exp, idx, &sf) < 0)
      return -1;
  }
  return 0;
}

/* Values: each thread profile has values at a random subset of contexts;
 * the summary profile holds the sums (dense accumulator over C × 2M). */
static int build_profiles(hpcdb_experiment *exp, const options *o) {
  uint32_t kinds[3];
  const char *names[3] = {"NODE", "RANK", "THREAD"};
  for (int i = 0; i < 3; i++)
    if (hpcdb_add_kind_name(exp, names[i], &kinds[i]) < 0) return -1;
  uint32_t nprop = 2 * o->metrics;
  uint64_t dense = (uint64_t)(o->contexts + 1) * nprop;
  double *sum = calloc(dense, sizeof *sum);
  uint32_t *ctx = malloc(((size_t)o->contexts + 1) * sizeof *ctx);
  uint64_t *starts = malloc(((size_t)o->contexts + 2) * sizeof *starts);
  uint16_t *mid = malloc(dense * sizeof *mid);
  double *val = malloc(dense * sizeof *val);
  int rc = -1;
  if (!sum || !ctx || !starts || !mid || !val) goto out;
  if (hpcdb_add_profile(exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL) < 0) goto out;
  uint32_t threshold = (uint32_t)(o->density * 1000000.0);
  for (uint32_t p = 0; p < o->profiles; p++) {
    hpcdb_id ids[3] = {{(uint16_t)kinds[0], HPCDB_ID_PHYSICAL, p / 64, 0x7f000000u + p / 64},
                       {(uint16_t)kinds[1], 0, p / o->threads_per_rank, p / o->threads_per_rank},
                       {(uint16_t)kinds[2], 0, p % o->threads_per_rank, p % o->threads_per_rank}};
    uint32_t pi;
    if (hpcdb_add_profile(exp, 0, 1, ids, 3, &pi) < 0) goto out;
    uint32_t n_ctxs = 0;
    uint64_t n = 0;
    for (uint32_t id = 0; id <= o->contexts; id++) {
      if (id != 0 && below(1000000) >= threshold) continue;
      ctx[n_ctxs] = id;
      starts[n_ctxs++] = n;
      for (uint32_t m = 0; m < nprop; m++) {
        double v = (double)(1 + below(1000)) * 1e-3;
        if (perturbed(id, o->perturb)) v *= 1.5;
        mid[n] = (uint16_t)m;
        val[n++] = v;
        sum[(uint64_t)id * nprop + m] += v;
      }
    }
    starts[n_ctxs] = n;
    if (hpcdb_profile_set_csr(exp, pi, n_ctxs, ctx, starts, n, mid, val) < 0) goto out;
  }
  uint32_t n_ctxs = 0;
  uint64_t n = 0;
  for (uint32_t id = 0; id <= o->contexts; id++) {
    int any = 0;
    for (uint32_t m = 0; m < nprop; m++) {
      double v = sum[(uint64_t)id * nprop + m];
      if (v == 0) continue;
      if (!any) {
        ctx[n_ctxs] = id;
        starts[n_ctxs++] = n;
        any = 1;
      }
      mid[n] = (uint16_t)m;
      val[n++] = v;
    }
  }
  starts[n_ctxs] = n;
  rc = hpcdb_profile_set_csr(exp, 0, n_ctxs, ctx, starts, n, mid, val);
out:
  free(sum);
  free(ctx);
  free(starts);
  free(mid);
  free(val);
  return rc < 0 ? -1 : 0;
}

int main(int argc, char **argv) {
  options o;
  if (parse(&o, argc, argv) < 0) {
    fprintf(stderr, "usage: gen_v4db [--profiles P] [--contexts C] [--metrics M] [--density D] "
                    "[--seed S] [--perturb F] -o DIR\n");
    return 2;
  }
  rng_state = o.seed;
  hpcdb_experiment *exp;
  if (hpcdb_experiment_new(&exp) < 0) return die("new");
  if (hpcdb_set_title(exp, "synthetic", "generated by bench/gen_v4db") < 0 || build_tree(exp, &o) < 0)
    return die("tree");
  if (build_metrics(exp, &o) < 0) return die("metrics");
  if (build_profiles(exp, &o) < 0) return die("profiles");
  if (hpcdb_hpctk4_write(exp, o.out, HPCDB_WRITE_FORCE) < 0) return die("write");
  hpcdb_experiment_free(exp);
  return 0;
}
