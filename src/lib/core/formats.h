/* SPDX-License-Identifier: BSD-3-Clause */
/* The list of format descriptors (model/format.h): detection asks them in
 * order, reading and validation go to the one answering for a kind. */
#ifndef HPCDB_CORE_FORMATS_H
#define HPCDB_CORE_FORMATS_H

#include "model/format.h"

/* The descriptors, in the order detection asks them; *n of them. */
const format_desc *const *format_list(size_t *n);
/* The descriptor answering for a kind, or NULL; *name its kind's name. */
const format_desc *format_lookup(hpcdb_format kind, const char **name);

#endif
