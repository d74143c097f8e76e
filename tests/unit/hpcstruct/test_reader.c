/* SPDX-License-Identifier: BSD-3-Clause */
/* The structure-file reader: scopes as hpcprof reads them (an <A> pair is
 * one inlined procedure with the outer <A>'s call site), address lookup to
 * the innermost statement, the first statement in the file keeping shared
 * bytes, the first load module's name alone, empty files, and the real
 * samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcstruct.h"
#include "testlib.h"

static const char doc[] =
    "<?xml version=\"1.0\"?>\n"
    "<HPCToolkitStructure i=\"0\" version=\"4.9\" n=\"\">\n"
    "<LM i=\"2\" n=\"/bin/app\" has-calls=\"0\" v=\"{}\">\n"
    "<F i=\"3\" n=\"app.c\">\n"
    "<P i=\"4\" n=\"main\" ln=\"main_ln\" l=\"10\" v=\"{[0x100-0x101)}\">\n"
    "<S i=\"5\" l=\"10\" v=\"{[0x100-0x110)}\"/>\n"
    "<L i=\"6\" l=\"12\" f=\"app.c\" v=\"{[0x120-0x121)}\">\n"
    "<S i=\"7\" l=\"13\" v=\"{[0x110-0x120) [0x140-0x150)}\"/>\n"
    "<A i=\"8\" l=\"14\" f=\"app.c\" n=\"\">\n"
    "<A i=\"9\" l=\"3\" f=\"lib.h\" n=\"helper\" v=\"{}\">\n"
    "<L i=\"10\" l=\"4\" v=\"{[0x128-0x129)}\">\n"
    "<S i=\"11\" l=\"5\" v=\"{[0x120-0x130)}\"/>\n"
    "</L>\n"
    "</A>\n"
    "</A>\n"
    "<C i=\"12\" l=\"15\" v=\"{[0x130-0x135)}\" t=\"0x200\"/>\n"
    "</L>\n"
    "<S i=\"13\" l=\"16\" v=\"{[0x10c-0x118)}\"/>\n"
    "</P>\n"
    "</F>\n"
    "</LM>\n"
    "</HPCToolkitStructure>\n";

static void check_doc(void) {
  hpcdb_struct *s;
  CHECK_RC(hpcdb_hpcstruct_read_mem(&s, "doc.hpcstruct", doc, strlen(doc)));
  if (!s) return;
  CHECK(hpcdb_hpcstruct_n_modules(s) == 1);
  const hpcdb_struct_module *m = hpcdb_hpcstruct_module(s, 0);
  CHECK(!strcmp(m->name, "/bin/app"));
  CHECK(m->n_scopes == 9); /* P S L S (inlined) L S C S: the outer <A> is no scope */
  const hpcdb_struct_scope *p = &m->scopes[0];
  CHECK(p->kind == HPCDB_SCOPE_PROCEDURE && !strcmp(p->name, "main") && !strcmp(p->link_name, "main_ln"));
  CHECK(p->entry == 0x100 && p->line == 10 && !strcmp(p->file, "app.c") && p->parent == HPCDB_NONE);
  /* 0x125: statement line 5 in loop 4 in helper inlined at app.c:14, in loop 12 of main */
  uint32_t s5 = hpcdb_hpcstruct_lookup(m, 0x125);
  CHECK(s5 != HPCDB_NONE);
  if (s5 != HPCDB_NONE) {
    const hpcdb_struct_scope *st = &m->scopes[s5];
    CHECK(st->kind == HPCDB_SCOPE_STATEMENT && st->line == 5 && !strcmp(st->file, "lib.h"));
    const hpcdb_struct_scope *inner = &m->scopes[st->parent];
    CHECK(inner->kind == HPCDB_SCOPE_LOOP && inner->line == 4 && inner->entry == 0x128 &&
          !strcmp(inner->file, "lib.h"));
    const hpcdb_struct_scope *in = &m->scopes[inner->parent];
    CHECK(in->kind == HPCDB_SCOPE_INLINED && !strcmp(in->name, "helper") && in->line == 3);
    CHECK(!strcmp(in->file, "lib.h") && !strcmp(in->call_file, "app.c") && in->call_line == 14);
    const hpcdb_struct_scope *outer = &m->scopes[in->parent];
    CHECK(outer->kind == HPCDB_SCOPE_LOOP && outer->line == 12 && outer->parent == 0);
    CHECK(st->procedure == 0 && in->procedure == 0);
  }
  uint32_t c = hpcdb_hpcstruct_lookup(m, 0x134);
  CHECK(c != HPCDB_NONE && m->scopes[c].is_call && m->scopes[c].target == 0x200 && m->scopes[c].line == 15);
  CHECK(hpcdb_hpcstruct_lookup(m, 0x135) == HPCDB_NONE); /* a gap */
  CHECK(hpcdb_hpcstruct_lookup(m, 0xff) == HPCDB_NONE);
  CHECK(hpcdb_hpcstruct_lookup(m, 0x150) == HPCDB_NONE);
  /* line 16's [0x10c-0x118) overlaps lines 10 and 13, which came first: dropped */
  CHECK(m->n_shadowed == 1);
  CHECK(m->scopes[hpcdb_hpcstruct_lookup(m, 0x10c)].line == 10);
  CHECK(m->scopes[hpcdb_hpcstruct_lookup(m, 0x114)].line == 13);
  CHECK(m->scopes[hpcdb_hpcstruct_lookup(m, 0x145)].line == 13);
  for (uint32_t i = 1; i < m->n_ranges; i++) CHECK(m->ranges[i - 1].hi <= m->ranges[i].lo);
  hpcdb_hpcstruct_free(s);
}

