/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_query_view_location on cpi-mpi: a top-down node's own location; a
 * bottom-up row's (the function main: its definition, cpi.c:19) that of its
 * first context; a flat view's load module none; a node past the end refused. */
#include <stdio.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/query.h"
#include "testlib.h"

/* The node of view named name among node 0's children, or HPCDB_NONE. */
static hpcdb_qnode child_named(hpcdb_query *q, hpcdb_qview v, const char *name) {
  hpcdb_qnode kids[1024];
  uint32_t n = 0, total = 0;
  char buf[256];
  hpcdb_qsort s = {0};
  if (hpcdb_query_default_column(q, &s.column) < 0 || hpcdb_query_children(q, v, 0, &s, 0, 1024, kids, &n, &total) < 0)
    return HPCDB_NONE;
  for (uint32_t k = 0; k < n; k++)
    if (hpcdb_query_name(q, v, kids[k], buf, sizeof buf) && !strcmp(buf, name)) return kids[k];
  return HPCDB_NONE;
}

int main(void) {
  if (!testlib_have_samples()) {
    printf("sample data not found: skipped\n");
    return 77;
  }
  hpcdb_query *q;
  CHECK_RC(hpcdb_query_open(&q, testlib_sample("hpctoolkit-v4/cpi-mpi")));
  const hpcdb_experiment *e = hpcdb_query_experiment(q);
  uint32_t file = 0, line = 0, f2, l2;
  hpcdb_qnode main_fn = child_named(q, HPCDB_QVIEW_BOTTOM_UP, "main");
  CHECK(main_fn != HPCDB_NONE);
  CHECK_RC(hpcdb_query_view_location(q, HPCDB_QVIEW_BOTTOM_UP, main_fn, &file, &line));
  CHECK(file < e->n_files && strstr(e->files[file].path, "cpi.c") && line == 19);
  for (uint32_t c = 1; c < e->n_contexts; c++) { /* top-down: the same as hpcdb_query_location */
    CHECK_RC(hpcdb_query_view_location(q, HPCDB_QVIEW_TOP_DOWN, c, &file, &line));
    CHECK_RC(hpcdb_query_location(q, c, &f2, &l2));
    if (file != f2 || line != l2) CHECK(0);
  }
  hpcdb_qnode libc = child_named(q, HPCDB_QVIEW_FLAT, "libc-2.28.so");
  CHECK(libc != HPCDB_NONE);
  CHECK_RC(hpcdb_query_view_location(q, HPCDB_QVIEW_FLAT, libc, &file, &line));
  CHECK(file == HPCDB_NONE);
  CHECK(hpcdb_query_view_location(q, HPCDB_QVIEW_BOTTOM_UP, hpcdb_query_n_nodes(q, HPCDB_QVIEW_BOTTOM_UP), &file,
                                  &line) < 0);
  hpcdb_query_close(q);
  return TEST_END();
}
