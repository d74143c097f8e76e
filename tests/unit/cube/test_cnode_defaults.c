/* SPDX-License-Identifier: BSD-3-Clause */
/* Cnodes without HPCToolkit parameters (cnode_defaults.c): in a file that
 * declares hpctoolkit::cnode-defaults = "role", a cnode calling an hpcdb
 * region of role "code" is a line reached lexically that propagates, "loop"
 * a loop, and anything else a called function; a parameter overrides its
 * default (a line with propagation 0, a loop reached by a call). Without the
 * attribute (older hpcdb files, other producers) the defaults stay a call of
 * a function with propagation 0, whatever the role. hpcdb's own Cube files
 * of the v4.0 samples carry no parameter a default stands for, and read back
 * with every context's relation, lexical type and propagation as the source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube/cube.h"
#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

#define REGION(id, name, role)                                          \
  "<region id=\"" id "\" mod=\"a.c\" begin=\"1\" end=\"9\"><name>" name \
  "</name><paradigm>hpctoolkit</paradigm>"                              \
  "<role>" role "</role></region>"

/* The model of an anchor with a function, a line, a loop and a line with its
 * own parameters, with or without the attribute. */
static hpcdb_experiment *model_of(int declared) {
  char xml[4096];
  snprintf(xml, sizeof xml,
           "<cube version=\"4.4\">%s<metrics><metric id=\"0\" type=\"INCLUSIVE\"><uniq_name>t</uniq_name>"
           "<dtype>DOUBLE</dtype></metric></metrics><program>" REGION("0", "main", "function") REGION("1", "a.c:3", "code")
           REGION("2", "loop at a.c:4", "loop") REGION("3", "a.c:5", "code")
           "<cnode id=\"0\" calleeId=\"0\"><cnode id=\"1\" line=\"3\" mod=\"a.c\" calleeId=\"1\"/>"
           "<cnode id=\"2\" line=\"4\" mod=\"a.c\" calleeId=\"2\">"
           "<cnode id=\"3\" line=\"5\" mod=\"a.c\" calleeId=\"3\">"
           "<parameter partype=\"numeric\" parkey=\"hpctoolkit::propagation\" parvalue=\"0\"/>"
           "<parameter partype=\"string\" parkey=\"hpctoolkit::relation\" parvalue=\"call\"/></cnode>"
           "</cnode></cnode></program><system><location Id=\"0\"><name>t</name><rank>0</rank></location></system>"
           "</cube>",
           declared ? "<attr key=\"" CUBE_CNODE_DEFAULTS_KEY "\" value=\"role\"/>" : "");
  cube_anchor a;
  hpcdb_experiment *exp = NULL;
  uint32_t entry;
  CHECK_RC(cube_anchor_parse(&a, (const uint8_t *)xml, strlen(xml), "defaults-test"));
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK_RC(cube_build_model(exp, &a, "defaults-test", &entry));
  cube_anchor_free(&a);
  return exp;
}

static const hpcdb_context *cnode(const hpcdb_experiment *exp, uint32_t id) {
  for (uint32_t i = 0; i < exp->n_contexts; i++)
    if (exp->contexts[i].kind == HPCDB_CTX_NORMAL && exp->contexts[i].id == id + 1) return &exp->contexts[i];
  CHECK(0);
  return &exp->contexts[0];
}

static void is(const hpcdb_context *c, int relation, int lexical, int propagation) {
  if (c->relation != relation || c->lexical_type != lexical || c->propagation != propagation)
    fprintf(stderr, "context %u: relation %u lexical %u propagation %u\n", c->id, c->relation, c->lexical_type,
            c->propagation);
  CHECK(c->relation == relation && c->lexical_type == lexical && c->propagation == propagation);
}

