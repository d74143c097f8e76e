/* SPDX-License-Identifier: BSD-3-Clause */
/* The draft-b meta.db parser against bytes laid out by hand from the
 * document: the 7-section header, a binary entry larger than the document's
 * 12 bytes, a function whose def_line is ignored (no file), a root node with
 * empty specifications, and a child with an inlined-call specification that
 * has a caller source line and trailing bytes, and a lexical specification
 * with is_call_srcline, a flag bit beyond the document and a trailing byte. */
#include <stdio.h>
#include <string.h>

#include "common/bytes.h"
#include "older/draftb/draftb.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static void section(uint8_t *d, unsigned i, uint64_t size, uint64_t off) {
  wr_be64(d + 24 + 16 * i, size);
  wr_be64(d + 32 + 16 * i, off);
}

static size_t make_meta(uint8_t *d) {
  memset(d, 0, 408);
  memcpy(d, "HPCTOOLKIT_expmt", 16);
  d[16] = 4;
  wr_be16(d + 18, 7);
  /* the document's order: General, Metric, Tree, Strings, Binary, File, Function */
  section(d, 0, 9, 144);
  section(d, 1, 27, 160);
  section(d, 2, 80, 320);
  section(d, 3, 9, 192);
  section(d, 4, 22, 208);
  section(d, 5, 18, 240);
  section(d, 6, 46, 272);
  memcpy(d + 144, "T\0\0\1RANK", 9); /* title, then 1 identifier kind */
  wr_be32(d + 160, 1);
  wr_be16(d + 164, 1);
  memcpy(d + 166, "m", 2);
  wr_be16(d + 168, 4); /* raw_mid */
  wr_be16(d + 170, 1); /* one summary */
  memcpy(d + 172, "function", 9);
  wr_be16(d + 181, 9); /* summary_mid */
  d[183] = 0;          /* sum */
  memcpy(d + 184, "$$", 3);
  memcpy(d + 192, "/a\0f.c\0g", 9); /* strings at 192, 195, 199 */
  wr_be32(d + 208, 1);
  wr_be16(d + 212, 16); /* 4 bytes more than the document's entry */
  wr_be32(d + 214, 7);
  wr_be64(d + 218, 192);
  wr_be32(d + 240, 1);
  wr_be16(d + 244, 12);
  wr_be32(d + 246, 1);
  wr_be64(d + 250, 195);
  wr_be32(d + 272, 1);
  wr_be16(d + 276, 40);
  wr_be64(d + 282, 199);  /* name */
  wr_be64(d + 290, 214);  /* binary */
  wr_be64(d + 298, 0x40); /* offset in it */
  wr_be32(d + 314, 9);    /* def_line without a file: ignored */
  wr_be64(d + 320, 22);   /* root block */
  wr_be32(d + 328, 7);
  wr_be64(d + 332, 350);
  wr_be64(d + 340, 50);
  wr_be32(d + 350, 8);
  d[370] = 16; /* callee: type, flags, caller file + line, 2 trailing bytes */
  d[371] = 12; /* lexical: type, flags, func_ptr, 1 trailing byte */
  d[372] = 1;  /* inlined call */
  d[373] = 1;  /* has_caller_srcline */
  wr_be64(d + 374, 246);
  wr_be32(d + 382, 12);
  d[388] = 0;               /* function-like */
  wr_be16(d + 389, 0x0109); /* has_function, is_call_srcline, bit 8 */
  wr_be64(d + 391, 278);
  memcpy(d + 400, "nmBDFORP", 8);
  return 408;
}

static const char *attr(const hpcdb_experiment *e, const char *key) {
  for (uint32_t i = 0; i < e->n_attrs; i++)
    if (!strcmp(e->attrs[i].key, key)) return e->attrs[i].value;
  return "";
}

