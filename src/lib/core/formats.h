/* The table of formats: how each is recognised, read and validated. A new
 * format adds one line in formats.c. */
#ifndef HPCDB_CORE_FORMATS_H
#define HPCDB_CORE_FORMATS_H

#include "hpcdb/hpcdb.h"

typedef struct format_entry {
  hpcdb_format format;
  const char *name;
  int (*read)(hpcdb_experiment **out, const char *path);
  int (*validate)(hpcdb_validation *result, const char *path, hpcdb_diagnostic_fn fn, void *user);
  /* Optional: a reader that loads only what the options ask for (NULL: read
   * reads everything, which is always a right answer). */
  int (*read_opts)(hpcdb_experiment **out, const char *path, const hpcdb_read_options *options);
} format_entry;

/* The entry of a format, or NULL. */
const format_entry *format_lookup(hpcdb_format format);

#endif
