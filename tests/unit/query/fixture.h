/* SPDX-License-Identifier: BSD-3-Clause */
/* A small experiment for the query tests: <program root> > <main thread> >
 * main > {work > kernel, io}, two metrics ("time (sec)", "cycles") with point
 * and execution scopes, a summary profile and three thread profiles. */
#ifndef HPCDB_TEST_QUERY_FIXTURE_H
#define HPCDB_TEST_QUERY_FIXTURE_H

#include <stdlib.h>

#include "hpcdb/hpcdb.h"

/* exclusive time per thread of main, work, io, kernel; cycles are 10x time */
static const double fixture_exc[3][4] = {{0.2, 0.5, 0, 1}, {0.3, 0.5, 0, 2}, {0.5, 1, 1, 3}};

static int fixture_fn(hpcdb_experiment *e, const char *name, uint32_t *out) {
  hpcdb_function f = {name, HPCDB_NONE, 0, 0, 10, 0};
  uint32_t file;
  if (hpcdb_add_file(e, "/src/app.c", 0, &file) < 0) return -1;
  f.file = file;
  return hpcdb_add_function(e, &f, out);
}

static hpcdb_experiment *fixture(void) {
  hpcdb_experiment *e;
  if (hpcdb_experiment_new(&e) < 0) return NULL;
  uint32_t point, exec, m, k;
  hpcdb_scope sp = {"point", HPCDB_SCOPE_POINT, 0}, se = {"execution", HPCDB_SCOPE_EXECUTION, 0};
  hpcdb_add_scope(e, &sp, &point);
  hpcdb_add_scope(e, &se, &exec);
  const char *names[2] = {"time (sec)", "cycles"};
  for (uint16_t i = 0; i < 2; i++) {
    hpcdb_add_metric(e, names[i], &m);
    hpcdb_metric_add_instance(e, m, point, (uint16_t)(2 * i));
    hpcdb_metric_add_instance(e, m, exec, (uint16_t)(2 * i + 1));
    hpcdb_summary s1 = {point, "$$", HPCDB_COMBINE_SUM, (uint16_t)(2 * i)},
                  s2 = {exec, "$$", HPCDB_COMBINE_SUM, (uint16_t)(2 * i + 1)};
    hpcdb_metric_add_summary(e, m, &s1);
    hpcdb_metric_add_summary(e, m, &s2);
  }
  uint32_t fmain, fwork, fio, fkernel, entry, cmain, cwork, cio, ckernel;
  fixture_fn(e, "main", &fmain);
  fixture_fn(e, "work", &fwork);
  fixture_fn(e, "io", &fio);
  fixture_fn(e, "kernel", &fkernel);
  hpcdb_context c = {0};
  c.id = 1, c.kind = HPCDB_CTX_ENTRY, c.entry_point = HPCDB_ENTRY_MAIN, c.name = "main thread";
  c.function = c.file = c.module = HPCDB_NONE;
  hpcdb_add_context(e, &c, 0, &entry);
  c.kind = HPCDB_CTX_NORMAL, c.relation = HPCDB_REL_CALL, c.lexical_type = HPCDB_LEX_FUNCTION, c.name = NULL;
  c.id = 2, c.function = fmain;
  hpcdb_add_context(e, &c, entry, &cmain);
  c.id = 3, c.function = fwork, c.file = 0, c.line = 42;
  hpcdb_add_context(e, &c, cmain, &cwork);
  c.id = 4, c.function = fio, c.line = 7;
  hpcdb_add_context(e, &c, cmain, &cio);
  c.id = 5, c.function = fkernel, c.line = 42;
  hpcdb_add_context(e, &c, cwork, &ckernel);
  hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &k);
  uint32_t thread_kind;
  hpcdb_add_kind_name(e, "THREAD", &thread_kind);
  uint32_t ctx[6] = {2, 3, 4, 5, 1, 0}; /* the entry and the root hold inclusive values only */
  double sum[6][2] = {{0}};
  for (uint32_t t = 0; t < 3; t++) {
    hpcdb_id id = {(uint16_t)thread_kind, 0, t, t};
    uint32_t p;
    hpcdb_add_profile(e, 0, 1, &id, 1, &p);
    uint32_t cs[32];
    uint16_t ms[32];
    double vs[32];
    uint64_t n = 0;
    double all = fixture_exc[t][0] + fixture_exc[t][1] + fixture_exc[t][2] + fixture_exc[t][3];
    for (int i = 0; i < 6; i++) {
      double inc = i >= 4 || i == 0 ? all : i == 1 ? fixture_exc[t][1] + fixture_exc[t][3] : fixture_exc[t][i];
      double exc = i < 4 ? fixture_exc[t][i] : 0;
      for (uint16_t mi = 0; mi < 2; mi++) {
        double scale = mi ? 10 : 1;
        cs[n] = ctx[i], ms[n] = (uint16_t)(2 * mi), vs[n++] = exc * scale;
        cs[n] = ctx[i], ms[n] = (uint16_t)(2 * mi + 1), vs[n++] = inc * scale;
      }
      sum[i][0] += exc;
      sum[i][1] += inc;
    }
    hpcdb_profile_set_values(e, p, n, cs, ms, vs);
  }
  uint32_t cs[32];
  uint16_t ms[32];
  double vs[32];
  uint64_t n = 0;
  for (int i = 0; i < 6; i++)
    for (uint16_t mi = 0; mi < 2; mi++) {
      double scale = mi ? 10 : 1;
      cs[n] = ctx[i], ms[n] = (uint16_t)(2 * mi), vs[n++] = sum[i][0] * scale;
      cs[n] = ctx[i], ms[n] = (uint16_t)(2 * mi + 1), vs[n++] = sum[i][1] * scale;
    }
  hpcdb_profile_set_values(e, k, n, cs, ms, vs);
  return e;
}

#endif
