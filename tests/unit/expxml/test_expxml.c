/* SPDX-License-Identifier: BSD-3-Clause */
/* The experiment.xml parser on hand-written snippets: each element kind,
 * entities, table references by id and by name, negative and repeated ids
 * (draft a), unknown elements kept as attributes, inline values, and the
 * problems it reports with line and column. */
#include <string.h>

#include "older/expxml/expxml.h"
#include "testlib.h"

#define HEAD "<?xml version=\"1.0\"?>\n<HPCToolkitExperiment version=\"2.0\">\n"

static const char tables[] =
    "<Header n=\"t&amp;itle\"><Info><NV n=\"k\" v=\"v&lt;1&gt;\"/></Info></Header>\n"
    "<SecCallPathProfile i=\"0\" n=\"other\"><SecHeader>\n"
    "<MetricTable><Metric i=\"2\" n=\"T:Sum (I)\" t=\"inclusive\" partner=\"3\"><Info><NV n=\"units\" "
    "v=\"s\"/></Info></Metric>\n"
    "<Metric i=\"3\" n=\"T:Sum (E)\" t=\"exclusive\" partner=\"2\"/></MetricTable>\n"
    "<MetricDBTable><MetricDB i=\"0\" n=\"T (I)\" t=\"inclusive\" db-id=\"0\" db-num-metrics=\"2\" "
    "db-glob=\"*.metric-db\"/></MetricDBTable>\n"
    "<LoadModuleTable><LoadModule i=\"5\" n=\"/bin/app\"/></LoadModuleTable>\n"
    "<FileTable><File i=\"6\" n=\"app.c\"/></FileTable>\n"
    "<ProcedureTable><Procedure i=\"7\" n=\"main\"/><Procedure i=\"8\" n=\"inl\" v=\"0x40\"/></ProcedureTable>\n"
    "</SecHeader>\n";

static int parse(hpcdb_experiment **exp, expxml_doc *doc, const char *body, const expxml_options *opt) {
  static char xml[8192];
  snprintf(xml, sizeof xml, HEAD "%s%s</HPCToolkitExperiment>\n", tables, body);
  return expxml_read_buffer(exp, xml, strlen(xml), "snippet.xml", opt, doc);
}

static const char *attr(const hpcdb_experiment *e, const char *key) {
  for (uint32_t i = 0; i < e->n_attrs; i++)
    if (!strcmp(e->attrs[i].key, key)) return e->attrs[i].value;
  return NULL;
}

