/* SPDX-License-Identifier: BSD-3-Clause */
/* speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * shared frames, one per function (name, file and line, as speedscope shows
 * them: lines, loops and inlined calls fold into their function), then one
 * "sampled" profile per thread profile: each context with own cost is a
 * sample whose stack is the functions of its calling path, weighted by that
 * cost. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "core/json_out.h"
#include "report/export_registry.h"
#include "report/report_data.h"

typedef struct frames {
  uint32_t *of_ctx; /* frame index per context */
  uint32_t n;
} frames;

/* The frame a context counts in: its function (lines, loops, inlined calls fold into it). */
static uint32_t frame_of(const hpcdb_experiment *e, uint32_t ctx) {
  uint32_t f = report_frame(e, ctx, 1);
  return f ? f : ctx; /* a lexical context right under the root is its own frame */
}

/* Assigns frame indices (one per function: name, file and line) and writes the shared frames array. */
static int write_frames(FILE *out, const hpcdb_experiment *e, frames *f) {
  hpcdb_u64map by_name = {0};
  char name[512];
  f->of_ctx = malloc(((size_t)e->n_contexts + 1) * sizeof *f->of_ctx);
  if (!f->of_ctx) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  f->n = 0;
  fputs("\"shared\":{\"frames\":[", out);
  for (uint32_t i = 1; i < e->n_contexts; i++) {
    if (frame_of(e, i) != i) continue; /* a line, loop or inlined call: its function's frame */
    const hpcdb_context *c = &e->contexts[i];
    const hpcdb_function *fn = c->function != HPCDB_NONE ? &e->functions[c->function] : NULL;
    uint32_t file = fn && fn->file != HPCDB_NONE ? fn->file : c->file,
             line = fn && fn->file != HPCDB_NONE ? fn->line : c->line;
    report_name(e, i, name, sizeof name);
    uint64_t key = hash_u64(hash_bytes(name, strlen(name)) ^ file), at;
    if (u64map_get(&by_name, key, &at)) { /* the same function: one frame (a hash match is taken as equal) */
      f->of_ctx[i] = (uint32_t)at;
      continue;
    }
    if (u64map_put(&by_name, key, f->n) != 0) {
      u64map_free(&by_name);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    }
    f->of_ctx[i] = f->n;
    fputs(f->n++ ? ",{\"name\":" : "{\"name\":", out);
    json_string(out, name);
    if (file != HPCDB_NONE && e->files[file].path) {
      fputs(",\"file\":", out);
      json_string(out, e->files[file].path);
      if (line) fprintf(out, ",\"line\":%u", line);
    }
    fputc('}', out);
  }
  for (uint32_t i = 1; i < e->n_contexts; i++) f->of_ctx[i] = f->of_ctx[frame_of(e, i)];
  fputs("]}", out);
  u64map_free(&by_name);
  return 0;
}

/* speedscope's name of the metric's unit. */
static const char *speedscope_unit(double seconds) {
  if (seconds == 1) return "seconds";
  if (seconds == 1e-3) return "milliseconds";
  if (seconds == 1e-6) return "microseconds";
  if (seconds == 1e-9) return "nanoseconds";
  return "none";
}

static void write_profile(FILE *out, const hpcdb_experiment *e, const report_data *d, const frames *f, const char *name,
                          uint32_t *chain) {
  fputs("{\"type\":\"sampled\",\"name\":", out);
  json_string(out, name);
  fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":", speedscope_unit(d->cols[0].seconds));
  json_number(out, d->total[0]);
  fputs(",\"samples\":[", out);
  int first = 1;
  for (uint32_t i = 1; i < e->n_contexts; i++) {
    if (rd_self(d, i, 0) <= 0) continue;
    uint32_t n = 0; /* the functions of the calling path, outermost last */
    for (uint32_t k = frame_of(e, i); k != 0; k = frame_of(e, e->contexts[k].parent)) chain[n++] = k;
    fputs(first ? "[" : ",[", out);
    first = 0;
    while (n-- > 0) fprintf(out, "%u%s", f->of_ctx[chain[n]], n ? "," : "");
    fputc(']', out);
  }
  fputs("],\"weights\":[", out);
  first = 1;
  for (uint32_t i = 1; i < e->n_contexts; i++) {
    if (rd_self(d, i, 0) <= 0) continue;
    if (!first) fputc(',', out);
    first = 0;
    json_number(out, rd_self(d, i, 0));
  }
  fputs("]}", out);
}

int hpcdb_export_speedscope(FILE *out, const hpcdb_experiment *exp, const char *metric) {
  const char *names[1] = {metric};
  frames f = {0};
  uint32_t *chain = malloc(((size_t)exp->n_contexts + 1) * sizeof *chain);
  if (!chain) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"hpcdb ", out);
  fputs(hpcdb_version(), out);
  fputs("\",\"name\":", out);
  json_string(out, exp->title ? exp->title : "hpcdb export");
  fputs(",\"activeProfileIndex\":0,", out);
  int rc = write_frames(out, exp, &f);
  fputs(",\"profiles\":[", out);
  int written = 0;
  char id[256];
  for (uint32_t p = 0; p < exp->n_profiles && rc == 0; p++) {
    if (exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY) continue;
    hpcdb_profile_identity(exp, &exp->profiles[p], id, sizeof id);
    report_data d;
    if ((rc = report_data_build(&d, exp, metric ? names : NULL, metric ? 1 : 0, id, 1)) < 0) break;
    if (written++) fputc(',', out);
    write_profile(out, exp, &d, &f, id, chain);
    report_data_free(&d);
  }
  fputs("]}\n", out);
  free(chain);
  free(f.of_ctx);
  if (rc == 0 && written == 0) rc = hpcdb_fail(HPCDB_EINVAL, "no thread profiles to export");
  return rc < 0 ? rc : ferror(out) ? hpcdb_fail(HPCDB_EIO, "error writing speedscope JSON: %s", strerror(errno)) : 0;
}

static int write_speedscope(FILE *out, const hpcdb_experiment *exp, hpcdb_source *src, const hpcdb_export_options *o) {
  (void)src;
  return hpcdb_export_speedscope(out, exp, o->metric);
}

const export_desc export_speedscope = {
    {"speedscope",
     "speedscope's JSON file format: one sampled profile per rank/thread, each calling path weighted by its own "
     "cost of the metric; the frames are functions with their file and line (lines, loops and inlined calls "
     "fold into their function).",
     HPCDB_EXPORT_TAKES_METRIC, HPCDB_EXPORT_READS_ALL},
    write_speedscope};
