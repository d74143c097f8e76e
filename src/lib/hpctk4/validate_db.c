/* hpctk4_validate: every rule for a v4.0 database directory (the files and
 * the references between them) or for a single *.db file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "hpctk4/validate.h"

int hpctk4_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);

typedef void (*check_fn)(validator *, vfile *);

/* Maps and checks one file; keep (profile.db) stays mapped for later files. */
static int check_file(validator *v, const char *path, check_fn check, hpcdb_mapped_file *keep) {
  hpcdb_mapped_file m;
  HPCDB_TRY(mapped_file_open(&m, path));
  mapped_file_advise_sequential(&m);
  vfile f = {path, m.data, m.len, 0, {0}, {0}, 0};
  check(v, &f);
  if (keep) {
    *keep = m;
    v->prof = f;
  } else {
    mapped_file_close(&m);
  }
  return 0;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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
  hpcdb_mapped_file prof = {0};
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    static const struct { const char *name; check_fn check; int required; } files[] = {
        {"meta.db", validate_meta, 1}, {"profile.db", validate_profile, 0},
        {"cct.db", validate_cct, 0},   {"trace.db", validate_trace, 0}};
    for (size_t i = 0; i < sizeof files / sizeof *files && rc == 0; i++) {
      char file[4096];
      snprintf(file, sizeof file, "%s/%s", path, files[i].name);
      if (!files[i].required && !exists(file)) continue;
      rc = check_file(v, file, files[i].check, files[i].check == validate_profile ? &prof : NULL);
    }
  } else {
    check_fn check = check_of(path);
    rc = check ? check_file(v, path, check, NULL)
               : hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not an HPCToolkit v4.0 file", path);
  }
  mapped_file_close(&prof);
  u64map_free(&v->ctx_ids);
  free(v->ctx_bits);
  free(v->is_summary);
  free(v);
  return rc;
}
