/* SPDX-License-Identifier: BSD-3-Clause */
/* Scopes without a line are no rows (query/shown.h), and siblings of one name show their call
 * sites (when lines fold into functions, --scopes functions): in the top-down report, the query
 * layer (the viewer's), folded stacks and the flame graph. The tree: main > "[app]":0 > loop without a line > app.c:12 > kernel, and main >
 * app.c:20 > relax, main > app.c:21 > relax. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"
#include "testlib.h"

enum { C_ENTRY = 1, C_MAIN, C_EMPTY_LINE, C_LOOP, C_LINE12, C_KERNEL, C_LINE20, C_RELAX_A, C_LINE21, C_RELAX_B, N_IDS };

static void add(hpcdb_experiment *e, uint32_t id, uint32_t parent_id, uint8_t rel, uint8_t lex, uint32_t fn,
                uint32_t file, uint32_t line, uint32_t module, uint64_t offset) {
  hpcdb_context c = {0};
  c.id = id, c.kind = HPCDB_CTX_NORMAL, c.relation = rel, c.lexical_type = lex;
  c.function = fn, c.file = file, c.line = line, c.module = module, c.offset = offset;
  uint32_t at;
  CHECK_RC(hpcdb_add_context(e, &c, hpcdb_find_context(e, parent_id), &at));
}

static hpcdb_experiment *tree(void) {
  hpcdb_experiment *e;
  CHECK_RC(hpcdb_experiment_new(&e));
  uint32_t point, exec, m, mod, placeholder, app, fmain, fkernel, frelax, p;
  hpcdb_scope sp = {"point", HPCDB_SCOPE_POINT, 0}, se = {"execution", HPCDB_SCOPE_EXECUTION, 0};
  hpcdb_add_scope(e, &sp, &point);
  hpcdb_add_scope(e, &se, &exec);
  hpcdb_add_metric(e, "time (sec)", &m);
  hpcdb_metric_add_instance(e, m, point, 0);
  hpcdb_metric_add_instance(e, m, exec, 1);
  hpcdb_summary s0 = {point, "$$", HPCDB_COMBINE_SUM, 0}, s1 = {exec, "$$", HPCDB_COMBINE_SUM, 1};
  hpcdb_metric_add_summary(e, m, &s0);
  hpcdb_metric_add_summary(e, m, &s1);
  hpcdb_add_module(e, "/bin/app", 0, &mod);
  hpcdb_add_file(e, "[app]", 0, &placeholder); /* hpcstruct's file of code without line info */
  hpcdb_add_file(e, "/src/app.c", 0, &app);
  hpcdb_function f = {"main", mod, 0x100, app, 5, 0};
  hpcdb_add_function(e, &f, &fmain);
  f.name = "kernel", f.offset = 0x200;
  hpcdb_add_function(e, &f, &fkernel);
  f.name = "relax", f.offset = 0x300;
  hpcdb_add_function(e, &f, &frelax);
  hpcdb_context entry = {0};
  entry.id = C_ENTRY, entry.kind = HPCDB_CTX_ENTRY, entry.entry_point = HPCDB_ENTRY_MAIN, entry.name = "main thread";
  entry.function = entry.file = entry.module = HPCDB_NONE;
  uint32_t at;
  CHECK_RC(hpcdb_add_context(e, &entry, 0, &at));
  const uint32_t none = HPCDB_NONE;
  add(e, C_MAIN, C_ENTRY, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fmain, none, 0, none, 0);
  add(e, C_EMPTY_LINE, C_MAIN, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, none, placeholder, 0, none, 0);
  add(e, C_LOOP, C_EMPTY_LINE, HPCDB_REL_LEXICAL, HPCDB_LEX_LOOP, none, none, 0, mod, 0x1c1d0);
  add(e, C_LINE12, C_LOOP, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, none, app, 12, none, 0);
  add(e, C_KERNEL, C_LINE12, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fkernel, none, 0, none, 0);
  add(e, C_LINE20, C_MAIN, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, none, app, 20, none, 0);
  add(e, C_RELAX_A, C_LINE20, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, frelax, none, 0, none, 0);
  add(e, C_LINE21, C_MAIN, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, none, app, 21, none, 0);
  add(e, C_RELAX_B, C_LINE21, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, frelax, none, 0, none, 0);
  CHECK_RC(hpcdb_add_profile(e, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, &p));
  /* exclusive: kernel 4, the empty line 1 (its own cost: main's), relax 2 and 3 */
  const uint32_t ids[] = {0,        C_ENTRY,  C_MAIN,    C_EMPTY_LINE, C_LOOP,   C_LINE12,
                          C_KERNEL, C_LINE20, C_RELAX_A, C_LINE21,     C_RELAX_B};
  const double inc[] = {10, 10, 10, 5, 4, 4, 4, 2, 2, 3, 3}, exc[] = {0, 0, 0, 1, 0, 0, 4, 0, 2, 0, 3};
  uint32_t cs[22];
  uint16_t ms[22];
  double vs[22];
  uint64_t n = 0;
  for (int i = 0; i < 11; i++) {
    cs[n] = ids[i], ms[n] = 1, vs[n++] = inc[i];
    if (exc[i] != 0) cs[n] = ids[i], ms[n] = 0, vs[n++] = exc[i];
  }
  CHECK_RC(hpcdb_profile_set_values(e, p, n, cs, ms, vs));
  return e;
}

