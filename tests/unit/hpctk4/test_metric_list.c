/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_metric_list_read: a real hpcprof metrics/default.yaml (the CUDA
 * sample's) gives its order and descriptions, and groups by a name's prefix;
 * a file with groups; hostile files (not YAML, aliases looping into their own
 * entry) fail with the path, or stay bounded; without a file, the
 * experiment's order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/metric_list.h"
#include "testlib.h"

static const char *name_of(const hpcdb_experiment *e, const hpcdb_metric_list *l, uint32_t k) {
  return e->metrics[l->entries[k].metric].name;
}

static void real_yaml(void) {
  const char *db = testlib_sample("hpcrun/expected/loops-cuda-nvidia-t.d");
  hpcdb_experiment *e;
  hpcdb_metric_list l;
  CHECK_RC(hpcdb_read(&e, db));
  CHECK_RC(hpcdb_metric_list_read(&l, e, db));
  CHECK(l.n == e->n_metrics);
  CHECK(!strcmp(name_of(e, &l, 0), "GPUOP (sec)") &&
        !strcmp(l.entries[0].description, "GPU time: all operations (seconds)"));
  CHECK(l.entries[0].group == NULL);
  for (uint32_t k = 0; k < l.n; k++)
    if (!strcmp(name_of(e, &l, k), "GXCOPY:H2D (B)"))
      CHECK(l.entries[k].group && !strcmp(l.entries[k].group, "GXCOPY"));
  hpcdb_metric_list_free(&l);
  hpcdb_experiment_free(e);
}

/* cpi-mpi's experiment with dir/metrics/default.yaml holding text */
static int with_yaml(const char *dir, const char *text, hpcdb_metric_list *l, const hpcdb_experiment *e) {
  char path[1024];
  snprintf(path, sizeof path, "%s/metrics", dir);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/metrics/default.yaml", dir);
  testlib_write_file(path, text, strlen(text));
  return hpcdb_metric_list_read(l, e, dir);
}

/* Aliases reach one node many times: a huge mapping looked at by every entry,
 * a long name copied for every visit. Both end in a clear error, quickly. */
static void hostile_yaml(const char *dir, const hpcdb_experiment *e) {
  size_t keys = 300000, cap = keys * 16 + 4096 + (2u << 20);
  char *text = malloc(cap);
  CHECK(text != NULL);
  size_t n = (size_t)snprintf(text, cap, "big: &big\n");
  for (size_t k = 0; k < keys; k++) n += (size_t)snprintf(text + n, cap - n, "  k%zu: v\n", k);
  n += (size_t)snprintf(text + n, cap - n, "roots: &r\n");
  for (int k = 0; k < 40; k++) n += (size_t)snprintf(text + n, cap - n, "  - *big\n");
  hpcdb_metric_list l;
  CHECK(with_yaml(dir, text, &l, e) == HPCDB_ECORRUPT);
  CHECK(strstr(hpcdb_last_error(), "keys to look at") != NULL);
  /* a 1 MB name under an entry whose children are the roots again */
  n = (size_t)snprintf(text, cap, "roots: &r\n  - name: ");
  memset(text + n, 'x', 1u << 20);
  n += 1u << 20;
  snprintf(text + n, cap - n, "\n    children: *r\n  - children: *r\n");
  CHECK(with_yaml(dir, text, &l, e) == HPCDB_ECORRUPT);
  CHECK(strstr(hpcdb_last_error(), "names and descriptions over") != NULL);
  free(text);
}

static void written_yaml(void) {
  hpcdb_experiment *e;
  hpcdb_metric_list l;
  const char *dir = testlib_tmpdir("metric_list");
  CHECK_RC(hpcdb_read(&e, testlib_sample("hpctoolkit-v4/cpi-mpi")));
  CHECK_RC(
      with_yaml(dir,
                "roots:\n  - name: Time\n    description: where the time goes\n    children:\n"
                "      - name: CPU\n        description: CPU seconds\n        variants:\n          Sum:\n"
                "            formula:\n              inclusive:\n                standard: {metric: CPUTIME (sec)}\n",
                &l, e));
  CHECK(l.n == 1 && !strcmp(l.entries[0].description, "CPU seconds") && !strcmp(l.entries[0].group, "Time"));
  hpcdb_metric_list_free(&l);
  CHECK(with_yaml(dir, "roots: [ {name: x\n", &l, e) == HPCDB_ECORRUPT);
  CHECK(strstr(hpcdb_last_error(), "metrics/default.yaml: line") != NULL);
  CHECK(l.entries == NULL);
  /* an entry whose children are the roots themselves: walked to a bounded depth, each metric once */
  CHECK_RC(with_yaml(dir,
                     "roots: &r\n  - name: loop\n    variants: {Sum: {formula: {inclusive: {metric: CPUTIME (sec)}}}}\n"
                     "    children: *r\n",
                     &l, e));
  CHECK(l.n == 1);
  hpcdb_metric_list_free(&l);
  hostile_yaml(dir, e);
  CHECK_RC(hpcdb_metric_list_read(&l, e, NULL));
  CHECK(l.n == 1 && l.entries[0].metric == 0 && l.entries[0].group == NULL);
  hpcdb_metric_list_free(&l);
  hpcdb_experiment_free(e);
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  real_yaml();
  written_yaml();
  return TEST_END();
}
