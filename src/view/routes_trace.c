/* The trace view's routes (see routes_trace.h): arguments checked, answers
 * built from the trace query; bad arguments get a 400 with a JSON error. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/trace_report.h"
#include "routes_trace.h"

typedef struct call {
  trace_view *v;
  trace_arg_fn arg;
  void *ctx;
  trace_reply *out;
  hpcdb_trace_filter filter;
  uint32_t *rows;
  uint8_t *keep;
} call;

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static int reply(call *c, unsigned status, const char *type, char *body, size_t len) {
  *c->out = (trace_reply){status, type, (uint8_t *)body, len};
  return status == 200 ? 0 : -1;
}

static int fail(call *c, unsigned status, const char *fmt, ...) {
  char msg[512], *body = NULL;
  size_t len = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  FILE *f = open_memstream(&body, &len);
  if (f) {
    fputs("{\"error\":", f);
    json_str(f, msg);
    fputs("}", f);
    fclose(f);
  }
  return reply(c, status, "application/json", body, len);
}

/* An unsigned decimal argument; def when absent (required: def == UINT64_MAX). */
static int arg_u64(call *c, const char *name, uint64_t def, uint64_t max, uint64_t *out) {
  const char *s = c->arg(c->ctx, name);
  if (!s || !*s) {
    if (def == UINT64_MAX) return fail(c, 400, "argument '%s' is required", name);
    *out = def;
    return 0;
  }
  uint64_t v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10) return fail(c, 400, "argument '%s' is not a number", name);
    v = v * 10 + (uint64_t)(*p - '0');
  }
  if (v > max) return fail(c, 400, "argument '%s' is at most %" PRIu64, name, max);
  *out = v;
  return 0;
}

static int arg_depth(call *c, uint32_t *depth) {
  const char *s = c->arg(c->ctx, "depth");
  uint64_t d;
  if (!s || !strcmp(s, "leaf")) {
    *depth = HPCDB_TRACE_LEAF;
    return 0;
  }
  if (arg_u64(c, "depth", 0, 4096, &d) < 0) return -1;
  *depth = (uint32_t)d;
  return 0;
}

/* The filters of the arguments 'rows' (identity pattern) and 'ctx' (glob). */
static int arg_filter(call *c) {
  const char *rows = c->arg(c->ctx, "rows"), *glob = c->arg(c->ctx, "ctx");
  if (rows && *rows) {
    if (hpcdb_trace_rows_matching(c->v->set, c->v->exp, rows, &c->rows, &c->filter.n_rows) < 0)
      return fail(c, 400, "%s", hpcdb_last_error());
    c->filter.rows = c->rows;
  }
  if (glob && *glob) {
    if (hpcdb_trace_contexts_matching(c->v->exp, glob, &c->keep) < 0) return fail(c, 500, "%s", hpcdb_last_error());
    c->filter.ctx_keep = c->keep;
  }
  return 0;
}

static uint32_t n_selected(const call *c) {
  hpcdb_trace_info i;
  hpcdb_trace_get_info(c->v->set, &i);
  return c->filter.rows ? c->filter.n_rows : i.n_rows;
}

static int info(call *c) {
  if (arg_filter(c) < 0) return -1;
  hpcdb_trace_info i;
  hpcdb_trace_get_info(c->v->set, &i);
  const hpcdb_experiment *e = c->v->exp;
  char *body = NULL, name[1024];
  size_t len = 0;
  FILE *f = open_memstream(&body, &len);
  if (!f) return fail(c, 500, "out of memory");
  fprintf(f, "{\"t_min\":\"%" PRIu64 "\",\"t_max\":\"%" PRIu64 "\",\"events\":%" PRIu64 ",\"rows\":[", i.t_min, i.t_max,
          i.n_events);
  for (uint32_t r = 0; r < i.n_rows; r++) {
    uint32_t p;
    uint64_t n;
    hpcdb_trace_row(c->v->set, r, &p, &n);
    hpcdb_profile_identity(e, &e->profiles[p], name, sizeof name);
    fprintf(f, "%s{\"profile\":%u,\"n\":%" PRIu64 ",\"id\":", r ? "," : "", p, n);
    json_str(f, name);
    fputc('}', f);
  }
  fputs("]", f);
  if (c->filter.rows) {
    fputs(",\"selected\":[", f);
    for (uint32_t r = 0; r < c->filter.n_rows; r++) fprintf(f, "%s%u", r ? "," : "", c->filter.rows[r]);
    fputs("]", f);
  }
  fputs(",\"contexts\":[", f);
  for (uint32_t k = 0; k < e->n_contexts; k++) {
    hpcdb_trace_context_name(e, k, name, sizeof name);
    fprintf(f, "%s[%d,", k ? "," : "", k ? (int)e->contexts[k].parent : -1);
    json_str(f, name);
    fputc(']', f);
  }
  fputs("]}", f);
  fclose(f);
  return reply(c, 200, "application/json", body, len);
}