/* scopes: 0 the default, 1 all, 2 functions */
static int top_down(FILE *out, const hpcdb_experiment *e, const void *scopes) {
  hpcdb_report_options o = {0};
  o.width = 120;
  o.threshold = 0.001;
  o.all_scopes = *(const int *)scopes == 1;
  o.functions_only = *(const int *)scopes == 2;
  return hpcdb_report(out, e, &o);
}

static int folded(FILE *out, const hpcdb_experiment *e, const void *arg) {
  (void)arg;
  return hpcdb_export_folded(out, e, NULL, NULL);
}

static int flame(FILE *out, const hpcdb_experiment *e, const void *arg) {
  (void)arg;
  return hpcdb_export_flamegraph(out, e, NULL);
}

static void check_report(const hpcdb_experiment *e) {
  int rc, all = 0;
  char *text = testlib_printed(top_down, e, &all, &rc);
  CHECK(rc == 0 && text);
  if (!text) return;
  CHECK(!strstr(text, ":0 ") && !strstr(text, "[app]")); /* the empty line is no row */
  CHECK(!strstr(text, "loop at"));                       /* nor the loop without a line */
  CHECK(strstr(text, "\n      app.c:12 ") != NULL);      /* main's child now (depth 3) */
  CHECK(!strstr(text, "\xe2\x86\x90"));                  /* the two relax rows are under lines of their own */
  free(text);
  all = 2;
  text = testlib_printed(top_down, e, &all, &rc);
  CHECK(rc == 0 && text && strstr(text, "relax \xe2\x86\x90 app.c:20") && strstr(text, "relax \xe2\x86\x90 app.c:21"));
  CHECK(text && !strstr(text, "kernel \xe2\x86\x90")); /* no twin, no call site */
  free(text);
  all = 1;
  text = testlib_printed(top_down, e, &all, &rc);
  CHECK(rc == 0 && text && strstr(text, "loop at app+0x1c1d0"));
  CHECK(text && !strstr(text, "[app]"));
  free(text);
}

static void check_query(const hpcdb_experiment *e) {
  hpcdb_query *q;
  CHECK_RC(hpcdb_query_from_experiment(&q, e));
  if (!q) return;
  uint32_t main_ctx = hpcdb_find_context(e, C_MAIN), line12 = hpcdb_find_context(e, C_LINE12), n, total, parent;
  CHECK_RC(hpcdb_query_n_children(q, HPCDB_QVIEW_TOP_DOWN, main_ctx, &n));
  CHECK(n == 3); /* app.c:12 (through the hidden two), app.c:20, app.c:21 */
  hpcdb_qcolumn col;
  CHECK_RC(hpcdb_query_default_column(q, &col));
  hpcdb_qsort s = {col, 0, 0};
  hpcdb_qnode kids[8];
  CHECK_RC(hpcdb_query_children(q, HPCDB_QVIEW_TOP_DOWN, main_ctx, &s, 0, 8, kids, &n, &total));
  CHECK(n == 3 && kids[0] == line12);
  CHECK_RC(hpcdb_query_parent(q, HPCDB_QVIEW_TOP_DOWN, line12, &parent));
  CHECK(parent == main_ctx);
  char name[256];
  hpcdb_query_name(q, HPCDB_QVIEW_TOP_DOWN, hpcdb_find_context(e, C_RELAX_B), name, sizeof name);
  CHECK(!strcmp(name, "relax"));
  hpcdb_qnode hits[4];
  CHECK_RC(hpcdb_query_search(q, "loop|\\[app\\]", 0, 4, hits, &n, &total));
  CHECK(total == 0);
  hpcdb_query_close(q);
}

static void check_exports(const hpcdb_experiment *e) {
  int rc;
  char *text = testlib_printed(folded, e, NULL, &rc);
  CHECK(rc == 0 && text);
  CHECK(text && strstr(text, "<main thread>;main 1\n")); /* the empty line's own cost */
  CHECK(text && strstr(text, "<main thread>;main;app.c:12;kernel 4\n"));
  CHECK(text && strstr(text, "main;app.c:21;relax 3\n"));
  free(text);
  text = testlib_printed(flame, e, NULL, &rc);
  CHECK(rc == 0 && text && !strstr(text, "loop at") && !strstr(text, "[app]") && strstr(text, "app.c:12"));
  free(text);
}

int main(void) {
  hpcdb_experiment *e = tree();
  if (e) {
    check_report(e);
    check_query(e);
    check_exports(e);
  }
  hpcdb_experiment_free(e);
  return TEST_END();
}
