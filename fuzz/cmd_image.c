/* SPDX-License-Identifier: BSD-3-Clause */
/* The directory images of the command-level fuzz targets (cmd_image.h). */
#define _XOPEN_SOURCE 700
#include "cmd_image.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hpcdb/cube.h"
#include "hpcdb/hpcdb.h"
#include "hpcdb/report.h"

static int safe_name(const char *s, size_t n) {
  if (n == 0 || s[0] == '.') return 0;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
          s[i] == '_' || s[i] == '-'))
      return 0;
  return 1;
}

int cmd_image_unpack(const uint8_t *data, size_t size, char *dir, size_t dir_size, char *input, size_t input_size) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, dir_size, "%s/hpcdb-fuzz-XXXXXX", tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return -1;
  size_t at = 0, files = 0;
  char path[4096] = "";
  while (size - at >= 1) {
    size_t n = data[at++];
    if (n > size - at) break;
    const char *name = (const char *)data + at;
    at += n;
    if (size - at < 4) break;
    size_t len = (size_t)data[at] | (size_t)data[at + 1] << 8 | (size_t)data[at + 2] << 16 | (size_t)data[at + 3] << 24;
    at += 4;
    if (len > size - at) len = size - at; /* a cut image keeps what it has */
    if (safe_name(name, n)) {
      snprintf(path, sizeof path, "%s/%.*s", dir, (int)n, name);
      FILE *f = fopen(path, "wb");
      if (f) {
        if (len) fwrite(data + at, 1, len, f);
        fclose(f);
        files++;
      }
    }
    at += len;
  }
  snprintf(input, input_size, "%s", files == 1 ? path : dir);
  return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)type, (void)ftw;
  return remove(path);
}

void cmd_image_remove(const char *dir) { nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

/* The partial reads `info` and `report` make (counts, the summary only, each
 * profile's totals), each printed as those commands print it. */
static void run_partial_reads(const char *input, FILE *null) {
  static const hpcdb_read_options reads[] = {
      {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_COUNTS, NULL, 0, 0},
      {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, HPCDB_READ_SUMMARY_ONLY},
      {HPCDB_READ_OPTIONS_VERSION, HPCDB_READ_ALL, NULL, 0, HPCDB_READ_PROFILE_TOTALS}};
  for (size_t i = 0; i < sizeof reads / sizeof *reads; i++) {
    hpcdb_experiment *exp = NULL;
    if (hpcdb_read_opts(&exp, input, &reads[i]) < 0) continue;
    hpcdb_report_options o = {
        .view = i == 2 ? HPCDB_VIEW_PROFILES : HPCDB_VIEW_TOP_DOWN, .threshold = 0.01, .width = 100};
    if (i == 0) hpcdb_write_info(null, exp);
    else hpcdb_report(null, exp, &o);
    hpcdb_experiment_free(exp);
  }
}

void cmd_run_pipeline(const char *input, const char *dir) {
  hpcdb_validation res;
  hpcdb_validate(&res, input, NULL, NULL);
  FILE *partial = fopen("/dev/null", "w");
  if (partial) {
    run_partial_reads(input, partial);
    fclose(partial);
  }
  hpcdb_experiment *exp = NULL;
  if (hpcdb_read(&exp, input) < 0) return;
  FILE *null = fopen("/dev/null", "w");
  if (null) {
    hpcdb_write_info(null, exp);
    hpcdb_dump_text(null, exp);
    hpcdb_dump_json(null, exp);
    for (int view = HPCDB_VIEW_TOP_DOWN; view <= HPCDB_VIEW_PROFILES; view++) {
      hpcdb_report_options o = {.view = (hpcdb_view)view, .threshold = 0.01, .width = 100};
      hpcdb_report(null, exp, &o);
      o.json = 1;
      hpcdb_report(null, exp, &o);
    }
    hpcdb_source *src = NULL;
    const hpcdb_export_info *e;
    if (hpcdb_source_from_experiment(&src, exp) == 0) /* every export of the registry */
      for (uint32_t i = 0; (e = hpcdb_export_get(i)); i++) hpcdb_export(null, src, e->name, NULL);
    hpcdb_source_close(src);
    fclose(null);
  }
  char out[4200];
  snprintf(out, sizeof out, "%s/converted.d", dir);
  hpcdb_hpctk4_write(exp, out, 0);
  snprintf(out, sizeof out, "%s/converted.cubex", dir);
  hpcdb_cube_write(exp, out, NULL);
  hpcdb_experiment_free(exp);
}
