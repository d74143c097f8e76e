/* SPDX-License-Identifier: BSD-3-Clause */
/* Tiles (run-length encoded, see routes_trace.h), the statistics of a
 * window and the summary (per time column, the largest shares). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes_trace_call.h"

/* Cells as runs of equal (context, share byte, context count byte), after
 * the header and the tile's scale. */
static int encode_tile(trace_call *c, const hpcdb_tile_cell *cells, uint32_t w, uint32_t h,
                       const hpcdb_tile_scale *sc) {
  enum { HEAD = 56 };
  uint64_t cap = HEAD + (uint64_t)w * h * 8, n = HEAD, runs = 0;
  uint8_t *b = malloc(cap);
  if (!b) return trace_fail(c, 500, "out of memory");
  for (uint32_t r = 0; r < h; r++) {
    for (uint32_t x = 0; x < w;) {
      const hpcdb_tile_cell *cell = &cells[(uint64_t)r * w + x];
      uint8_t share = (uint8_t)(cell->total_ns ? (cell->ctx_ns * 255 + cell->total_ns / 2) / cell->total_ns : 0);
      uint8_t count = cell->n_ctx > 255 ? 255 : (uint8_t)cell->n_ctx;
      uint32_t len = 1;
      while (x + len < w && len < 65535) {
        const hpcdb_tile_cell *d = cell + len;
        uint8_t ds = (uint8_t)(d->total_ns ? (d->ctx_ns * 255 + d->total_ns / 2) / d->total_ns : 0);
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
  const uint64_t head[10] = {
      w, h, runs, sc->coarse_rows, sc->level_min, sc->level_max, 0, sc->events_min, sc->events_max, sc->bucket_ns};
  memcpy(b, "HTL2", 4);
  for (int i = 0; i < 10; i++) /* seven u32, then three u64 */
    for (int k = 0; k < (i < 7 ? 4 : 8); k++)
      b[(i < 7 ? 4 + 4 * i : 32 + 8 * (i - 7)) + k] = (uint8_t)(head[i] >> (8 * k));
  return trace_reply_set(c, 200, "application/octet-stream", (char *)b, n);
}

int route_trace_tile(trace_call *c) {
  uint64_t t0, t1, w, h, remember;
  uint32_t depth;
  if (trace_arg_u64(c, "remember", 0, 1, &remember) < 0 ||
      trace_arg_u64(c, "t0", UINT64_MAX, UINT64_MAX - 1, &t0) < 0 ||
      trace_arg_u64(c, "t1", UINT64_MAX, UINT64_MAX - 1, &t1) < 0 ||
      trace_arg_u64(c, "w", UINT64_MAX, TRACE_MAX_WIDTH, &w) < 0 ||
      trace_arg_u64(c, "h", UINT64_MAX, TRACE_MAX_HEIGHT, &h) < 0 || trace_arg_depth(c, &depth) < 0 ||
      trace_arg_filter(c) < 0 || trace_arg_range(c) < 0)
    return -1;
  if (w * h > TRACE_MAX_CELLS) return trace_fail(c, 400, "a tile has at most %u cells", TRACE_MAX_CELLS);
  if (w == 0 || h == 0 || t1 <= t0 || t1 - t0 < w)
    return trace_fail(c, 400, "a tile needs w, h >= 1 and t1 - t0 >= w (one ns per column at most)");
  hpcdb_tile_scale scale;
  hpcdb_tile_request req = {0, trace_n_selected(c), t0, t1, (uint32_t)w, (uint32_t)h, depth, NULL, &scale};
  hpcdb_tile_cell *cells = malloc(w * h * sizeof *cells);
  uint32_t hh;
  if (!cells) return trace_fail(c, 500, "out of memory");
  int rc = hpcdb_trace_tile(c->v->set, &c->filter, &req, cells, &hh);
  if (rc == 0 && remember) /* the page's timeline: its size kept by the next index pass (no error of the tile's) */
    (void)hpcdb_trace_remember_first_tile(c->v->set, &c->filter, &req);
  rc =
      rc < 0 ? trace_fail_query(c, rc, rc == HPCDB_EINVAL ? 400 : 500) : encode_tile(c, cells, (uint32_t)w, hh, &scale);
  free(cells);
  return rc;
}

static void shares_json(FILE *f, const hpcdb_trace_share *sh, uint32_t n, uint32_t top) {
  fputc('[', f);
  for (uint32_t i = 0; i < n && i < top; i++)
    fprintf(f, "%s[%" PRId64 ",%" PRIu64 "]", i ? "," : "",
            sh[i].ctx == HPCDB_TRACE_GREY ? (int64_t)-2 : (int64_t)sh[i].ctx, sh[i].ns);
  fputc(']', f);
}

int route_trace_stats(trace_call *c) {
  uint64_t t0, t1, total;
  uint32_t depth, n;
  hpcdb_trace_share *sh;
  if (trace_arg_u64(c, "t0", UINT64_MAX, UINT64_MAX - 1, &t0) < 0 ||
      trace_arg_u64(c, "t1", UINT64_MAX, UINT64_MAX - 1, &t1) < 0 || trace_arg_depth(c, &depth) < 0 ||
      trace_arg_filter(c) < 0 || trace_arg_range(c) < 0)
    return -1;
  int rc = hpcdb_trace_stats(c->v->set, &c->filter, t0, t1, depth, &sh, &n, &total);
  if (rc < 0) return trace_fail_query(c, rc, 400);
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
  return f ? trace_reply_set(c, 200, "application/json", body, len) : trace_fail(c, 500, "out of memory");
}

/* Per column, the top shares of the column's cells over the selected rows
 * (hpcdb_trace_summary), and the scale they were summed at. */
int route_trace_summary(trace_call *c) {
  enum { TOP = 8 };
  uint64_t t0, t1, w;
  uint32_t depth;
  if (trace_arg_u64(c, "t0", UINT64_MAX, UINT64_MAX - 1, &t0) < 0 ||
      trace_arg_u64(c, "t1", UINT64_MAX, UINT64_MAX - 1, &t1) < 0 || trace_arg_u64(c, "w", UINT64_MAX, 2048, &w) < 0 ||
      trace_arg_depth(c, &depth) < 0 || trace_arg_filter(c) < 0 || trace_arg_range(c) < 0)
    return -1;
  if (w == 0 || t1 <= t0 || t1 - t0 < w) return trace_fail(c, 400, "a summary needs w >= 1 and t1 - t0 >= w");
  hpcdb_tile_scale scale;
  hpcdb_tile_request req = {0, trace_n_selected(c), t0, t1, (uint32_t)w, 1, depth, NULL, &scale};
  hpcdb_trace_share *sh = malloc(w * TOP * sizeof *sh);
  uint32_t *n = malloc(w * sizeof *n);
  uint64_t *total = malloc(w * sizeof *total);
  int rc = sh && n && total ? hpcdb_trace_summary(c->v->set, &c->filter, &req, TOP, sh, n, total) : HPCDB_ENOMEM;
  char *body = NULL;
  size_t len = 0;
  FILE *f = rc == 0 ? open_memstream(&body, &len) : NULL;
  if (f) {
    fprintf(f,
            "{\"coarse_rows\":%u,\"bucket_events\":[%" PRIu64 ",%" PRIu64 "],\"bucket_ns\":%" PRIu64 ",\"columns\":[",
            scale.coarse_rows, scale.events_min, scale.events_max, scale.bucket_ns);
    for (uint64_t x = 0; x < w; x++) {
      fprintf(f, "%s{\"total_ns\":%" PRIu64 ",\"shares\":", x ? "," : "", total[x]);
      shares_json(f, sh + x * TOP, n[x], TOP);
      fputc('}', f);
    }
    fputs("]}", f);
    fclose(f);
  }
  free(sh);
  free(n);
  free(total);
  if (rc == HPCDB_ENOMEM) return trace_fail(c, 500, "out of memory");
  if (rc < 0) return trace_fail_query(c, rc, 400);
  return f ? trace_reply_set(c, 200, "application/json", body, len) : trace_fail(c, 500, "out of memory");
}
