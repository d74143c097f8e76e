/* SPDX-License-Identifier: BSD-3-Clause */
/* Every real measurement file is read, checked against what xxd shows, and
 * written back byte-identically (profiles and traces). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_file.h"
#include "testlib.h"

static const char *const dirs[] = {"hpcrun/small.m", "hpcrun/loops-cputime-t.m"};

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void roundtrip_profile(const char *path, int *n_files) {
  uint8_t *orig;
  size_t len;
  CHECK(testlib_read_file(path, &orig, &len) == 0);
  hpcrun_file *f = NULL;
  CHECK_RC(hpcrun_file_parse(&f, orig, len, path, NULL));
  if (f) {
    uint8_t *again;
    uint64_t again_len;
    CHECK_RC(hpcrun_file_serialize(f, &again, &again_len));
    CHECK(again_len == len && memcmp(again, orig, len) == 0);
    free(again);
    CHECK(strcmp(f->version, "04.00") == 0);
    CHECK(f->t.n_metrics == 1 && strcmp(f->t.metrics[0].name.s, "CPUTIME (sec)") == 0);
    CHECK(f->t.metrics[0].flags[HPCRUN_MFLAG_VALFMT] == HPCRUN_VALFMT_REAL);
    CHECK(f->t.metric_tail == 1);
    CHECK(f->n_kinds == 8 && strcmp(f->kinds[7].name.s, "CORE") == 0);
    CHECK(f->sparse.ctx_ids[f->sparse.n_nz_ctxs] == HPCRUN_SPARSE_SENTINEL);
    CHECK(f->sparse.ctx_starts[f->sparse.n_nz_ctxs] == f->sparse.n_values);
    CHECK(f->sparse.n_ids == 3 && (f->sparse.ids[0].kind & HPCRUN_KIND_MASK) == 1);
    CHECK(f->t.n_nodes > 0 && f->t.nodes[0].lm_id == 0 && f->t.nodes[0].parent == 0);
    CHECK(f->header.n == 11 && strcmp(f->header.items[0].name.s, "program-name") == 0);
    /* The written file reads back the same through a path. */
    const char *dir = testlib_tmpdir("hpcrun-real");
    char out[4200];
    snprintf(out, sizeof out, "%s/copy.hpcrun", dir);
    CHECK_RC(hpcrun_file_write(f, out));
    hpcrun_file *g = NULL;
    CHECK_RC(hpcrun_file_load(&g, out, NULL));
    CHECK(g && g->t.n_nodes == f->t.n_nodes && g->sparse.n_values == f->sparse.n_values);
    hpcrun_file_free(g);
    printf("%s: %llu nodes, %u load modules, %llu values in %u contexts, id tuple", path,
           (unsigned long long)f->t.n_nodes, f->t.n_lm, (unsigned long long)f->sparse.n_values, f->sparse.n_nz_ctxs);
    for (uint16_t i = 0; i < f->sparse.n_ids; i++)
      printf(" %04x:%llx/%llu", f->sparse.ids[i].kind, (unsigned long long)f->sparse.ids[i].physical,
             (unsigned long long)f->sparse.ids[i].logical);
    printf("\n");
  }
  hpcrun_file_free(f);
  free(orig);
  (*n_files)++;
}

static void roundtrip_trace(const char *path, int *n_files) {
  uint8_t *orig;
  size_t len;
  CHECK(testlib_read_file(path, &orig, &len) == 0);
  hpcrun_trace_file *t = NULL;
  CHECK_RC(hpcrun_trace_parse(&t, orig, len, path, NULL));
  if (t) {
    uint8_t *again;
    uint64_t again_len;
    CHECK_RC(hpcrun_trace_serialize(t, &again, &again_len));
    CHECK(again_len == len && memcmp(again, orig, len) == 0);
    free(again);
    CHECK(t->n == (len - 32) / 12 && t->flags == 0 && !t->metric_ids);
    for (uint64_t i = 1; i < t->n; i++) CHECK(t->times[i - 1] <= t->times[i]);
    printf("%s: %llu records\n", path, (unsigned long long)t->n);
  }
  hpcrun_trace_free(t);
  free(orig);
  (*n_files)++;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("no sample data: skipped\n");
    return 77;
  }
  int profiles = 0, traces = 0;
  for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
    const char *dir = testlib_sample(dirs[d]);
    DIR *dh = opendir(dir);
    CHECK(dh != NULL);
    if (!dh) continue;
    struct dirent *e;
    while ((e = readdir(dh))) {
      char path[4200];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      if (has_suffix(e->d_name, ".hpcrun")) roundtrip_profile(path, &profiles);
      if (has_suffix(e->d_name, ".hpctrace")) roundtrip_trace(path, &traces);
    }
    closedir(dh);
  }
  CHECK(profiles == 5);
  CHECK(traces == 5);

  /* The small measurement in detail (bytes checked with xxd). */
  hpcrun_file *f = NULL;
  CHECK_RC(
      hpcrun_file_load(&f, testlib_sample("hpcrun/small.m/testmeas-small-000000-000-11ac0300-5560-0.hpcrun"), NULL));
  if (f) {
    CHECK(f->t.n_nodes == 13 && f->t.n_lm == 17);
    CHECK(f->t.nodes[0].id == 12 && f->t.nodes[0].ip == 0x5e5072696d617279ull); /* "^Primary" */
    CHECK(f->t.nodes[3].id == 0x16 && f->t.nodes[3].parent == 0x14 && f->t.nodes[3].lm_id == 1 &&
          f->t.nodes[3].ip == 0x119c && f->t.nodes[3].flags == 1);
    CHECK(f->sections[HPCRUN_SEC_CCT].start == 0xc00 && f->sections[HPCRUN_SEC_CCT].end == 0xcff);
    CHECK(f->footer_start == 0x1c00);
    CHECK(f->sparse.n_values == 5 && f->sparse.n_nz_ctxs == 5);
    CHECK(f->sparse.ids[0].kind == 0x4001 && f->sparse.ids[0].physical == 0x11ac0300);
    CHECK(f->sparse.ids[1].kind == 0xc007 && f->sparse.ids[2].kind == 0xc003);
    CHECK(f->sparse.ctx_ids[0] == 0x18 && f->sparse.ctx_starts[4] == 4);
    CHECK(f->t.metrics[0].period == 1);
  }
  hpcrun_file_free(f);
  return TEST_END();
}
