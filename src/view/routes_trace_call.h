/* SPDX-License-Identifier: BSD-3-Clause */
/* What the trace routes share (internal to src/view): one call's state and
 * the argument and answer helpers. Each helper that fails has set a 4xx/5xx
 * JSON answer and returns -1. */
#ifndef HPCDB_VIEW_ROUTES_TRACE_CALL_H
#define HPCDB_VIEW_ROUTES_TRACE_CALL_H

#include <stdio.h>

#include "routes_trace.h"

typedef struct trace_call {
  trace_view *v;
  trace_arg_fn arg;
  void *ctx;
  trace_reply *out;
  hpcdb_trace_filter filter;
  uint32_t *rows;
  uint8_t *keep;
} trace_call;

void trace_json_str(FILE *f, const char *s);
/* The answer: status, content type, body (malloc'ed, taken). 0 for 200, else -1. */
int trace_reply_set(trace_call *c, unsigned status, const char *type, char *body, size_t len);
int trace_fail(trace_call *c, unsigned status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A query's failure rc: 409 {"error", "cancelled": true} when it was
 * cancelled (superseded), else status with the library's message. */
int trace_fail_query(trace_call *c, int rc, unsigned status);
/* An unsigned decimal argument; def when absent (UINT64_MAX: required). */
int trace_arg_u64(trace_call *c, const char *name, uint64_t def, uint64_t max, uint64_t *out);
/* 'depth': a number, or "leaf" / absent for HPCDB_TRACE_LEAF. */
int trace_arg_depth(trace_call *c, uint32_t *depth);
/* The filters of 'rows' (identity pattern), 'ctx' (glob) and 'order'
 * ("identity": rows sorted by their profiles' identities) into c->filter. */
int trace_arg_filter(trace_call *c);
/* 'first', 'count': the selected rows narrowed to that range (after trace_arg_filter). */
int trace_arg_range(trace_call *c);
/* How many rows the filter selects. */
uint32_t trace_n_selected(const trace_call *c);

int route_trace_info(trace_call *c);
int route_trace_at(trace_call *c);
int route_trace_tile(trace_call *c);
int route_trace_stats(trace_call *c);
int route_trace_summary(trace_call *c);
int route_trace_gpu(trace_call *c);

#endif
