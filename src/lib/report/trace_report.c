/* SPDX-License-Identifier: BSD-3-Clause */
/* `hpcdb report --view trace`: the trace query's answers as text. */
#include <inttypes.h>
#include <stdlib.h>

#include "common/error.h"
#include "hpcdb/trace_report.h"
#include "query/shown.h"
#include "report/report_data.h"

size_t hpcdb_trace_context_name(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size) {
  if (ctx == 0) return (size_t)snprintf(buf, size, "<not running>");
  if (ctx == HPCDB_TRACE_GREY) return (size_t)snprintf(buf, size, "<filtered out>");
  if (ctx >= exp->n_contexts) return (size_t)snprintf(buf, size, "?");
  uint32_t row = query_shown(exp, ctx, 0); /* a scope without a line ("[lib]:0"): the row its cost is in */
  return report_name(exp, row != 0 && row != HPCDB_NONE ? row : ctx, buf, size);
}

static int path_at(FILE *out, const hpcdb_experiment *exp, const hpcdb_trace_set *t,
                   const hpcdb_trace_report_options *o) {
  uint32_t row = hpcdb_trace_row_of_profile(t, o->profile), ctx, n, path[512];
  if (row == HPCDB_NONE) return hpcdb_fail(HPCDB_EINVAL, "profile %u has no trace", o->profile);
  HPCDB_TRY(hpcdb_trace_path_at(t, row, o->timestamp, &ctx, path, 512, &n));
  char name[1024];
  if (n == 0) {
    hpcdb_trace_context_name(exp, 0, name, sizeof name);
    fprintf(out, "%s\n", name);
  }
  int frames = o->depth == HPCDB_TRACE_LEAF || !(o->depth & HPCDB_TRACE_ALL_SCOPES);
  for (uint32_t i = 0; i < n && i < 512; i++) {
    if ((frames && !hpcdb_trace_is_frame(exp, path[i])) || query_hidden(exp, path[i], 0)) continue; /* no row */
    hpcdb_trace_context_name(exp, path[i], name, sizeof name);
    fputs(name, out);
    if (frames && hpcdb_trace_call_site(exp, path[i], name, sizeof name)) fprintf(out, "  (called at %s)", name);
    fputc('\n', out);
  }
  return 0;
}

size_t hpcdb_trace_call_site(const hpcdb_experiment *exp, uint32_t ctx, char *buf, size_t size) {
  if (size) buf[0] = 0;
  if (ctx >= exp->n_contexts) return 0;
  for (uint32_t i = exp->contexts[ctx].parent; i != HPCDB_NONE && i != 0 && !hpcdb_trace_is_frame(exp, i);
       i = exp->contexts[i].parent)
    if (exp->contexts[i].lexical_type == HPCDB_LEX_LINE) /* without a file and line, no site a person can read */
      return exp->contexts[i].file != HPCDB_NONE && exp->contexts[i].line ? hpcdb_trace_context_name(exp, i, buf, size)
                                                                          : 0;
  return 0;
}

static int shares(FILE *out, const hpcdb_experiment *exp, const hpcdb_trace_set *t,
                  const hpcdb_trace_report_options *o) {
  hpcdb_trace_info info;
  hpcdb_trace_get_info(t, &info);
  uint64_t t0 = o->window ? o->t0 : info.t_min, t1 = o->window ? o->t1 : info.t_max, total;
  hpcdb_trace_filter f = {0};
  uint32_t *rows = NULL, n = 0;
  uint8_t *keep = NULL;
  hpcdb_trace_share *sh = NULL;
  int rc = o->profiles ? hpcdb_trace_rows_matching(t, exp, o->profiles, &rows, &f.n_rows) : 0;
  if (rc == 0 && o->contexts) rc = hpcdb_trace_contexts_matching(exp, o->contexts, &keep);
  f.rows = rows;
  f.ctx_keep = keep;
  if (rc == 0) rc = hpcdb_trace_stats(t, &f, t0, t1, o->depth, &sh, &n, &total);
  if (rc == 0) {
    char depth[32] = "leaf", name[1024];
    if (o->depth != HPCDB_TRACE_LEAF)
      snprintf(depth, sizeof depth, "%u%s", o->depth & ~HPCDB_TRACE_ALL_SCOPES,
               o->depth & HPCDB_TRACE_ALL_SCOPES ? " (all scopes)" : " (procedure frames)");
    fprintf(out, "trace: window [%" PRIu64 ", %" PRIu64 ") ns, depth %s, %u profiles, %" PRIu64 " ns of profile-time\n",
            t0, t1, depth, o->profiles ? f.n_rows : info.n_rows, total);
    fprintf(out, "%8s  %16s  %s\n", "share", "time (ns)", "context");
    for (uint32_t i = 0; i < n; i++) {
      hpcdb_trace_context_name(exp, sh[i].ctx, name, sizeof name);
      fprintf(out, "%7.3f%%  %16" PRIu64 "  %s\n", 100.0 * (double)sh[i].ns / (double)total, sh[i].ns, name);
    }
  }
  free(rows);
  free(keep);
  free(sh);
  return rc;
}

int hpcdb_report_trace(FILE *out, const hpcdb_experiment *exp, const hpcdb_trace_set *t,
                       const hpcdb_trace_report_options *o) {
  HPCDB_CHECK_OPTIONS(o, HPCDB_TRACE_REPORT_OPTIONS_VERSION, "hpcdb_trace_report_options");
  return o->at ? path_at(out, exp, t, o) : shares(out, exp, t, o);
}
