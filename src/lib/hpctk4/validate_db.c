/* SPDX-License-Identifier: BSD-3-Clause */
/* hpctk4_validate: every rule for a v4.0 database directory (the files and
 * the references between them) or for a single *.db file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "hpctk4/validate.h"

typedef void (*check_fn)(validator *, vfile *);

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Maps path for checking, and opens it for pread (hpctk4_chunks; without an
 * fd they read the mapped bytes); unmap_file undoes both. */
static int map_file(const char *path, hpcdb_mapped_file *m, vfile *f) {
  HPCDB_TRY(mapped_file_open(m, path));
  mapped_file_advise_sequential(m);
  *f = (vfile){.path = path, .d = m->data, .len = m->len, .fd = open(path, O_RDONLY | O_CLOEXEC)};
  return 0;
}

static void unmap_file(hpcdb_mapped_file *m, vfile *f) {
  if (f->fd >= 0) close(f->fd);
  f->fd = -1;
  mapped_file_close(m);
}

/* Maps and checks one file. */
static int check_file(validator *v, const char *path, check_fn check) {
  hpcdb_mapped_file m;
  vfile f;
  HPCDB_TRY(map_file(path, &m, &f));
  check(v, &f);
  unmap_file(&m, &f);
  return 0;
}

/* profile.db and cct.db, each optional; side by side when both are there.
 * profile.db stays mapped (v->prof) for the transpose check of cct.db. */
static int check_values(validator *v, const char *prof_path, const char *cct_path) {
  vfile pf = {.fd = -1}, cf = {.fd = -1};
  hpcdb_mapped_file prof = {0}, cct = {0};
  int with_prof = exists(prof_path), with_cct = exists(cct_path), rc = 0;
  if (with_prof) HPCDB_TRY(map_file(prof_path, &prof, &pf));
  if (with_cct) rc = map_file(cct_path, &cct, &cf);
  if (with_prof && with_cct && rc == 0) {
    validate_profile_and_cct(v, &pf, &cf);
  } else {
    if (with_prof) {
      validate_profile(v, &pf);
      v->prof = pf;
    }
    if (with_cct && rc == 0) validate_cct(v, &cf);
  }
  v->prof = (vfile){.fd = -1};
  unmap_file(&prof, &pf);
  unmap_file(&cct, &cf);
  return rc;
}

static check_fn check_of(const char *path) {
  FILE *fp = fopen(path, "rb");
  char head[14] = {0};
  size_t n = fp ? fread(head, 1, sizeof head, fp) : 0;
  if (fp) fclose(fp);
  if (n < 14 || memcmp(head, "HPCTOOLKIT", 10) != 0) return NULL;
  if (!memcmp(head + 10, "meta", 4)) return validate_meta;
  if (!memcmp(head + 10, "prof", 4)) return validate_profile;
  if (!memcmp(head + 10, "ctxt", 4)) return validate_cct;
  if (!memcmp(head + 10, "trce", 4)) return validate_trace;
  return NULL;
}

int hpctk4_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  validator *v = calloc(1, sizeof *v);
  if (!v) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  v->fn = fn;
  v->user = user;
  v->result = result;
  result->errors = result->notes = 0;
  struct stat st;
  int rc = 0;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    char meta[4096], prof_path[4096], cct_path[4096], trace[4096];
    snprintf(meta, sizeof meta, "%s/meta.db", path);
    snprintf(prof_path, sizeof prof_path, "%s/profile.db", path);
    snprintf(cct_path, sizeof cct_path, "%s/cct.db", path);
    snprintf(trace, sizeof trace, "%s/trace.db", path);
    rc = check_file(v, meta, validate_meta);
    if (rc == 0) rc = check_values(v, prof_path, cct_path);
    if (rc == 0 && exists(trace)) rc = check_file(v, trace, validate_trace);
  } else {
    check_fn check = check_of(path);
    rc = check ? check_file(v, path, check) : hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not an HPCToolkit v4.0 file", path);
  }
  u64map_free(&v->ctx_ids);
  free(v->ctx_bits);
  free(v->is_summary);
  free(v);
  return rc;
}