/* Cells as runs of equal (context, share byte, context count byte). */
static int encode_tile(call *c, const hpcdb_tile_cell *cells, uint32_t w, uint32_t h) {
  uint64_t cap = 16 + (uint64_t)w * h * 8, n = 16, runs = 0;
  uint8_t *b = malloc(cap);
  if (!b) return fail(c, 500, "out of memory");
  for (uint32_t r = 0; r < h; r++) {
    for (uint32_t x = 0; x < w;) {
      const hpcdb_tile_cell *cell = &cells[(uint64_t)r * w + x];
      uint8_t share = cell->total_ns ? (uint8_t)((cell->ctx_ns * 255 + cell->total_ns / 2) / cell->total_ns) : 0;
      uint8_t count = cell->n_ctx > 255 ? 255 : (uint8_t)cell->n_ctx;
      uint32_t len = 1;
      while (x + len < w && len < 65535) {
        const hpcdb_tile_cell *d = cell + len;
        uint8_t ds = d->total_ns ? (uint8_t)((d->ctx_ns * 255 + d->total_ns / 2) / d->total_ns) : 0;
        if (d->ctx != cell->ctx || ds != share || (d->n_ctx > 255 ? 255 : d->n_ctx) != count) break;
        len++;
      }
      uint8_t *p = b + n;
      p[0] = (uint8_t)len, p[1] = (uint8_t)(len >> 8), p[2] = share, p[3] = count;
      for (int k = 0; k < 4; k++) p[4 + k] = (uint8_t)(cell->ctx >> (8 * k));
      n += 8;
      runs++;
      x += len;
    }
  }
  const uint32_t head[3] = {w, h, (uint32_t)runs};
  memcpy(b, "HTL1", 4);
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 4; k++) b[4 + 4 * i + k] = (uint8_t)(head[i] >> (8 * k));
  return reply(c, 200, "application/octet-stream", (char *)b, n);
}

static int tile(call *c) {
  uint64_t t0, t1, w, h, first, count;
  uint32_t depth;
  if (arg_u64(c, "t0", UINT64_MAX, UINT64_MAX - 1, &t0) < 0 || arg_u64(c, "t1", UINT64_MAX, UINT64_MAX - 1, &t1) < 0 ||
      arg_u64(c, "w", UINT64_MAX, TRACE_MAX_WIDTH, &w) < 0 || arg_u64(c, "h", UINT64_MAX, TRACE_MAX_HEIGHT, &h) < 0 ||
      arg_depth(c, &depth) < 0 || arg_filter(c) < 0)
    return -1;
  uint32_t sel = n_selected(c);
  if (arg_u64(c, "first", 0, sel, &first) < 0 || arg_u64(c, "count", sel - first, sel - first, &count) < 0) return -1;
  if (w == 0 || h == 0 || t1 <= t0 || t1 - t0 < w)
    return fail(c, 400, "a tile needs w, h >= 1 and t1 - t0 >= w (one ns per column at most)");
  hpcdb_tile_request req = {(uint32_t)first, (uint32_t)count, t0, t1, (uint32_t)w, (uint32_t)h, depth};
  hpcdb_tile_cell *cells = malloc(w * h * sizeof *cells);
  uint32_t hh;
  if (!cells) return fail(c, 500, "out of memory");
  int rc = hpcdb_trace_tile(c->v->set, &c->filter, &req, cells, &hh);
  rc = rc < 0 ? fail(c, rc == HPCDB_EINVAL ? 400 : 500, "%s", hpcdb_last_error()) : encode_tile(c, cells, (uint32_t)w, hh);
  free(cells);
  return rc;
}

static void shares_json(FILE *f, const hpcdb_trace_share *sh, uint32_t n, uint32_t top) {
  fputc('[', f);
  for (uint32_t i = 0; i < n && i < top; i++)
    fprintf(f, "%s[%" PRId64 ",%" PRIu64 "]", i ? "," : "", sh[i].ctx == HPCDB_TRACE_GREY ? (int64_t)-2 : (int64_t)sh[i].ctx,
            sh[i].ns);
  fputc(']', f);
}

static int stats(call *c) {
  uint64_t t0, t1, total;
  uint32_t depth, n;
  hpcdb_trace_share *sh;
  if (arg_u64(c, "t0", UINT64_MAX, UINT64_MAX - 1, &t0) < 0 || arg_u64(c, "t1", UINT64_MAX, UINT64_MAX - 1, &t1) < 0 ||
      arg_depth(c, &depth) < 0 || arg_filter(c) < 0)
    return -1;
  if (hpcdb_trace_stats(c->v->set, &c->filter, t0, t1, depth, &sh, &n, &total) < 0)
    return fail(c, 400, "%s", hpcdb_last_error());
  char *body = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&body, &len);
  if (f) {
    fprintf(f, "{\"total_ns\":%" PRIu64 ",\"shares\":", total);
    shares_json(f, sh, n, 100);
    fputc('}', f);
    fclose(f);
  }
  free(sh);
  return f ? reply(c, 200, "application/json", body, len) : fail(c, 500, "out of memory");
}