static void made_up(void) {
  hpcdb_experiment *exp = model_of(1);
  is(cnode(exp, 0), HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, 0);
  is(cnode(exp, 1), HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, 1);
  is(cnode(exp, 2), HPCDB_REL_LEXICAL, HPCDB_LEX_LOOP, 1);
  is(cnode(exp, 3), HPCDB_REL_CALL, HPCDB_LEX_LINE, 0);
  hpcdb_experiment_free(exp);
  exp = model_of(0);
  for (uint32_t id = 0; id < 4; id++) is(cnode(exp, id), HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, 0);
  hpcdb_experiment_free(exp);
}

/* How many normal contexts have each (relation, lexical type, propagation). */
static void tally(const hpcdb_experiment *exp, uint32_t *counts) {
  memset(counts, 0, 4 * 4 * 4 * sizeof *counts);
  for (uint32_t i = 0; i < exp->n_contexts; i++) {
    const hpcdb_context *c = &exp->contexts[i];
    if (c->kind == HPCDB_CTX_NORMAL)
      counts[(c->relation & 3) * 16 + (c->lexical_type & 3) * 4 + (c->propagation & 3)]++;
  }
}

static void samples(void) {
  static const char *const dbs[] = {"cpi-mpi", "hpcviewer-issue-328", "lmp-openmp", "loop-fork-cycles",
                                    "ping-pong-mpi"};
  const char *tmp = testlib_tmpdir("unit-cube-cnode-defaults");
  for (size_t i = 0; i < sizeof dbs / sizeof *dbs; i++) {
    char rel[256], out[4096];
    snprintf(rel, sizeof rel, "hpctoolkit-v4/%s", dbs[i]);
    snprintf(out, sizeof out, "%s/%s.cubex", tmp, dbs[i]);
    hpcdb_experiment *src, *back;
    hpcdb_cube_write_options wo = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, HPCDB_WRITE_FORCE};
    CHECK_RC(hpcdb_read(&src, testlib_sample(rel)));
    CHECK_RC(hpcdb_cube_write(src, out, &wo));
    CHECK_RC(hpcdb_read(&back, out));
    uint32_t want[64], got[64];
    tally(src, want);
    tally(back, got);
    if (memcmp(want, got, sizeof want) != 0) fprintf(stderr, "%s: the contexts read back differ\n", dbs[i]);
    CHECK(memcmp(want, got, sizeof want) == 0);
    hpcdb_experiment_free(src);
    hpcdb_experiment_free(back);
    uint8_t *xml;
    size_t len;
    CHECK(testlib_read_member(out, "anchor.xml", &xml, &len) == 0);
    cube_anchor a;
    CHECK_RC(cube_anchor_parse(&a, xml, len, out));
    for (uint32_t k = 0; k < a.n_params; k++) { /* a parameter is written only where it is not the default */
      const cube_param *p = &a.params[k];
      const cube_cnode *n = &a.cnodes[p->cnode];
      int role = CUBE_ROLE_OTHER;
      for (uint32_t r = 0; r < a.n_regions; r++)
        if (a.regions[r].id == n->callee) role = a.regions[r].role;
      uint8_t relation, lexical;
      uint16_t propagation;
      cube_cnode_defaults(role, &relation, &lexical, &propagation);
      static const char *const relations[] = {"lexical", "call", "inlined call"};
      static const char *const lexicals[] = {"function", "loop", "line", "instruction"};
      char prop[16];
      snprintf(prop, sizeof prop, "%u", propagation);
      CHECK(strcmp(p->key, "hpctoolkit::relation") || strcmp(p->value, relations[relation]));
      CHECK(strcmp(p->key, "hpctoolkit::lexical") || strcmp(p->value, lexicals[lexical]));
      CHECK(strcmp(p->key, "hpctoolkit::propagation") || strcmp(p->value, prop));
    }
    cube_anchor_free(&a);
    free(xml);
  }
}

int main(void) {
  made_up();
  if (testlib_have_samples()) samples();
  else printf("sample data not found: samples skipped\n");
  return TEST_END();
}
