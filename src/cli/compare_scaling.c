/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb compare --param: a scaling study. Per calling path (frames), the
 * value at each parameter value (the mean over the runs that share it; per
 * run the mean over its profiles when it has several, else its value), the
 * speedup and parallel efficiency from the smallest to the largest value,
 * and a model in Extra-P's normal form; the paths whose models grow fastest
 * come first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_cli.h"

typedef struct study {
  double *p; /* distinct parameter values, ascending */
  uint32_t n_p;
  uint32_t *slot; /* per run: its index in p */
} study;

typedef struct path_model {
  uint32_t node;
  hpcdb_scaling_model m;
  double *v; /* per parameter value */
} path_model;

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static int cmp_model(const void *x, const void *y) {
  const path_model *a = x, *b = y;
  double ga = hpcdb_scaling_growth(&a->m), gb = hpcdb_scaling_growth(&b->m);
  if (ga != gb) return ga > gb ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

static double run_value(const compare_cli *c, uint32_t node, uint32_t r) {
  size_t k = (size_t)node * c->n_runs + r;
  return c->cmp->n_profiles[r] > 1 ? c->cmp->pmean[k] : c->cmp->inc[k];
}

static void values_of(const compare_cli *c, const study *s, uint32_t node, double *v) {
  uint32_t count[1024] = {0};
  memset(v, 0, s->n_p * sizeof *v);
  for (uint32_t r = 0; r < c->n_runs; r++) {
    v[s->slot[r]] += run_value(c, node, r);
    count[s->slot[r]]++;
  }
  for (uint32_t i = 0; i < s->n_p; i++) v[i] /= count[i] ? count[i] : 1;
}

static int make_study(const compare_cli *c, study *s) {
  s->p = malloc(c->n_runs * sizeof *s->p);
  s->slot = malloc(c->n_runs * sizeof *s->slot);
  if (!s->p || !s->slot) return -1;
  memcpy(s->p, c->params, c->n_runs * sizeof *s->p);
  qsort(s->p, c->n_runs, sizeof *s->p, cmp_double);
  s->n_p = 0;
  for (uint32_t i = 0; i < c->n_runs; i++)
    if (s->n_p == 0 || s->p[s->n_p - 1] != s->p[i]) s->p[s->n_p++] = s->p[i];
  for (uint32_t r = 0; r < c->n_runs; r++)
    for (uint32_t i = 0; i < s->n_p; i++)
      if (s->p[i] == c->params[r]) s->slot[r] = i;
  return 0;
}

static void print_text(FILE *out, const compare_cli *c, const study *s, path_model *pm, uint32_t n) {
  double seconds = c->cmp->seconds[0];
  char buf[64], model[160], path[4096];
  fprintf(out, "scaling study over %s: %u runs at %u values (", c->param_name, c->n_runs, s->n_p);
  for (uint32_t i = 0; i < s->n_p; i++) fprintf(out, "%s%g", i ? ", " : "", s->p[i]);
  fprintf(out, "), metric \"%s\"\n", c->runs[0]->metrics[c->cmp->metric[0]].name);
  fprintf(out,
          "value: inclusive, the mean per profile where a run has several; models: Extra-P's normal form, "
          "up to %d terms, chosen by leave-one-out SMAPE\n",
          HPCDB_SCALING_MAX_TERMS);
  if (s->n_p < 5)
    fprintf(out, "note: %u parameter values; Extra-P asks for at least 5 for a model to be trusted\n", s->n_p);
  fputc('\n', out);
  for (uint32_t i = 0; i < s->n_p; i++) {
    snprintf(buf, sizeof buf, "p=%g", s->p[i]);
    fprintf(out, "%10s ", buf);
  }
  int width = 5; /* the model column: as wide as the longest model */
  for (uint32_t k = 0; k < n; k++) {
    int len = (int)hpcdb_scaling_format(&pm[k].m, model, sizeof model);
    if (len > width) width = len;
  }
  fprintf(out, "%8s %6s  %-*s %7s  %s\n", "speedup", "effic.", width, "model", "SMAPE", "path");
  for (uint32_t k = 0; k < n; k++) {
    for (uint32_t i = 0; i < s->n_p; i++) {
      compare_value(buf, sizeof buf, pm[k].v[i], seconds);
      fprintf(out, "%10s ", buf);
    }
    double first = pm[k].v[0], last = pm[k].v[s->n_p - 1];
    double speedup = last > 0 ? first / last : 0, eff = speedup * s->p[0] / s->p[s->n_p - 1];
    hpcdb_scaling_format(&pm[k].m, model, sizeof model);
    hpcdb_align_path(c->cmp->al, pm[k].node, path, sizeof path);
    fprintf(out, "%8.2f %5.0f%%  %-*s %6.2f%%  %s\n", speedup, eff * 100, width, model, pm[k].m.smape, path);
  }
}

static void print_csv(FILE *out, const compare_cli *c, const study *s, path_model *pm, uint32_t n) {
  char model[160], path[4096];
  fprintf(out, "path,model,c0");
  for (int t = 1; t <= HPCDB_SCALING_MAX_TERMS; t++) fprintf(out, ",c%d,exponent%d,log2_exponent%d", t, t, t);
  fprintf(out, ",smape,adjusted_r2,speedup,efficiency");
  for (uint32_t i = 0; i < s->n_p; i++) fprintf(out, ",%s=%g", c->param_name, s->p[i]);
  fputc('\n', out);
  for (uint32_t k = 0; k < n; k++) {
    const hpcdb_scaling_model *m = &pm[k].m;
    double first = pm[k].v[0], last = pm[k].v[s->n_p - 1], speedup = last > 0 ? first / last : 0;
    hpcdb_align_path(c->cmp->al, pm[k].node, path, sizeof path);
    hpcdb_scaling_format(m, model, sizeof model);
    compare_csv_text(out, path);
    fputc(',', out);
    compare_csv_text(out, model);
    fprintf(out, ",%.12g", m->c0);
    for (uint32_t t = 0; t < HPCDB_SCALING_MAX_TERMS; t++) /* a term the model has not: empty */
      if (t < m->n_terms)
        fprintf(out, ",%.12g,%.12g,%d", m->terms[t].c, (double)m->terms[t].num / m->terms[t].den, m->terms[t].log_exp);
      else fprintf(out, ",,,");
    fprintf(out, ",%.6g,%.6g,%.6g,%.6g", m->smape, m->ar2, speedup, speedup * s->p[0] / s->p[s->n_p - 1]);
    for (uint32_t i = 0; i < s->n_p; i++) fprintf(out, ",%.12g", pm[k].v[i]);
    fputc('\n', out);
  }
}

int compare_print_scaling(FILE *out, const compare_cli *c) {
  const hpcdb_alignment *al = c->cmp->al;
  study s = {0};
  int rc = -1;
  path_model *pm = calloc(al->n_nodes, sizeof *pm);
  double *values = NULL;
  if (!pm || make_study(c, &s) < 0 || s.n_p > 1024) goto done;
  if (s.n_p < 2) {
    fprintf(stderr, "hpcdb compare: a scaling study needs runs at two or more values of %s\n", c->param_name);
    goto done;
  }
  if (!(values = malloc((size_t)al->n_nodes * s.n_p * sizeof *values))) goto done;
  double *root = values; /* node 0's values come first */
  uint32_t n = 0;
  for (uint32_t k = 0; k < al->n_nodes; k++) {
    double *v = values + (size_t)k * s.n_p;
    values_of(c, &s, k, v);
    if (!al->nodes[k].is_frame) continue;
    int big = 0;
    for (uint32_t i = 0; i < s.n_p; i++) big |= v[i] != 0 && fabs(v[i]) >= c->min_share * fabs(root[i]);
    if (!big || hpcdb_scaling_fit(&pm[n].m, s.p, v, s.n_p) < 0) continue;
    pm[n].node = k;
    pm[n++].v = v;
  }
  qsort(pm, n, sizeof *pm, cmp_model);
  if (c->top && n > c->top) n = c->top;
  if (c->csv) print_csv(out, c, &s, pm, n);
  else print_text(out, c, &s, pm, n);
  rc = 0;
done:
  free(pm), free(values), free(s.p), free(s.slot);
  return rc;
}