static int summary(call *c) {
  uint64_t t0, t1, w;
  uint32_t depth;
  if (arg_u64(c, "t0", UINT64_MAX, UINT64_MAX - 1, &t0) < 0 || arg_u64(c, "t1", UINT64_MAX, UINT64_MAX - 1, &t1) < 0 ||
      arg_u64(c, "w", UINT64_MAX, 2048, &w) < 0 || arg_depth(c, &depth) < 0 || arg_filter(c) < 0)
    return -1;
  if (w == 0 || t1 <= t0 || t1 - t0 < w) return fail(c, 400, "a summary needs w >= 1 and t1 - t0 >= w");
  char *body = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&body, &len);
  if (!f) return fail(c, 500, "out of memory");
  fputs("{\"columns\":[", f);
  int rc = 0;
  for (uint64_t x = 0; x < w && rc == 0; x++) {
    uint64_t a = t0 + (uint64_t)(((unsigned __int128)(t1 - t0) * x) / w);
    uint64_t b = t0 + (uint64_t)(((unsigned __int128)(t1 - t0) * (x + 1)) / w), total;
    hpcdb_trace_share *sh;
    uint32_t n;
    rc = hpcdb_trace_stats(c->v->set, &c->filter, a, b, depth, &sh, &n, &total);
    if (rc < 0) break;
    fprintf(f, "%s{\"total_ns\":%" PRIu64 ",\"shares\":", x ? "," : "", total);
    shares_json(f, sh, n, 8);
    fputc('}', f);
    free(sh);
  }
  fputs("]}", f);
  fclose(f);
  if (rc < 0) {
    free(body);
    return fail(c, 400, "%s", hpcdb_last_error());
  }
  return reply(c, 200, "application/json", body, len);
}

static int at(call *c) {
  uint64_t row, t;
  hpcdb_trace_info i;
  hpcdb_trace_get_info(c->v->set, &i);
  if (i.n_rows == 0) return fail(c, 404, "no trace lines");
  if (arg_u64(c, "row", UINT64_MAX, i.n_rows - 1, &row) < 0 || arg_u64(c, "t", UINT64_MAX, UINT64_MAX - 1, &t) < 0)
    return -1;
  uint32_t ctx, path[512], n, profile;
  uint64_t n_events;
  if (hpcdb_trace_path_at(c->v->set, (uint32_t)row, t, &ctx, path, 512, &n) < 0)
    return fail(c, 404, "%s", hpcdb_last_error());
  hpcdb_trace_row(c->v->set, (uint32_t)row, &profile, &n_events);
  char *body = NULL, name[1024];
  size_t len = 0;
  FILE *f = open_memstream(&body, &len);
  if (!f) return fail(c, 500, "out of memory");
  fprintf(f, "{\"profile\":%u,\"ctx\":%u,\"path\":[", profile, ctx);
  if (n == 0) {
    hpcdb_trace_context_name(c->v->exp, 0, name, sizeof name);
    fputs("[0,", f);
    json_str(f, name);
    fputc(']', f);
  }
  for (uint32_t k = 0; k < n && k < 512; k++) {
    hpcdb_trace_context_name(c->v->exp, path[k], name, sizeof name);
    fprintf(f, "%s[%u,", k ? "," : "", path[k]);
    json_str(f, name);
    fputc(']', f);
  }
  fputs("]}", f);
  fclose(f);
  return reply(c, 200, "application/json", body, len);
}

int trace_route(trace_view *v, const char *url, trace_arg_fn arg, void *ctx, trace_reply *out) {
  static const struct {
    const char *path;
    int (*run)(call *);
  } routes[] = {{"/api/trace/info", info}, {"/api/trace/tile", tile}, {"/api/trace/stats", stats},
                {"/api/trace/at", at}, {"/api/trace/summary", summary}};
  for (size_t i = 0; i < sizeof routes / sizeof *routes; i++) {
    if (strcmp(url, routes[i].path)) continue;
    call c = {v, arg, ctx, out, {0}, NULL, NULL};
    *out = (trace_reply){0};
    if (!v->set) fail(&c, 404, "this database has no traces");
    else routes[i].run(&c);
    free(c.rows);
    free(c.keep);
    return 1;
  }
  return 0;
}

int trace_view_open(trace_view *v, const char *path) {
  hpcdb_format fmt;
  *v = (trace_view){0};
  int rc = hpcdb_detect(&fmt, path), in_place = rc == 0 && fmt == HPCDB_FORMAT_HPCTK4_DIR;
  hpcdb_db *db = NULL;
  if (rc == 0) rc = in_place ? hpcdb_hpctk4_read_lazy(&v->exp, &db, path) : hpcdb_read(&v->exp, path);
  hpcdb_db_close(db);
  if (rc == 0) rc = hpcdb_trace_open(&v->set, v->exp, in_place ? path : NULL, NULL);
  return rc;
}

void trace_view_close(trace_view *v) {
  hpcdb_trace_close(v->set);
  hpcdb_experiment_free(v->exp);
  *v = (trace_view){0};
}
