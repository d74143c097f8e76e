/* SPDX-License-Identifier: BSD-3-Clause */
/* A source file with per-line values (the file checked by source_file.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"

int route_source(request *r) {
  view_db *db;
  hpcdb_qcolumn col;
  uint32_t file;
  if (req_db(r, &db) < 0 || req_column(r, db, &col) < 0 || req_u32(r, "file", 0, UINT32_MAX - 1, &file) < 0) return -1;
  const hpcdb_experiment *e = hpcdb_query_experiment(db->q);
  if (file >= e->n_files) return req_error(r, 404, "file %u does not exist", file);
  size_t len = 0;
  const char *why = NULL;
  char *text = view_source_text(db, file, &len, &why);
  jbuf *b = &r->out;
  jb_raw(b, "{\"path\":");
  jb_str(b, e->files[file].path);
  jb_raw(b, ",\"available\":");
  jb_raw(b, text ? "true" : "false");
  if (!text) {
    jb_raw(b, ",\"why\":");
    jb_str(b, why);
  } else {
    jb_raw(b, ",\"text\":");
    jb_str(b, text);
  }
  free(text);
  uint32_t n = 0, max = e->n_contexts < 65536 ? e->n_contexts : 65536; /* lines with values: at most one per context */
  hpcdb_qline *lines = malloc(((size_t)max + 1) * sizeof *lines);
  if (!lines) return req_error(r, 500, "out of memory");
  hpcdb_query_lines(db->q, col, file, lines, max, &n);
  jb_raw(b, ",\"lines\":[");
  int is_unsigned = hpcdb_query_column_integer(db->q, col) == HPCDB_INTEGER_UNSIGNED;
  for (uint32_t k = 0; k < n; k++) {
    jb_fmt(b, k ? ",[%u," : "[%u,", lines[k].line);
    jb_value(b, lines[k].inclusive, is_unsigned);
    jb_raw(b, ",");
    jb_value(b, lines[k].exclusive, is_unsigned);
    jb_raw(b, "]");
  }
  jb_raw(b, "]}");
  free(lines);
  return 0;
}
