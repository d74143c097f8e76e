/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace query driven line by line from stdin, for the exactness tests
 * (check_exact.py compares its answers with an independent computation).
 * Usage: trace_probe [--no-cache] [--cache DIR] PATH. Commands:
 *   info | ctxs | rows | events ROW (the model's elements; not in place)
 *   rowlist [R...] | ctxsel [GLOB] | profsel [PATTERN]   (filters; no argument: none)
 *   tile FIRST COUNT T0 T1 W H DEPTH | stats T0 T1 DEPTH | at ROW TS
 *   remember FIRST COUNT T0 T1 W H DEPTH   (hpcdb_trace_remember_first_tile)
 * DEPTH "leaf" for HPCDB_TRACE_LEAF, "D" in procedure frames, "aD" in all
 * scopes; ctxs prints "ctx INDEX ID PARENT FRAME NAME" (FRAME: 1 for an
 * entry point or a function scope, the test's own reading of the model). Each answer (or "error MESSAGE") ends
 * with a line "end" and is flushed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "hpcdb/trace_query.h"

static hpcdb_experiment *exp_;
static hpcdb_trace_set *set;
static hpcdb_trace_filter filter;
static uint32_t *rows;
static uint8_t *keep;

static int fail(void) {
  printf("error %s\n", hpcdb_last_error());
  return 0;
}

/* "leaf", "D" (procedure frames) or "aD" (all scopes) */
static uint32_t depth_of(const char *s) {
  if (!strcmp(s, "leaf")) return HPCDB_TRACE_LEAF;
  return *s == 'a' ? (uint32_t)strtoul(s + 1, NULL, 10) | HPCDB_TRACE_ALL_SCOPES : (uint32_t)strtoul(s, NULL, 10);
}

static void print_ctxs(void) {
  for (uint32_t i = 0; i < exp_->n_contexts; i++) {
    const hpcdb_context *c = &exp_->contexts[i];
    const char *name = c->function != HPCDB_NONE ? exp_->functions[c->function].name : c->name;
    printf("ctx %u %u %d %d %s\n", i, c->id, c->parent == HPCDB_NONE ? -1 : (int)c->parent,
           c->kind == HPCDB_CTX_ENTRY || (c->kind == HPCDB_CTX_NORMAL && c->lexical_type == HPCDB_LEX_FUNCTION),
           name ? name : "-");
  }
}

static int events(uint32_t row) {
  uint32_t profile;
  uint64_t n;
  if (hpcdb_trace_row(set, row, &profile, &n) < 0) return fail();
  for (uint32_t i = 0; i < exp_->n_traces; i++)
    if (exp_->traces[i].profile == profile)
      for (uint64_t k = 0; k < exp_->traces[i].n; k++)
        printf("ev %" PRIu64 " %u\n", exp_->traces[i].timestamps[k], exp_->traces[i].ctx_ids[k]);
  return 0;
}

static hpcdb_tile_request request_of(char **a) {
  return (hpcdb_tile_request){(uint32_t)strtoul(a[0], NULL, 10), (uint32_t)strtoul(a[1], NULL, 10),
                              strtoull(a[2], NULL, 10), strtoull(a[3], NULL, 10), (uint32_t)strtoul(a[4], NULL, 10),
                              (uint32_t)strtoul(a[5], NULL, 10), depth_of(a[6]), NULL, NULL};
}

static int tile(char **a) {
  hpcdb_tile_request r = request_of(a);
  uint32_t h;
  hpcdb_tile_cell *cells = calloc((size_t)r.width * (r.height ? r.height : 1) + 1, sizeof *cells);
  r.row_level = malloc(r.count + 1);
  if (!cells || !r.row_level || hpcdb_trace_tile(set, &filter, &r, cells, &h) < 0) {
    free(cells);
    free(r.row_level);
    return fail();
  }
  printf("tile %u", h); /* then each row's level (255: fine) */
  for (uint32_t i = 0; i < r.count; i++) printf(" %u", r.row_level[i]);
  printf("\n");
  free(r.row_level);
  for (uint64_t i = 0; i < (uint64_t)h * r.width; i++)
    printf("%d %u %" PRIu64 " %" PRIu64 "\n", cells[i].ctx == HPCDB_TRACE_EMPTY ? -1 : cells[i].ctx == HPCDB_TRACE_GREY ? -2 : (int)cells[i].ctx,
           cells[i].n_ctx, cells[i].ctx_ns, cells[i].total_ns);
  free(cells);
  return 0;
}

static int stats(char **a) {
  hpcdb_trace_share *sh;
  uint32_t n;
  uint64_t total;
  if (hpcdb_trace_stats(set, &filter, strtoull(a[0], NULL, 10), strtoull(a[1], NULL, 10), depth_of(a[2]), &sh, &n,
                        &total) < 0)
    return fail();
  printf("total %" PRIu64 "\n", total);
  for (uint32_t i = 0; i < n; i++) printf("share %d %" PRIu64 "\n", sh[i].ctx == HPCDB_TRACE_GREY ? -2 : (int)sh[i].ctx, sh[i].ns);
  free(sh);
  return 0;
}

static int at(char **a) {
  uint32_t ctx, path[256], n;
  if (hpcdb_trace_path_at(set, (uint32_t)strtoul(a[0], NULL, 10), strtoull(a[1], NULL, 10), &ctx, path, 256, &n) < 0)
    return fail();
  printf("path %u", ctx);
  for (uint32_t i = 0; i < n && i < 256; i++) printf(" %u", path[i]);
  printf("\n");
  return 0;
}

static void set_filter(const char *cmd, char **a, int n) {
  if (!strcmp(cmd, "rowlist") || !strcmp(cmd, "profsel")) {
    free(rows);
    rows = NULL;
    filter.rows = NULL;
    filter.n_rows = 0;
  }
  if (!strcmp(cmd, "rowlist") && n) {
    rows = malloc((size_t)n * sizeof *rows);
    for (int i = 0; i < n; i++) rows[i] = (uint32_t)strtoul(a[i], NULL, 10);
    filter.rows = rows, filter.n_rows = (uint32_t)n;
  } else if (!strcmp(cmd, "profsel") && n) {
    if (hpcdb_trace_rows_matching(set, exp_, a[0], &rows, &filter.n_rows) < 0) {
      fail();
      return;
    }
    filter.rows = rows;
    for (uint32_t i = 0; i < filter.n_rows; i++) printf("row %u\n", rows[i]);
  } else if (!strcmp(cmd, "ctxsel")) {
    free(keep);
    keep = NULL;
    if (n) hpcdb_trace_contexts_matching(exp_, a[0], &keep);
    filter.ctx_keep = keep;
  }
}

int main(int argc, char **argv) {
  hpcdb_trace_options o = {0};
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--no-cache")) o.flags |= HPCDB_TRACE_NO_CACHE;
    else if (!strcmp(argv[i], "--cache") && i + 1 < argc) o.cache_dir = argv[++i];
    else path = argv[i];
  }
  if (!path) return 2;
  hpcdb_format fmt;
  int rc = hpcdb_detect(&fmt, path);
  int in_place = rc == 0 && fmt == HPCDB_FORMAT_HPCTK4_DIR;
  hpcdb_db *db = NULL;
  /* in place: the model without traces (they must come from trace.db); else every trace read */
  rc = rc < 0 ? rc : in_place ? hpcdb_hpctk4_read_lazy(&exp_, &db, path) : hpcdb_read(&exp_, path);
  hpcdb_db_close(db);
  if (rc == 0) rc = hpcdb_trace_open(&set, exp_, in_place ? path : NULL, &o);
  if (rc == 0) hpcdb_trace_keep_first_tile(set); /* as hpcdb view does */
  if (rc < 0) {
    printf("error %s\n", hpcdb_last_error());
    hpcdb_experiment_free(exp_);
    return 1;
  }
  char line[65536];
  while (fgets(line, sizeof line, stdin)) {
    char *a[64], *cmd = strtok(line, " \t\n");
    int n = 0;
    if (!cmd) continue;
    while (n < 64 && (a[n] = strtok(NULL, n == 0 && (!strcmp(cmd, "ctxsel") || !strcmp(cmd, "profsel")) ? "\n" : " \t\n"))) n++;
    if (!strcmp(cmd, "info")) {
      hpcdb_trace_info i;
      hpcdb_trace_get_info(set, &i);
      printf("info %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %d %d\n", i.n_rows, i.n_events, i.t_min, i.t_max, i.in_place,
             i.index_from_cache);
    } else if (!strcmp(cmd, "ctxs")) {
      print_ctxs();
    } else if (!strcmp(cmd, "rows")) {
      uint32_t p;
      uint64_t k;
      for (uint32_t r = 0; hpcdb_trace_row(set, r, &p, &k) == 0; r++) printf("row %u %u %" PRIu64 "\n", r, p, k);
    } else if (!strcmp(cmd, "events") && n == 1) {
      events((uint32_t)strtoul(a[0], NULL, 10));
    } else if (!strcmp(cmd, "tile") && n == 7) {
      tile(a);
    } else if (!strcmp(cmd, "remember") && n == 7) {
      hpcdb_tile_request r = request_of(a);
      if (hpcdb_trace_remember_first_tile(set, &filter, &r) < 0) fail();
    } else if (!strcmp(cmd, "stats") && n == 3) {
      stats(a);
    } else if (!strcmp(cmd, "at") && n == 2) {
      at(a);
    } else if (!strcmp(cmd, "rowlist") || !strcmp(cmd, "ctxsel") || !strcmp(cmd, "profsel")) {
      set_filter(cmd, a, n);
    } else {
      printf("error unknown command %s\n", cmd);
    }
    printf("end\n");
    fflush(stdout);
  }
  hpcdb_trace_close(set);
  hpcdb_experiment_free(exp_);
  free(rows);
  free(keep);
  return 0;
}
