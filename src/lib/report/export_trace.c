/* Chrome's Trace Event Format (Perfetto, chrome://tracing) from trace data:
 * one thread track per profile; between two samples the thread is in the
 * calling path of the first, so a change of path closes the frames that
 * left it (E events, innermost first) and opens the new ones (B events):
 * consecutive samples in the same context merge, and slices nest by
 * construction. Timestamps are microseconds since the first sample. */
#include <stdlib.h>

#include "common/error.h"
#include "core/json_out.h"
#include "report/report_data.h"

static void event(FILE *out, int *first, char phase, double ts, uint32_t tid, const char *name) {
  fputs(*first ? "\n" : ",\n", out);
  *first = 0;
  fprintf(out, "{\"ph\":\"%c\",\"pid\":1,\"tid\":%u,\"ts\":%.3f", phase, tid, ts);
  if (name) {
    fputs(",\"name\":", out);
    json_string(out, name);
  }
  fputc('}', out);
}

/* The calling path of a sample, root first, into path; its length. Ids the
 * tree does not list (and "not running", id 0) give an empty path. */
static uint32_t path_of(const hpcdb_experiment *e, uint32_t id, uint32_t *path, uint32_t *tmp) {
  uint32_t i = hpcdb_find_context(e, id), n = 0;
  if (i == HPCDB_NONE) return 0;
  for (; i != 0 && i != HPCDB_NONE; i = e->contexts[i].parent) tmp[n++] = i;
  for (uint32_t k = 0; k < n; k++) path[k] = tmp[n - 1 - k];
  return n;
}

int hpcdb_export_chrome_trace(FILE *out, const hpcdb_experiment *exp) {
  if (!exp->n_traces) return hpcdb_fail(HPCDB_EINVAL, "the experiment has no traces");
  size_t cap = (size_t)exp->n_contexts + 1;
  uint32_t *cur = malloc(cap * sizeof *cur), *next = malloc(cap * sizeof *next), *tmp = malloc(cap * sizeof *tmp);
  if (!cur || !next || !tmp) {
    free(cur);
    free(next);
    free(tmp);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  uint64_t t0 = UINT64_MAX;
  for (uint32_t t = 0; t < exp->n_traces; t++)
    if (exp->traces[t].n && exp->traces[t].timestamps[0] < t0) t0 = exp->traces[t].timestamps[0];
  int first = 1;
  char name[512];
  fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
  for (uint32_t t = 0; t < exp->n_traces; t++) {
    const hpcdb_trace *tr = &exp->traces[t];
    uint32_t tid = tr->profile, depth = 0;
    hpcdb_profile_identity(exp, &exp->profiles[tr->profile], name, sizeof name);
    fputs(first ? "\n" : ",\n", out);
    first = 0;
    fprintf(out, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":", tid);
    json_string(out, name);
    fputs("}}", out);
    for (uint64_t k = 0; k < tr->n; k++) {
      double ts = (double)(tr->timestamps[k] - t0) / 1000.0;
      uint32_t n = path_of(exp, tr->ctx_ids[k], next, tmp), common = 0;
      while (common < n && common < depth && next[common] == cur[common]) common++;
      while (depth > common) event(out, &first, 'E', ts, tid, NULL), depth--;
      for (; depth < n; depth++) {
        cur[depth] = next[depth];
        report_name(exp, cur[depth], name, sizeof name);
        event(out, &first, 'B', ts, tid, name);
      }
    }
    double end = tr->n ? (double)(tr->timestamps[tr->n - 1] - t0) / 1000.0 : 0;
    while (depth > 0) event(out, &first, 'E', end, tid, NULL), depth--;
  }
  fputs("\n]}\n", out);
  free(cur);
  free(next);
  free(tmp);
  return ferror(out) ? hpcdb_fail(HPCDB_EIO, "error writing the trace JSON") : 0;
}
