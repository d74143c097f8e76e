/* SPDX-License-Identifier: BSD-3-Clause */
/* anchor.xml parsed in two halves at once (anchor.c) gives what the whole
 * parse gives, field by field: on every sample Cube file and hpcdb's copy of
 * it (split at any size here), and on made-up anchors where the split's
 * guess holds (a declared ISO-8859-1 encoding with a non-ASCII name, a
 * region after the first cnode, an attribute after the system tree) or
 * fails and the whole parse is used instead (metrics after the cnodes, the
 * cnodes inside another element, a "<cnode" in a comment before them). A
 * second half that is not well formed fails with the whole parse's message.
 * Unquoted attribute values (CubeW) are read, split or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube/cube.h"
#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static int same_str(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

/* Every field of both anchors, in order. */
static int same_anchor(const cube_anchor *a, const cube_anchor *b) {
  int same = !strcmp(a->version, b->version) && a->n_metrics == b->n_metrics && a->n_regions == b->n_regions &&
             a->n_cnodes == b->n_cnodes && a->n_locations == b->n_locations && a->n_attrs == b->n_attrs &&
             a->n_params == b->n_params && a->n_nodes == b->n_nodes;
  for (uint32_t i = 0; same && i < a->n_metrics; i++) {
    const cube_metric *x = &a->metrics[i], *y = &b->metrics[i];
    same = x->id == y->id && same_str(x->uniq, y->uniq) && same_str(x->disp, y->disp) && same_str(x->dtype, y->dtype) &&
           same_str(x->uom, y->uom) && same_str(x->descr, y->descr) && x->flavour == y->flavour &&
           x->aggregate == y->aggregate && x->derived == y->derived && x->stored_only == y->stored_only &&
           x->parent == y->parent;
  }
  for (uint32_t i = 0; same && i < a->n_regions; i++) {
    const cube_region *x = &a->regions[i], *y = &b->regions[i];
    same = x->id == y->id && same_str(x->name, y->name) && same_str(x->mod, y->mod) && x->begin == y->begin &&
           same_str(x->module, y->module) && x->offset == y->offset && x->unnamed == y->unnamed &&
           x->synthetic == y->synthetic;
  }
  for (uint32_t i = 0; same && i < a->n_cnodes; i++) {
    const cube_cnode *x = &a->cnodes[i], *y = &b->cnodes[i];
    same = x->id == y->id && x->callee == y->callee && x->parent == y->parent && x->line == y->line &&
           same_str(x->mod, y->mod);
  }
  for (uint32_t i = 0; same && i < a->n_locations; i++) {
    const cube_location *x = &a->locations[i], *y = &b->locations[i];
    same = x->id == y->id && x->rank == y->rank && x->group_rank == y->group_rank && same_str(x->node, y->node) &&
           x->node_index == y->node_index;
  }
  for (uint32_t i = 0; same && i < a->n_attrs; i++)
    same = same_str(a->attrs[i].key, b->attrs[i].key) && same_str(a->attrs[i].value, b->attrs[i].value);
  for (uint32_t i = 0; same && i < a->n_params; i++)
    same = a->params[i].cnode == b->params[i].cnode && same_str(a->params[i].key, b->params[i].key) &&
           same_str(a->params[i].value, b->params[i].value);
  return same;
}

/* xml parsed whole and split at any size: the same anchor, or the same
 * error; `halves` says whether the split must have been used. */
static void same_parse(const char *what, const uint8_t *xml, size_t len, int halves) {
  cube_anchor whole, split;
  char message[1024];
  int halved = -1;
  int rc = cube_anchor_parse_halves(&whole, xml, len, "anchor-test", SIZE_MAX, NULL);
  snprintf(message, sizeof message, "%s", hpcdb_last_error());
  int rc2 = cube_anchor_parse_halves(&split, xml, len, "anchor-test", 0, &halved);
  int ok = rc == rc2 && (rc < 0 ? !strcmp(message, hpcdb_last_error()) : same_anchor(&whole, &split));
  if (!ok || (halves >= 0 && halved != halves))
    fprintf(stderr, "%s: whole %d, split %d (halved %d, want %d): %s\n", what, rc, rc2, halved, halves, message);
  CHECK(ok);
  CHECK(halves < 0 || halved == halves);
  if (rc == 0) cube_anchor_free(&whole);
  if (rc2 == 0) cube_anchor_free(&split);
}

static void same_text(const char *what, const char *xml, int halves) {
  same_parse(what, (const uint8_t *)xml, strlen(xml), halves);
}

#define METRICS                                                                                   \
  "<metrics><metric id=\"0\" type=\"INCLUSIVE\"><disp_name>t</disp_name><uniq_name>t</uniq_name>" \
  "<dtype>DOUBLE</dtype></metric></metrics>"