static void every_element(void) {
  const expxml_options opt = {1, 0, 0, NULL, NULL};
  hpcdb_experiment *e;
  expxml_doc d;
  CHECK_RC(parse(&e, &d,
                 "<SecCallPathProfileData><M n=\"2\" v=\"10\"/>\n"
                 "<PF i=\"2\" n=\"7\" lm=\"5\" f=\"6\" l=\"3\"><M n=\"2\" v=\"10\"/><M n=\"3\" v=\"1.5e0\"/>\n"
                 "<L i=\"3\" l=\"4\"><S i=\"4\" l=\"5\"><M n=\"3\" v=\"2\"/></S>\n"
                 "<C i=\"5\" l=\"6\"><PF i=\"6\" n=\"puts\" lm=\"/lib/libc.so\" f=\"io.c\" l=\"0\"/></C></L>\n"
                 "<Pr i=\"7\" n=\"8\" f=\"6\" l=\"9\" a=\"1\"><S i=\"8\" l=\"10\"/></Pr>\n"
                 "<Future i=\"9\" x=\"y\"><PF i=\"10\" n=\"7\"/></Future><Future/>\n"
                 "</PF></SecCallPathProfileData></SecCallPathProfile>\n",
                 &opt));
  CHECK(!strcmp(d.version, "2.0"));
  CHECK(e->title && !strcmp(e->title, "t&itle")); /* entities decoded */
  CHECK(attr(e, "info.k") && !strcmp(attr(e, "info.k"), "v<1>"));
  CHECK(attr(e, "xml.Future") && !strcmp(attr(e, "xml.Future"), "i=9 x=y")); /* first occurrence only */
  CHECK(hpcdb_find_context(e, 10) == HPCDB_NONE);                            /* its subtree is skipped */
  CHECK(d.n_metrics == 2 && d.n_metric_dbs == 1);
  CHECK(d.metrics[0].type == EXPXML_INCLUSIVE && d.metrics[0].partner == 3 && !strcmp(d.metrics[0].unit, "s"));
  CHECK(d.metric_dbs[0].db_num_metrics == 2 && !strcmp(d.metric_dbs[0].db_glob, "*.metric-db"));
  CHECK(e->n_contexts == 9 && d.n_frames == 7 && d.max_xml_id == 8);
  uint32_t entry = hpcdb_find_context(e, 1), pf = hpcdb_find_context(e, 2), loop = hpcdb_find_context(e, 3);
  uint32_t s = hpcdb_find_context(e, 4), call = hpcdb_find_context(e, 6), pr = hpcdb_find_context(e, 7);
  CHECK(entry != HPCDB_NONE && e->contexts[entry].kind == HPCDB_CTX_ENTRY && e->contexts[entry].parent == 0);
  CHECK(pf != HPCDB_NONE && e->contexts[pf].parent == entry && e->contexts[pf].relation == HPCDB_REL_CALL);
  const hpcdb_function *main_fn = &e->functions[e->contexts[pf].function];
  CHECK(!strcmp(main_fn->name, "main") && !strcmp(e->modules[main_fn->module].path, "/bin/app") &&
        !strcmp(e->files[main_fn->file].path, "app.c") && main_fn->line == 3);
  CHECK(e->contexts[loop].lexical_type == HPCDB_LEX_LOOP && e->contexts[loop].relation == HPCDB_REL_LEXICAL &&
        e->contexts[loop].propagation == 1 && e->contexts[loop].line == 4);
  CHECK(e->contexts[s].lexical_type == HPCDB_LEX_LINE && !strcmp(e->files[e->contexts[s].file].path, "app.c"));
  const hpcdb_function *puts_fn = &e->functions[e->contexts[call].function]; /* names, not ids */
  CHECK(!strcmp(puts_fn->name, "puts") && !strcmp(e->modules[puts_fn->module].path, "/lib/libc.so") &&
        !strcmp(e->files[puts_fn->file].path, "io.c"));
  CHECK(e->contexts[pr].relation == HPCDB_REL_INLINED_CALL && e->functions[e->contexts[pr].function].offset == 0x40);
  CHECK(d.n_values == 4 && d.n_runs == 3 && d.run_ctx[0] == 1 && d.run_ctx[1] == 2 && d.run_ctx[2] == 4);
  CHECK(d.run_start[1] == 1 && d.run_start[2] == 3 && d.run_start[3] == 4);
  CHECK(d.value_metric[2] == 1 && d.value[2] == 1.5);
  expxml_doc_free(&d);
  hpcdb_experiment_free(e);
}

static void draft_ids(void) {
  const expxml_options opt = {0, 1, 0, NULL, NULL};
  hpcdb_experiment *e;
  expxml_doc d;
  CHECK_RC(parse(&e, &d,
                 "<SecCallPathProfileData><PF i=\"2\" n=\"7\"><C i=\"-2\" l=\"1\"><PF i=\"3\" n=\"7\"/></C>"
                 "<S i=\"3\" l=\"2\"/><S l=\"3\"/></PF></SecCallPathProfileData></SecCallPathProfile>\n",
                 &opt));
  uint64_t fresh;
  /* fresh ids follow the largest XML id (the entry point's first, in document order) */
  CHECK(d.n_fresh == 4 && e->contexts[1].id == 4 && e->contexts[1].kind == HPCDB_CTX_ENTRY);
  CHECK(u64map_get(&d.xml_ids, (uint64_t)(int64_t)-2, &fresh) && fresh == 5);
  CHECK(hpcdb_find_context(e, (uint32_t)fresh) != HPCDB_NONE);
  CHECK(u64map_get(&d.xml_ids, 3, &fresh) && fresh == 6); /* repeated */
  CHECK(e->n_contexts == 7 && d.max_xml_id == 3 && hpcdb_find_context(e, 7) != HPCDB_NONE);
  expxml_doc_free(&d);
  hpcdb_experiment_free(e);
}