static void check_empty_and_first_module(void) {
  hpcdb_struct *s;
  CHECK_RC(hpcdb_hpcstruct_read_mem(&s, "empty", "", 0));
  CHECK(s && hpcdb_hpcstruct_n_modules(s) == 0);
  hpcdb_hpcstruct_free(s);
  const char *dir = testlib_tmpdir("hpcstruct_reader");
  char path[4096];
  snprintf(path, sizeof path, "%s/doc.hpcstruct", dir);
  CHECK_RC(testlib_write_file(path, doc, 200)); /* cut short after the <LM> tag: its name is still there */
  char *name = NULL;
  CHECK_RC(hpcdb_hpcstruct_first_module(&name, path));
  CHECK(name && !strcmp(name, "/bin/app"));
  free(name);
  CHECK(hpcdb_hpcstruct_read(&s, path) == HPCDB_ECORRUPT && s == NULL);
  CHECK(strstr(hpcdb_last_error(), "doc.hpcstruct: line ") != NULL);
}

static void check_samples(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: real structure files skipped\n");
    return;
  }
  hpcdb_struct *s;
  CHECK_RC(hpcdb_hpcstruct_read(&s, testlib_sample("hpcrun/loops-cputime-t.m/structs/testmeas-loops.hpcstruct")));
  if (!s) return;
  const hpcdb_struct_module *m = hpcdb_hpcstruct_module(s, 0);
  uint32_t k = hpcdb_hpcstruct_lookup(m, 0x13e0); /* test_separated_loops_helper inlined at loops.c:1001 */
  CHECK(k != HPCDB_NONE && m->scopes[k].line == 35);
  if (k != HPCDB_NONE) {
    const hpcdb_struct_scope *in = &m->scopes[m->scopes[k].parent];
    CHECK(in->kind == HPCDB_SCOPE_INLINED && !strcmp(in->name, "test_separated_loops_helper") && in->call_line == 1001);
    CHECK(m->scopes[in->parent].kind == HPCDB_SCOPE_LOOP && m->scopes[in->parent].entry == 0x1401);
  }
  hpcdb_hpcstruct_free(s);
}

