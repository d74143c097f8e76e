/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU idleness of the window (hpcdb_trace_gpu_idleness): per GPU stream of
 * the selected rows, the time it is idle and, of that, the time its host
 * thread waits in a context matching 'wait' (globs separated by commas). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes_trace_call.h"

#define TRACE_DEFAULT_WAITS "*Synchronize*,*Wait*,*wait*,MPI_Barrier"

/* The contexts whose name matches one of the comma-separated globs. */
static int waits_matching(trace_call *c, const char *globs, uint8_t **out) {
  const hpcdb_experiment *e = c->v->exp;
  uint8_t *all = calloc(e->n_contexts ? e->n_contexts : 1, 1), *one = NULL;
  char glob[256];
  if (!all) return trace_fail(c, 500, "out of memory");
  for (const char *p = globs; *p;) {
    size_t len = strcspn(p, ",");
    if (len == 0 || len >= sizeof glob) {
      free(all);
      return trace_fail(c, 400, "argument 'wait' is globs separated by commas, each 1 to 255 characters");
    }
    memcpy(glob, p, len);
    glob[len] = 0;
    if (hpcdb_trace_contexts_matching(e, glob, &one) < 0) {
      free(all);
      return trace_fail(c, 500, "%s", hpcdb_last_error());
    }
    for (uint32_t i = 1; i < e->n_contexts; i++) all[i] |= one[i]; /* the root matches every glob: never a wait */
    free(one);
    p += len + (p[len] == ',');
  }
  *out = all;
  return 0;
}

static void identity_json(FILE *f, const trace_call *c, uint32_t row) {
  char name[1024];
  uint32_t p;
  uint64_t n;
  hpcdb_trace_row(c->v->set, row, &p, &n);
  hpcdb_profile_identity(c->v->exp, &c->v->exp->profiles[p], name, sizeof name);
  trace_json_str(f, name);
}

int route_trace_gpu(trace_call *c) {
  uint64_t t0, t1;
  if (trace_arg_u64(c, "t0", UINT64_MAX, UINT64_MAX - 1, &t0) < 0 ||
      trace_arg_u64(c, "t1", UINT64_MAX, UINT64_MAX - 1, &t1) < 0 || trace_arg_filter(c) < 0 || trace_arg_range(c) < 0)
    return -1;
  const char *globs = c->arg(c->ctx, "wait");
  if (!globs || !*globs) globs = TRACE_DEFAULT_WAITS;
  uint8_t *waits = NULL;
  if (waits_matching(c, globs, &waits) < 0) return -1;
  hpcdb_trace_gpu_idle *g;
  uint32_t n;
  int rc = hpcdb_trace_gpu_idleness(c->v->set, &c->filter, waits, t0, t1, &g, &n);
  free(waits);
  if (rc < 0) return trace_fail_query(c, rc, 400);
  char *body = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&body, &len);
  if (f) {
    fputs("{\"wait\":", f);
    trace_json_str(f, globs);
    fputs(",\"streams\":[", f);
    for (uint32_t i = 0; i < n; i++) {
      fprintf(f, "%s{\"row\":%u,\"id\":", i ? "," : "", g[i].row);
      identity_json(f, c, g[i].row);
      if (g[i].host == HPCDB_NONE) fputs(",\"host\":null,\"host_id\":null", f);
      else {
        fprintf(f, ",\"host\":%u,\"host_id\":", g[i].host);
        identity_json(f, c, g[i].host);
      }
      fprintf(f, ",\"span_ns\":%" PRIu64 ",\"idle_ns\":%" PRIu64 ",\"idle_wait_ns\":%" PRIu64 "}", g[i].span_ns,
              g[i].idle_ns, g[i].idle_wait_ns);
    }
    fputs("]}", f);
    fclose(f);
  }
  free(g);
  return f ? trace_reply_set(c, 200, "application/json", body, len) : trace_fail(c, 500, "out of memory");
}
