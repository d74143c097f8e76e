/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace routes' arguments and answers (see routes_trace_call.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes_trace_call.h"

void trace_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

int trace_reply_set(trace_call *c, unsigned status, const char *type, char *body, size_t len) {
  *c->out = (trace_reply){status, type, (uint8_t *)body, len};
  return status == 200 ? 0 : -1;
}

int trace_fail(trace_call *c, unsigned status, const char *fmt, ...) {
  char msg[512], *body = NULL;
  size_t len = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  FILE *f = open_memstream(&body, &len);
  if (f) {
    fputs("{\"error\":", f);
    trace_json_str(f, msg);
    fputs("}", f);
    fclose(f);
  }
  return trace_reply_set(c, status, "application/json", body, len);
}

int trace_fail_query(trace_call *c, int rc, unsigned status) {
  if (rc != HPCDB_ECANCELED) return trace_fail(c, status, "%s", hpcdb_last_error());
  static const char cancelled[] = "{\"error\":\"superseded by a newer request\",\"cancelled\":true}";
  char *body = malloc(sizeof cancelled);
  if (body) memcpy(body, cancelled, sizeof cancelled);
  return trace_reply_set(c, 409, "application/json", body, body ? sizeof cancelled - 1 : 0);
}

/* An unsigned decimal argument; def when absent (required: def == UINT64_MAX). */
int trace_arg_u64(trace_call *c, const char *name, uint64_t def, uint64_t max, uint64_t *out) {
  const char *s = c->arg(c->ctx, name);
  if (!s || !*s) {
    if (def == UINT64_MAX) return trace_fail(c, 400, "argument '%s' is required", name);
    *out = def;
    return 0;
  }
  uint64_t v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
      return trace_fail(c, 400, "argument '%s' is not a number", name);
    v = v * 10 + (uint64_t)(*p - '0');
  }
  if (v > max) return trace_fail(c, 400, "argument '%s' is at most %" PRIu64, name, max);
  *out = v;
  return 0;
}

int trace_arg_depth(trace_call *c, uint32_t *depth) {
  const char *s = c->arg(c->ctx, "depth");
  uint64_t d;
  if (!s || !strcmp(s, "leaf")) {
    *depth = HPCDB_TRACE_LEAF;
    return 0;
  }
  const char *scopes = c->arg(c->ctx, "scopes");
  if (scopes && strcmp(scopes, "frames") && strcmp(scopes, "all"))
    return trace_fail(c, 400, "argument 'scopes' is 'frames' (the default) or 'all'");
  if (trace_arg_u64(c, "depth", 0, 4096, &d) < 0) return -1;
  *depth = (uint32_t)d | (scopes && !strcmp(scopes, "all") ? HPCDB_TRACE_ALL_SCOPES : 0);
  return 0;
}

/* The filters of the arguments 'rows' (identity pattern) and 'ctx' (glob). */
int trace_arg_filter(trace_call *c) {
  const char *rows = c->arg(c->ctx, "rows"), *glob = c->arg(c->ctx, "ctx");
  if (rows && *rows) {
    if (hpcdb_trace_rows_matching(c->v->set, c->v->exp, rows, &c->rows, &c->filter.n_rows) < 0)
      return trace_fail(c, 400, "%s", hpcdb_last_error());
    c->filter.rows = c->rows;
  }
  const char *order = c->arg(c->ctx, "order");
  if (order && *order) {
    if (strcmp(order, "identity")) return trace_fail(c, 400, "argument 'order' takes 'identity'");
    if (!c->filter.rows) {
      hpcdb_trace_info i;
      hpcdb_trace_get_info(c->v->set, &i);
      if (!(c->rows = malloc((i.n_rows ? i.n_rows : 1) * sizeof *c->rows))) return trace_fail(c, 500, "out of memory");
      for (uint32_t r = 0; r < i.n_rows; r++) c->rows[r] = r;
      c->filter.rows = c->rows;
      c->filter.n_rows = i.n_rows;
    }
    if (hpcdb_trace_rows_by_identity(c->v->set, c->v->exp, c->rows, c->filter.n_rows) < 0)
      return trace_fail(c, 500, "%s", hpcdb_last_error());
  }
  if (glob && *glob) {
    if (hpcdb_trace_contexts_matching(c->v->exp, glob, &c->keep) < 0)
      return trace_fail(c, 500, "%s", hpcdb_last_error());
    c->filter.ctx_keep = c->keep;
  }
  return 0;
}

uint32_t trace_n_selected(const trace_call *c) {
  hpcdb_trace_info i;
  hpcdb_trace_get_info(c->v->set, &i);
  return c->filter.rows ? c->filter.n_rows : i.n_rows;
}

/* 'first' and 'count': the selected rows narrowed to [first, first + count)
 * (the page's vertical zoom); absent, every selected row. */
int trace_arg_range(trace_call *c) {
  uint32_t sel = trace_n_selected(c);
  uint64_t first, count;
  if (trace_arg_u64(c, "first", 0, sel, &first) < 0 || trace_arg_u64(c, "count", sel - first, sel - first, &count) < 0)
    return -1;
  if (first == 0 && count == sel) return 0;
  if (count == 0) return trace_fail(c, 400, "argument 'count' is at least 1");
  if (!c->filter.rows) { /* every row, in the trace's order */
    if (!(c->rows = malloc(sel * sizeof *c->rows))) return trace_fail(c, 500, "out of memory");
    for (uint32_t r = 0; r < sel; r++) c->rows[r] = r;
  }
  c->filter.rows = c->rows + first;
  c->filter.n_rows = (uint32_t)count;
  return 0;
}
