/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_read and hpcdb_validate: detect, then hand over to the format's
 * descriptor. */
#include "common/error.h"
#include "core/formats.h"

int hpcdb_read(hpcdb_experiment **out, const char *path) { return hpcdb_read_opts(out, path, NULL); }

int hpcdb_read_opts(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options) {
  HPCDB_CHECK_OPTIONS(options, HPCDB_READ_OPTIONS_VERSION, "hpcdb_read_options");
  *out = NULL;
  hpcdb_format f;
  HPCDB_TRY(hpcdb_detect(&f, path));
  const format_desc *d = format_lookup(f, NULL);
  if (!d || !d->read)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: %s: reading this format is not supported yet", path,
                      hpcdb_format_name(f));
  int partial = options && (options->values != HPCDB_READ_ALL || options->flags);
  return d->read(out, path, f, partial ? options : NULL);
}

int hpcdb_validate(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user) {
  result->errors = result->notes = 0;
  hpcdb_format f;
  HPCDB_TRY(hpcdb_detect(&f, path));
  const format_desc *d = format_lookup(f, NULL);
  if (!d || !d->validate)
    return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: %s: validating this format is not supported yet", path,
                      hpcdb_format_name(f));
  return d->validate(result, path, fn, user);
}
