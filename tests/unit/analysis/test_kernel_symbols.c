/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel frames: a measurement whose load map holds hpcrun's "<vmlinux.HASH>"
 * and whose kernel_symbols/ keeps that kernel's symbols gets, as hpcprof, a
 * function context "NAME [MODULE] <vmlinux>" for each kernel frame (the text
 * symbol at or before its address, reaching to the next text symbol), with
 * the instruction as a hidden child holding the value; without the symbols
 * file the frame stays an instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_file.h"
#include "testlib.h"

static hpcrun_str str(const char *s) { return (hpcrun_str){s, (uint32_t)strlen(s)}; }

static uint64_t packed(const char name[8]) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | (uint8_t)name[i];
  return v;
}

/* One thread: main -> app frame -> kernel frames at the given addresses (leaves, value 1 each). */
static int write_measurement(const char *dir) {
  hpcrun_file f;
  memset(&f, 0, sizeof f);
  memcpy(f.version, "04.00", 6);
  f.major = 4;
  hpcrun_nvpair pairs[] = {{str("program-name"), str("kernel-test")}};
  f.header = (hpcrun_nvlist){1, pairs};
  hpcrun_lm_entry lms[2] = {{1, str("/opt/app"), 1}, {2, str("<vmlinux.0badc0de>"), 1}};
  f.t.lm = lms;
  f.t.n_lm = 2;
  hpcrun_metric_desc m;
  memset(&m, 0, sizeof m);
  m.name = m.description = str("CPUTIME (sec)");
  m.flags[0] = 1;
  m.flags[2] = HPCRUN_VALFMT_REAL;
  m.flags[6] = m.flags[7] = 1;
  m.period = 1;
  m.formula = m.format = str("");
  f.t.metrics = &m;
  f.t.n_metrics = 1;
  f.t.metric_tail = 1;
  hpcrun_cct_node nodes[] = {
      {.id = 2, .parent = 0, .lm_id = 0, .ip = packed("^Primary"), .flags = 1},
      {.id = 4, .parent = 2, .lm_id = 0, .ip = packed("| Main  "), .flags = 1},
      {.id = 6, .parent = 4, .lm_id = 1, .ip = 0x1234, .flags = 1},
      {.id = 8, .parent = 6, .lm_id = 2, .ip = 0xffffffff81000010ull, .flags = 1}, /* in _stext */
      {.id = 10, .parent = 6, .lm_id = 2, .ip = 0xffffffff81000208ull, .flags = 1}, /* ext4_read, past a data symbol */
      {.id = 12, .parent = 6, .lm_id = 2, .ip = 0xffffffff81000300ull, .flags = 1}, /* the alias's address */
  };
  f.t.nodes = nodes;
  f.t.n_nodes = 6;
  uint64_t one;
  double v = 1;
  memcpy(&one, &v, sizeof one);
  uint64_t bits[3] = {one, one, one};
  uint16_t mids[3] = {0, 0, 0};
  uint32_t ctx_ids[4] = {8, 10, 12, HPCRUN_SPARSE_SENTINEL};
  uint64_t starts[4] = {0, 1, 2, 3};
  f.sparse = (hpcrun_sparse){0};
  f.sparse.value_bits = bits;
  f.sparse.metric_ids = mids;
  f.sparse.ctx_ids = ctx_ids;
  f.sparse.ctx_starts = starts;
  f.sparse.n_values = 3;
  f.sparse.n_nz_ctxs = 3;
  char path[4096];
  snprintf(path, sizeof path, "%s/kernel-test-000000-000-7f000001-1-0.hpcrun", dir);
  return hpcrun_file_write(&f, path);
}

/* The name of the function of the context one level above a value's hidden context. */
static const hpcdb_context *find_function(const hpcdb_experiment *e, const char *name) {
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    const hpcdb_context *c = &e->contexts[i];
    if (c->function != HPCDB_NONE && !strcmp(e->functions[c->function].name, name)) return c;
  }
  return NULL;
}

int main(void) {
  const char *dir = testlib_tmpdir("kernel_symbols");
  char meas[4096], syms[4096];
  snprintf(meas, sizeof meas, "%s/meas", dir);
  mkdir(meas, 0777);
  CHECK_RC(write_measurement(meas));
  hpcdb_experiment *e;
  /* no kernel_symbols/: three instruction contexts */
  CHECK_RC(hpcdb_analyze(&e, meas, NULL, NULL, NULL, NULL));
  if (e) {
    CHECK(find_function(e, "_stext <vmlinux>") == NULL);
    uint32_t insns = 0;
    for (uint32_t i = 0; i < e->n_contexts; i++) insns += e->contexts[i].lexical_type == HPCDB_LEX_INSTRUCTION;
    CHECK(insns == 4);
    hpcdb_experiment_free(e);
  }
  snprintf(syms, sizeof syms, "%s/kernel_symbols", meas);
  mkdir(syms, 0777);
  snprintf(syms, sizeof syms, "%s/kernel_symbols/vmlinux.0badc0de", meas);
  static const char kallsyms[] = "ffffffff81000000 T _stext\n"
                                 "ffffffff81000100 D some_data\n"
                                 "ffffffff81000200 t ext4_read\t[ext4]\n"
                                 "not a line\n"
                                 "ffffffff81000300 T first_alias\n"
                                 "ffffffff81000300 T second_alias\n";
  CHECK_RC(testlib_write_file(syms, kallsyms, sizeof kallsyms - 1));
  CHECK_RC(hpcdb_analyze(&e, meas, NULL, NULL, NULL, NULL));
  if (e) {
    const hpcdb_context *st = find_function(e, "_stext <vmlinux>"), *ex = find_function(e, "ext4_read [ext4] <vmlinux>");
    const hpcdb_context *al = find_function(e, "first_alias <vmlinux>");
    CHECK(st && ex && al && !find_function(e, "second_alias <vmlinux>") && !find_function(e, "some_data <vmlinux>"));
    if (st) {
      const hpcdb_function *fn = &e->functions[st->function];
      CHECK(fn->offset == 0xffffffff81000000ull && fn->file == HPCDB_NONE);
      CHECK(st->relation == HPCDB_REL_CALL && st->lexical_type == HPCDB_LEX_FUNCTION);
    }
    uint32_t insns = 0;
    for (uint32_t i = 0; i < e->n_contexts; i++) insns += e->contexts[i].lexical_type == HPCDB_LEX_INSTRUCTION;
    CHECK(insns == 1); /* only the app frame: the kernel's instructions are hidden */
    hpcdb_experiment_free(e);
  }
  return TEST_END();
}
