/* SPDX-License-Identifier: BSD-3-Clause */
/* Structure from the binary itself: a measurement of this test program (its
 * own functions' addresses as frames) analyzed with no structure file reads
 * the binary (hpcdb struct in memory) and names the functions and source
 * lines; the same measurement with the structure file hpcdb struct writes
 * for the binary gives the same experiment (hpcdb_diff); and with
 * --ignore-structs, offsets. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/binstruct.h"
#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_file.h"
#include "testlib.h"

__attribute__((noinline)) int marked_leaf(int n);
__attribute__((noinline)) int marked_leaf(int n) {
  volatile int x = 0;
  for (int i = 0; i < n; i++) x += i;
  return x;
}

__attribute__((noinline)) int marked_caller(int n);
__attribute__((noinline)) int marked_caller(int n) { return marked_leaf(n) + 1; }

static hpcrun_str str(const char *s) { return (hpcrun_str){s, (uint32_t)strlen(s)}; }

static uint64_t packed(const char name[8]) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | (uint8_t)name[i];
  return v;
}

static uint64_t offset_of(void *fn) {
  Dl_info info;
  if (!dladdr(fn, &info) || !info.dli_fbase) return 0;
  return (uint64_t)((char *)fn - (char *)info.dli_fbase);
}

static int write_measurement(const char *dir, const char *binary) {
  hpcrun_file f;
  memset(&f, 0, sizeof f);
  memcpy(f.version, "04.00", 6);
  f.major = 4;
  hpcrun_nvpair pairs[] = {{str("program-name"), str("binary-structure-test")}};
  f.header = (hpcrun_nvlist){1, pairs};
  hpcrun_lm_entry lm = {1, str(binary), 1};
  f.t.lm = &lm;
  f.t.n_lm = 1;
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
  uint64_t caller = offset_of((void *)marked_caller), leaf = offset_of((void *)marked_leaf);
  hpcrun_cct_node nodes[] = {
      {.id = 2, .parent = 0, .lm_id = 0, .ip = packed("^Primary"), .flags = 1},
      {.id = 4, .parent = 2, .lm_id = 0, .ip = packed("| Main  "), .flags = 1},
      {.id = 6, .parent = 4, .lm_id = 1, .ip = caller + 4, .flags = 1},
      {.id = 8, .parent = 6, .lm_id = 1, .ip = leaf + 8, .flags = 1},
      {.id = 10, .parent = 6, .lm_id = 1, .ip = leaf, .flags = 1},
  };
  f.t.nodes = nodes;
  f.t.n_nodes = 5;
  double v = 1;
  uint64_t one;
  memcpy(&one, &v, sizeof one);
  uint64_t bits[2] = {one, one};
  uint16_t mids[2] = {0, 0};
  uint32_t ctx_ids[3] = {8, 10, HPCRUN_SPARSE_SENTINEL};
  uint64_t starts[3] = {0, 1, 2};
  f.sparse.value_bits = bits;
  f.sparse.metric_ids = mids;
  f.sparse.ctx_ids = ctx_ids;
  f.sparse.ctx_starts = starts;
  f.sparse.n_values = 2;
  f.sparse.n_nz_ctxs = 2;
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/binary-structure-000000-000-7f000001-1-0.hpcrun", dir);
  return hpcrun_file_write(&f, path);
}

static const hpcdb_context *function_context(const hpcdb_experiment *e, const char *name) {
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    const hpcdb_context *c = &e->contexts[i];
    if (c->function != HPCDB_NONE && e->functions[c->function].name && !strcmp(e->functions[c->function].name, name))
      return c;
  }
  return NULL;
}

/* A line context somewhere below c, in this source file. */
static int has_line_below(const hpcdb_experiment *e, const hpcdb_context *c) {
  for (uint32_t k = c->first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) {
    const hpcdb_context *x = &e->contexts[k];
    if (x->lexical_type == HPCDB_LEX_LINE && x->file != HPCDB_NONE &&
        strstr(e->files[x->file].path, "test_binary_structure.c") && x->line > 0)
      return 1;
    if (x->relation == HPCDB_REL_LEXICAL && has_line_below(e, x)) return 1;
  }
  return 0;
}

int main(void) {
  char binary[PATH_MAX];
  if (!realpath("/proc/self/exe", binary)) {
    printf("cannot find this program's binary: skipped\n");
    return 77;
  }
  const char *dir = testlib_tmpdir("binary_structure");
  char meas[PATH_MAX + 64], structs[PATH_MAX + 64], sfile[PATH_MAX + 96];
  snprintf(meas, sizeof meas, "%s/meas", dir);
  snprintf(structs, sizeof structs, "%s/structs", dir);
  mkdir(meas, 0777);
  mkdir(structs, 0777);
  CHECK_RC(write_measurement(meas, binary));
  hpcdb_experiment *direct = NULL, *via_file = NULL, *offsets = NULL;
  CHECK_RC(hpcdb_analyze(&direct, meas, NULL, NULL, NULL, NULL));
  snprintf(sfile, sizeof sfile, "%s/self.hpcstruct", structs);
  CHECK_RC(hpcdb_binstruct_write_file(binary, sfile, NULL, NULL, NULL));
  const char *paths[1] = {structs};
  hpcdb_analyze_options opt = {.threads = 1, .structs = paths, .n_structs = 1};
  CHECK_RC(hpcdb_analyze(&via_file, meas, &opt, NULL, NULL, NULL));
  hpcdb_analyze_options ignore = {.threads = 1, .ignore_structs = 1};
  CHECK_RC(hpcdb_analyze(&offsets, meas, &ignore, NULL, NULL, NULL));
  if (direct && via_file && offsets) {
    const hpcdb_context *leaf = function_context(direct, "marked_leaf");
    const hpcdb_context *caller = function_context(direct, "marked_caller");
    CHECK(leaf && caller && leaf->relation == HPCDB_REL_CALL);
    if (caller) CHECK(has_line_below(direct, caller));
    if (leaf) CHECK(has_line_below(direct, leaf));
    uint64_t n = 1;
    CHECK_RC(hpcdb_diff(&n, direct, via_file, NULL, NULL, NULL));
    CHECK(n == 0);
    CHECK(function_context(offsets, "marked_leaf") == NULL);
  }
  hpcdb_experiment_free(direct);
  hpcdb_experiment_free(via_file);
  hpcdb_experiment_free(offsets);
  return TEST_END();
}