#define REGION "<region id=\"0\" mod=\"m.c\" begin=\"1\" end=\"2\"><name>f</name></region>"
#define SYSTEM                                                                                      \
  "<system><systemtreenode Id=\"0\"><name>n</name><class>node</class><locationgroup Id=\"0\">"      \
  "<name>p</name><rank>3</rank><type>process</type><location Id=\"0\"><name>t</name><rank>0</rank>" \
  "<type>thread</type></location></locationgroup></systemtreenode></system>"

static void made_up(void) {
  same_text("plain",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><cube version=\"4.0\"><attr key=\"k\" value=\"v\"/>" METRICS
            "<program>" REGION
            "<cnode id=\"0\" calleeId=\"0\"><parameter partype=\"string\" parkey=\"a\" parvalue=\"b\"/>"
            "<cnode id=\"1\" calleeId=\"0\" line=\"7\" mod=\"x.c\"/></cnode></program>" SYSTEM "</cube>",
            1);
  same_text("latin-1",
            "<?xml version='1.0' encoding='ISO-8859-1'?><cube version=\"4.0\">" METRICS "<program>" REGION
            "<cnode id=\"0\" calleeId=\"0\" mod=\"caf\xe9.c\"/></program>" SYSTEM "</cube>",
            1);
  same_text(
      "region after a cnode",
      "<cube>" METRICS "<program>" REGION
      "<cnode id=\"0\" calleeId=\"0\"/>"
      "<region id=\"1\" mod=\"m.c\" begin=\"3\" end=\"4\"><name>g</name><attr key=\"hpctoolkit::module\" value=\"/a\"/>"
      "</region></program>" SYSTEM "<attr key=\"late\" value=\"1\"/></cube>",
      1);
  same_text("metric after the cnodes",
            "<cube><program>" REGION "<cnode id=\"0\" calleeId=\"0\"/></program>" METRICS SYSTEM "</cube>", 0);
  same_text("cnodes elsewhere",
            "<cube>" METRICS "<program><tree>" REGION
            "<cnode id=\"0\" calleeId=\"0\"/></tree>"
            "</program>" SYSTEM "</cube>",
            0);
  same_text("a cnode in a comment",
            "<cube>" METRICS "<!-- <cnode id=\"9\"> --><program>" REGION
            "<cnode id=\"0\" calleeId=\"0\"/></program>" SYSTEM "</cube>",
            0);
  same_text("system first",
            "<cube>" SYSTEM METRICS "<program>" REGION "<cnode id=\"0\" calleeId=\"0\"/></program></cube>", 0);
  same_text("second half not well formed",
            "<cube>" METRICS "<program>" REGION
            "<cnode id=\"0\" calleeId=\"0\">"
            "</program>" SYSTEM "</cube>",
            0);
  same_text("second half without an id", "<cube>" METRICS "<program>" REGION "<cnode calleeId=\"0\"/></program></cube>",
            0);
  same_text("no cnode", "<cube>" METRICS "<program>" REGION "</program>" SYSTEM "</cube>", 0);
  /* CubeW's unquoted values: parsed again quoted, either way */
  const char *bare =
      "<cube version=4.0>" METRICS "<program>" REGION "<cnode id=0 calleeId=0 line=12/></program>" SYSTEM "</cube>";
  same_text("unquoted values", bare, -1);
  cube_anchor a;
  CHECK_RC(cube_anchor_parse(&a, (const uint8_t *)bare, strlen(bare), "anchor-test"));
  CHECK(!strcmp(a.version, "4.0") && a.n_cnodes == 1 && a.cnodes[0].line == 12);
  cube_anchor_free(&a);
}

/* Each sample's anchor.xml, and that of hpcdb's copy (which must split). */
static void samples(void) {
  static const char *const names[] = {
      "all-dtypes",          "blast.p64.bigendian", "call_tree_test",    "cube-4.0-legacy-system",
      "dense-index-8-roots", "scorep-cpi",          "threaded-example1", "time.p4"};
  const char *tmp = testlib_tmpdir("unit-cube-anchor-split");
  char rel[256], copy[4096];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    snprintf(rel, sizeof rel, "cube/%s.cubex", names[i]);
    snprintf(copy, sizeof copy, "%s/%s.cubex", tmp, names[i]);
    hpcdb_experiment *exp;
    hpcdb_cube_write_options wo = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, 0, HPCDB_WRITE_FORCE};
    CHECK_RC(hpcdb_read(&exp, testlib_sample(rel)));
    CHECK_RC(hpcdb_cube_write(exp, copy, &wo));
    hpcdb_experiment_free(exp);
    const char *paths[] = {testlib_sample(rel), copy};
    for (int k = 0; k < 2; k++) {
      uint8_t *xml;
      size_t len;
      CHECK(testlib_read_member(paths[k], "anchor.xml", &xml, &len) == 0);
      same_parse(paths[k], xml, len, k == 1 ? 1 : -1);
      free(xml);
    }
  }
}

int main(void) {
  made_up();
  if (testlib_have_samples()) samples();
  else printf("sample data not found: samples skipped\n");
  return TEST_END();
}