int main(void) {
  uint8_t d[408];
  size_t n = make_meta(d);
  hpcdb_experiment *e;
  draftb_meta m;
  CHECK_RC(hpcdb_experiment_new(&e));
  CHECK_RC(draftb_parse_meta(&m, e, d, n, "meta.db"));
  CHECK(!strcmp(e->title, "T") && e->description == NULL && e->n_kind_names == 1 && !strcmp(e->kind_names[0], "RANK"));
  CHECK(e->n_scopes == 1 && e->scopes[0].type == HPCDB_SCOPE_TRANSITIVE && e->scopes[0].propagation_index == 0);
  CHECK(e->n_metrics == 1 && e->metrics[0].n_instances == 1 && e->metrics[0].instances[0].prop_metric_id == 4);
  CHECK(e->metrics[0].n_summaries == 1 && e->metrics[0].summaries[0].stat_metric_id == 9 &&
        !strcmp(e->metrics[0].summaries[0].formula, "$$"));
  CHECK(e->n_modules == 1 && !strcmp(e->modules[0].path, "/a") && e->modules[0].flags == 7);
  CHECK(e->n_files == 1 && !strcmp(e->files[0].path, "f.c") && e->files[0].flags == 1);
  CHECK(e->n_functions == 1 && !strcmp(e->functions[0].name, "g") && e->functions[0].module == 0 &&
        e->functions[0].offset == 0x40 && e->functions[0].file == HPCDB_NONE && e->functions[0].line == 0);
  CHECK(e->n_contexts == 3);
  const hpcdb_context *root = &e->contexts[1], *c = &e->contexts[2];
  CHECK(root->id == 7 && root->kind == HPCDB_CTX_ENTRY && root->relation == HPCDB_REL_LEXICAL &&
        root->propagation == 0);
  CHECK(c->id == 8 && c->parent == 1 && c->relation == HPCDB_REL_INLINED_CALL && c->lexical_type == HPCDB_LEX_FUNCTION);
  CHECK(c->function == 0 && c->flags == HPCDB_CTXF_FUNCTION /* is_call_srcline: not in v4.0's reserved bits */ &&
        c->propagation == 0);
  CHECK(!strcmp(attr(e, "draftb.caller-srcline.8"), "f.c:12"));
  CHECK(!strcmp(attr(e, "draftb.lex-flags.8"), "0x109"));
  hpcdb_experiment_free(e);

  /* as a database directory: valid (a note for the 7-section form) */
  const char *dir = testlib_tmpdir("draftb-meta-bytes");
  char path[4200];
  snprintf(path, sizeof path, "%s/meta.db", dir);
  CHECK_RC(testlib_write_file(path, d, n));
  hpcdb_validation r;
  CHECK(hpcdb_validate(&r, dir, NULL, NULL) == 0 && r.errors == 0 && r.notes >= 1);
  /* read as a directory without profile.db, and as the file itself */
  CHECK_RC(hpcdb_read(&e, dir));
  CHECK(e && !strcmp(e->format, "hpctoolkit-draft-b") && e->n_contexts == 3 && e->n_profiles == 0 && !e->has_traces);
  hpcdb_experiment_free(e);
  CHECK_RC(hpcdb_read(&e, path));
  CHECK(e && e->n_contexts == 3);
  hpcdb_experiment_free(e);

  /* the lexical specification one byte too short for its flags */
  d[371] = 10;
  CHECK_RC(hpcdb_experiment_new(&e));
  CHECK(draftb_parse_meta(&m, e, d, n, "meta.db") == HPCDB_ECORRUPT && !strcmp(m.rule, "lexical-size"));
  hpcdb_experiment_free(e);
  d[371] = 12;
  d[370] = 13; /* caller source line needs 14 */
  CHECK_RC(hpcdb_experiment_new(&e));
  CHECK(draftb_parse_meta(&m, e, d, n, "meta.db") == HPCDB_ECORRUPT && !strcmp(m.rule, "callee-size"));
  hpcdb_experiment_free(e);
  return TEST_END();
}
