/* hpcdb_read and hpcdb_validate: detect, then hand over to the format. */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "core/formats.h"

/* A lone profile.db, cct.db or trace.db is read as the database around it. */
static int read_directory_of(hpcdb_experiment **out, const char *path) {
  char dir[4096];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  return hpcdb_hpctk4_read(out, dir);
}

int hpcdb_read(hpcdb_experiment **out, const char *path) { return hpcdb_read_opts(out, path, NULL); }

int hpcdb_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options) {
  *out = NULL;
  hpcdb_format f;
  HPCDB_TRY(hpcdb_detect(&f, path));
  if (f == HPCDB_FORMAT_HPCTK4_PROFILE || f == HPCDB_FORMAT_HPCTK4_CCT || f == HPCDB_FORMAT_HPCTK4_TRACE)
    return read_directory_of(out, path);
  const format_entry *e = format_lookup(f);
  if (!e || !e->read)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: %s: reading this format is not supported yet", path,
                      hpcdb_format_name(f));
  if (options && (options->values != HPCDB_READ_ALL || options->flags) && e->read_opts) return e->read_opts(out, path, options);
  return e->read(out, path);
}

int hpcdb_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  result->errors = result->notes = 0;
  hpcdb_format f;
  HPCDB_TRY(hpcdb_detect(&f, path));
  const format_entry *e = format_lookup(f);
  if (!e || !e->validate)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: %s: validating this format is not supported yet", path,
                      hpcdb_format_name(f));
  return e->validate(result, path, fn, user);
}
