/* SPDX-License-Identifier: BSD-3-Clause */
/* Chrome's Trace Event Format (Perfetto, chrome://tracing) from trace data:
 * one thread track per profile; between two samples the thread is in the
 * calling path of the first, so a change of path closes the frames that
 * left it (E events, innermost first) and opens the new ones (B events):
 * consecutive samples in the same context merge, and slices nest by
 * construction. Timestamps are microseconds since the first sample. */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/textout.h"
#include "core/json_out.h"
#include "query/shown.h"
#include "report/export_registry.h"
#include "report/report_data.h"

/* Nanoseconds as microseconds with three decimals (exact). */
static void micros(textout *o, uint64_t ns) {
  textout_u64(o, ns / 1000);
  char *p = textout_room(o, 4);
  uint32_t f = (uint32_t)(ns % 1000);
  p[0] = '.', p[1] = (char)('0' + f / 100), p[2] = (char)('0' + f / 10 % 10), p[3] = (char)('0' + f % 10);
  o->len += 4;
}

/* One event; name is the frame's JSON string (quoted) or NULL. */
static void event(textout *o, int *first, char phase, uint64_t ns, uint32_t tid, const char *name) {
  textout_str(o, *first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
  *first = 0;
  textout_char(o, phase);
  textout_str(o, "\",\"pid\":1,\"tid\":");
  textout_u64(o, tid);
  textout_str(o, ",\"ts\":");
  micros(o, ns);
  if (name) {
    textout_str(o, ",\"name\":");
    textout_str(o, name);
  }
  textout_char(o, '}');
}

/* A context's name as a JSON string, made once per context. */
static const char *frame_name(const hpcdb_experiment *exp, char **names, uint32_t ctx) {
  if (names[ctx]) return names[ctx];
  char name[512];
  report_name(exp, ctx, name, sizeof name);
  FILE *m = NULL;
  char *text = NULL;
  size_t len = 0;
  if (!(m = open_memstream(&text, &len))) return NULL;
  json_string(m, name);
  fclose(m);
  return names[ctx] = text;
}

/* The calling path of a sample, root first, into path; its length. Ids the
 * tree does not list (and "not running", id 0) give an empty path. */
static uint32_t path_of(const hpcdb_experiment *e, uint32_t id, uint32_t *path, uint32_t *tmp) {
  uint32_t i = hpcdb_find_context(e, id), n = 0;
  if (i == HPCDB_NONE) return 0;
  for (i = query_shown(e, i, 0); i != 0 && i != HPCDB_NONE; i = query_shown(e, e->contexts[i].parent, 0)) tmp[n++] = i;
  for (uint32_t k = 0; k < n; k++) path[k] = tmp[n - 1 - k];
  return n;
}

int hpcdb_export_chrome_trace(FILE *out, const hpcdb_experiment *exp) {
  if (!exp->n_traces) return hpcdb_fail(HPCDB_EINVAL, "nothing to export: the experiment has no traces");
  size_t cap = (size_t)exp->n_contexts + 1;
  uint32_t *cur = malloc(cap * sizeof *cur), *next = malloc(cap * sizeof *next), *tmp = malloc(cap * sizeof *tmp);
  char **names = calloc(cap, sizeof *names);
  textout o = {0};
  int rc = cur && next && tmp && names ? textout_open(&o, out) : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  uint64_t t0 = UINT64_MAX, events = 0;
  for (uint32_t t = 0; t < exp->n_traces; t++)
    if (exp->traces[t].n && exp->traces[t].timestamps[0] < t0) t0 = exp->traces[t].timestamps[0];
  int first = 1;
  char name[512];
  if (rc == 0) textout_str(&o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  for (uint32_t t = 0; rc == 0 && t < exp->n_traces; t++) {
    const hpcdb_trace *tr = &exp->traces[t];
    uint32_t tid = tr->profile, depth = 0;
    hpcdb_profile_identity(exp, &exp->profiles[tr->profile], name, sizeof name);
    textout_str(&o, first ? "\n" : ",\n");
    first = 0;
    textout_str(&o, "{\"ph\":\"M\",\"pid\":1,\"tid\":");
    textout_u64(&o, tid);
    textout_str(&o, ",\"name\":\"thread_name\",\"args\":{\"name\":");
    json_text_string(&o, name);
    textout_str(&o, "}}");
    for (uint64_t k = 0; k < tr->n; k++) {
      uint64_t ns = tr->timestamps[k] - t0;
      uint32_t n = path_of(exp, tr->ctx_ids[k], next, tmp), common = 0;
      while (common < n && common < depth && next[common] == cur[common]) common++;
      while (depth > common) event(&o, &first, 'E', ns, tid, NULL), depth--, events++;
      for (; depth < n; depth++, events++) {
        cur[depth] = next[depth];
        const char *frame = frame_name(exp, names, cur[depth]);
        if (!frame) {
          rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
          break;
        }
        event(&o, &first, 'B', ns, tid, frame);
      }
    }
    uint64_t end = tr->n ? tr->timestamps[tr->n - 1] - t0 : 0;
    while (depth > 0) event(&o, &first, 'E', end, tid, NULL), depth--;
  }
  if (o.buf) {
    textout_str(&o, "\n]}\n");
    int closed = textout_close(&o);
    if (rc == 0) rc = closed;
  }
  for (size_t i = 0; i < cap && names; i++) free(names[i]);
  free(names);
  free(cur);
  free(next);
  free(tmp);
  if (rc == 0 && events == 0)
    return hpcdb_fail(HPCDB_EINVAL, "nothing to export: the traces hold no sample in a calling context");
  return rc;
}

static int write_chrome_trace(FILE *out, const hpcdb_experiment *exp, hpcdb_source *src,
                              const hpcdb_export_options *o) {
  (void)src, (void)o;
  return hpcdb_export_chrome_trace(out, exp);
}

const export_desc export_chrome_trace = {
    {"chrome-trace",
     "Trace Event Format JSON from the traces, for Perfetto and chrome://tracing: one track per profile, nested "
     "slices rebuilt from the sampled calling paths (consecutive samples in one context merge).",
     0, HPCDB_EXPORT_READS_ALL},
    write_chrome_trace};