static int problems;
static char last_rule[64];
static void count(void *user, uint64_t offset, const char *rule, const char *detail) {
  (void)user, (void)offset, (void)detail;
  problems++;
  snprintf(last_rule, sizeof last_rule, "%s", rule);
}

static void problems_reported(void) {
  static const struct {
    const char *body, *rule;
  } cases[] = {
      {"<SecCallPathProfileData><PF i=\"2\" n=\"99\"/></SecCallPathProfileData></SecCallPathProfile>",
       "dangling-procedure"},
      {"<SecCallPathProfileData><PF i=\"2\" n=\"7\" lm=\"99\"/></SecCallPathProfileData></SecCallPathProfile>",
       "dangling-module"},
      {"<SecCallPathProfileData><PF i=\"2\" n=\"7\" f=\"99\"/></SecCallPathProfileData></SecCallPathProfile>",
       "dangling-file"},
      {"<SecCallPathProfileData><PF i=\"2\" n=\"7\"/><PF i=\"2\" "
       "n=\"7\"/></SecCallPathProfileData></SecCallPathProfile>",
       "duplicate-id"},
      {"<SecCallPathProfileData><PF i=\"-4\" n=\"7\"/></SecCallPathProfileData></SecCallPathProfile>", "ctx-id"},
      {"<SecCallPathProfileData><PF i=\"2\" n=\"7\"><M n=\"9\" "
       "v=\"1\"/></PF></SecCallPathProfileData></SecCallPathProfile>",
       "dangling-metric"},
      {"<SecCallPathProfileData><PF i=\"2\" n=\"7\"><M n=\"2\" "
       "v=\"x\"/></PF></SecCallPathProfileData></SecCallPathProfile>",
       "value"},
      {"<PF i=\"2\" n=\"7\"/></SecCallPathProfile>", "misplaced"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    hpcdb_experiment *e;
    expxml_doc d;
    const expxml_options strict = {1, 0, 0, NULL, NULL}, lenient = {1, 0, 0, count, NULL};
    CHECK(parse(&e, &d, cases[k].body, &strict) == HPCDB_ECORRUPT && !e);
    CHECK(strstr(hpcdb_last_error(), cases[k].rule) && strstr(hpcdb_last_error(), "line "));
    problems = 0;
    CHECK_RC(parse(&e, &d, cases[k].body, &lenient));
    CHECK(problems == 1 && d.problems == 1 && !strcmp(last_rule, cases[k].rule));
    expxml_doc_free(&d);
    hpcdb_experiment_free(e);
  }
}

static void not_well_formed(void) {
  static const char *const bodies[] = {"<SecCallPathProfileData><PF i=\"2\" n=\"7\"></SecCallPathProfileData>",
                                       "<SecCallPathProfileData><PF i=\"2\" n=\"7\" &bad;/>", ""};
  for (size_t k = 0; k < 3; k++) {
    hpcdb_experiment *e;
    expxml_doc d;
    const expxml_options opt = {1, 0, 0, count, NULL};
    CHECK(parse(&e, &d, bodies[k], &opt) == HPCDB_ECORRUPT);
    CHECK(strstr(hpcdb_last_error(), "snippet.xml: line ") && strstr(hpcdb_last_error(), ": not well-formed: "));
  }
  hpcdb_experiment *e;
  expxml_doc d;
  const expxml_options opt = {1, 0, 0, NULL, NULL};
  CHECK(expxml_read_buffer(&e, "<other/>", 8, "x.xml", &opt, &d) == HPCDB_ENOTFORMAT && !e);
}

int main(void) {
  every_element();
  draft_ids();
  problems_reported();
  not_well_formed();
  return TEST_END();
}
