/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_hpcrun_read: one .hpcrun (with its .hpctrace), one .hpctrace (with its
 * .hpcrun), or a measurements directory, into a new experiment. Files are
 * read one at a time and released once added. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/hpcrun.h"
#include "hpcrun/hpcrun_file.h"
#include "hpcrun/hpcrun_format.h"
#include "hpcrun/hpcrun_model.h"
#include "hpcrun/hpcrun_paths.h"

hpcdb_format hpcdb_hpcrun_sniff(const uint8_t *head, size_t n) {
  if (n >= HPCRUN_MAGIC_LEN && memcmp(head, HPCRUN_MAGIC, HPCRUN_MAGIC_LEN) == 0) return HPCDB_FORMAT_HPCRUN;
  if (n >= HPCRUN_MAGIC_LEN && memcmp(head, HPCTRACE_MAGIC, HPCRUN_MAGIC_LEN) == 0) return HPCDB_FORMAT_HPCTRACE;
  return HPCDB_FORMAT_UNKNOWN;
}

static int sniff_file(hpcdb_format *out, const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return hpcdb_fail(HPCDB_EIO, "%s: cannot open: %s", path, strerror(errno));
  uint8_t head[HPCRUN_HEADER_LEN];
  size_t n = fread(head, 1, sizeof head, fp);
  fclose(fp);
  *out = hpcdb_hpcrun_sniff(head, n);
  return 0;
}

int hpcdb_hpcrun_detect(hpcdb_format *out, const char *path) {
  *out = HPCDB_FORMAT_UNKNOWN;
  if (!hpcrun_is_dir(path)) return sniff_file(out, path);
  hpcrun_path_list l;
  HPCDB_TRY(hpcrun_list_profiles(&l, path));
  hpcdb_format first = HPCDB_FORMAT_UNKNOWN;
  int rc = l.n ? sniff_file(&first, l.paths[0]) : 0;
  if (rc == 0 && first == HPCDB_FORMAT_HPCRUN) *out = HPCDB_FORMAT_HPCRUN_DIR;
  hpcrun_path_list_free(&l);
  return rc;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Adds the profile at path and, when it exists, the .hpctrace beside it. */
static int add_one(hpcrun_builder *b, const char *path, const hpcrun_file *f, int prefix_attrs) {
  char *trace_path = hpcrun_swap_suffix(path, ".hpcrun", ".hpctrace");
  hpcrun_trace_file *t = NULL;
  int rc = 0;
  if (trace_path && hpcrun_is_file(trace_path)) rc = hpcrun_trace_load(&t, trace_path, NULL);
  if (rc == 0) {
    char *prefix = NULL;
    if (prefix_attrs) {
      prefix = strdup(base_name(path));
      char *dot = prefix ? strrchr(prefix, '.') : NULL;
      if (dot) *dot = '\0';
    }
    if (prefix_attrs && !prefix) rc = hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    else rc = hpcrun_builder_add(b, path, f, t, trace_path, prefix);
    free(prefix);
  }
  hpcrun_trace_free(t);
  free(trace_path);
  return rc;
}

static int set_source(hpcdb_experiment *exp, const hpcrun_file *f) {
  return hpcdb_set_format(exp, hpcrun_format.name, f->major, f->minor);
}

static int read_dir(hpcdb_experiment *exp, const char *dir) {
  hpcrun_path_list l;
  HPCDB_TRY(hpcrun_list_profiles(&l, dir));
  if (l.n == 0) {
    hpcrun_path_list_free(&l);
    return hpcdb_fail(HPCDB_ENOTFORMAT, "%s: no .hpcrun files in the directory", dir);
  }
  hpcrun_builder b;
  hpcrun_builder_init(&b, exp, l.n > 1);
  int rc = 0;
  for (size_t i = 0; i < l.n && rc == 0; i++) {
    hpcrun_file *f = NULL;
    rc = hpcrun_file_load(&f, l.paths[i], NULL);
    if (rc == 0 && i == 0) {
      rc = set_source(exp, f);
      if (f->major != 4 && f->n_epochs > 1) b.renumber = 1;
    }
    if (rc == 0) rc = add_one(&b, l.paths[i], f, l.n > 1);
    hpcrun_file_free(f);
  }
  hpcrun_builder_free(&b);
  hpcrun_path_list_free(&l);
  return rc;
}

static int read_file(hpcdb_experiment *exp, const char *path) {
  hpcrun_file *f = NULL;
  int rc = hpcrun_file_load(&f, path, NULL);
  char *profile_path = NULL;
  hpcdb_format kind = HPCDB_FORMAT_UNKNOWN;
  if (rc == HPCDB_ENOTFORMAT && sniff_file(&kind, path) == 0 && kind == HPCDB_FORMAT_HPCTRACE) {
    /* A trace is read with the profile it belongs to. */
    profile_path = hpcrun_swap_suffix(path, ".hpctrace", ".hpcrun");
    if (profile_path && hpcrun_is_file(profile_path)) {
      rc = hpcrun_file_load(&f, profile_path, NULL);
      path = profile_path;
    } else {
      rc = hpcdb_fail(HPCDB_ENOTFORMAT,
                      "%s: a trace is read with its profile, and no .hpcrun "
                      "with the same name is beside it",
                      path);
    }
  }
  if (rc == 0) {
    hpcrun_builder b;
    hpcrun_builder_init(&b, exp, f->major != 4 && f->n_epochs > 1);
    rc = set_source(exp, f);
    if (rc == 0) rc = add_one(&b, path, f, 0);
    hpcrun_builder_free(&b);
  }
  hpcrun_file_free(f);
  free(profile_path);
  return rc;
}

int hpcdb_hpcrun_read(hpcdb_experiment **out, const char *path) {
  *out = NULL;
  hpcdb_experiment *exp;
  HPCDB_TRY(hpcdb_experiment_new(&exp));
  int rc = hpcrun_is_dir(path) ? read_dir(exp, path) : read_file(exp, path);
  if (rc < 0) {
    hpcdb_experiment_free(exp);
    return rc;
  }
  rc = hpcdb_set_origin(exp, path);
  if (rc < 0) {
    hpcdb_experiment_free(exp);
    return rc;
  }
  *out = exp;
  return 0;
}