/* hpcstruct's guard alien (Struct-Output.cpp, doTreeNode): statements and
 * loops whose file is not the enclosing scope's, or whose line is before the
 * scope's, are wrapped in <A n="<inline>"> naming their file and line. It is
 * no scope: what it holds belongs to the enclosing procedure, in its file. */
static const char guarded[] =
    "<?xml version=\"1.0\"?>\n"
    "<HPCToolkitStructure i=\"0\" version=\"4.9\" n=\"\">\n"
    "<LM i=\"2\" n=\"/bin/app\" has-calls=\"0\" v=\"{}\">\n"
    "<F i=\"3\" n=\"app.c\">\n"
    "<P i=\"4\" n=\"f\" l=\"20\" v=\"{[0x100-0x101)}\">\n"
    "<A i=\"5\" l=\"19\" f=\"app.c\" n=\"&lt;inline&gt;\" v=\"{}\">\n"
    "<S i=\"6\" l=\"19\" v=\"{[0x100-0x104)}\"/>\n"
    "</A>\n"
    "<S i=\"7\" l=\"21\" v=\"{[0x104-0x110)}\"/>\n"
    "<A i=\"8\" l=\"7\" f=\"body.inc\" n=\"&lt;inline&gt;\" v=\"{}\">\n"
    "<S i=\"9\" l=\"7\" v=\"{[0x110-0x118)}\"/>\n"
    "<L i=\"10\" l=\"8\" f=\"body.inc\" v=\"{[0x118-0x119)}\">\n"
    "<S i=\"11\" l=\"8\" v=\"{[0x118-0x120)}\"/>\n"
    "</L>\n"
    "</A>\n"
    "</P>\n"
    "</F>\n"
    "</LM>\n"
    "</HPCToolkitStructure>\n";

/* The statement at addr: its line, file and the kind of its parent scope. */
static void check_stmt(const hpcdb_struct_module *m, uint64_t addr, uint32_t line, const char *file, int parent_kind) {
  uint32_t i = hpcdb_hpcstruct_lookup(m, addr);
  CHECK(i != HPCDB_NONE);
  if (i == HPCDB_NONE) return;
  const hpcdb_struct_scope *st = &m->scopes[i];
  CHECK(st->kind == HPCDB_SCOPE_STATEMENT && st->line == line && !strcmp(st->file, file));
  CHECK(st->parent != HPCDB_NONE && m->scopes[st->parent].kind == parent_kind);
}

static void check_guard_alien(void) {
  hpcdb_struct *s;
  CHECK_RC(hpcdb_hpcstruct_read_mem(&s, "guarded.hpcstruct", guarded, strlen(guarded)));
  if (!s) return;
  const hpcdb_struct_module *m = hpcdb_hpcstruct_module(s, 0);
  CHECK(m->n_scopes == 6); /* P S S S L S: the guards are no scopes */
  for (uint32_t i = 0; i < m->n_scopes; i++) CHECK(m->scopes[i].kind != HPCDB_SCOPE_INLINED);
  check_stmt(m, 0x102, 19, "app.c", HPCDB_SCOPE_PROCEDURE); /* before the procedure's line */
  check_stmt(m, 0x108, 21, "app.c", HPCDB_SCOPE_PROCEDURE);
  check_stmt(m, 0x112, 7, "body.inc", HPCDB_SCOPE_PROCEDURE); /* another file, not inlined */
  check_stmt(m, 0x11c, 8, "body.inc", HPCDB_SCOPE_LOOP);
  uint32_t st = hpcdb_hpcstruct_lookup(m, 0x11c);
  if (st != HPCDB_NONE) {
    const hpcdb_struct_scope *loop = &m->scopes[m->scopes[st].parent];
    CHECK(!strcmp(loop->file, "body.inc") && loop->line == 8 && loop->parent == 0);
  }
  hpcdb_hpcstruct_free(s);
}

int main(void) {
  check_guard_alien();
  check_doc();
  check_empty_and_first_module();
  check_samples();
  return TEST_END();
}
