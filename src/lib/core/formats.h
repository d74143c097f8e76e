/* SPDX-License-Identifier: BSD-3-Clause */
/* The list of format descriptors (model/format.h): detection asks them in
 * order, reading and validation go to the one answering for a kind. */
#ifndef HPCDB_CORE_FORMATS_H
#define HPCDB_CORE_FORMATS_H

#include "model/format.h"

/* The descriptors (their order matters to nothing but listings); *n of them. */
const format_desc *const *format_list(size_t *n);
/* What detection looks at of path (head: room for size bytes of a file's beginning). */
int format_probe_of(format_probe *p, const char *path, uint8_t *head, size_t size);
/* The kind of the highest bid of list's formats for p (equal bids: the smaller kind), or HPCDB_FORMAT_UNKNOWN. */
hpcdb_format format_detect_in(const format_desc *const *list, size_t n, const format_probe *p);
/* The parts this build left out, as a phrase ("Cube files (HPCDB_WITH_CUBE=OFF), ..."), or NULL. */
const char *format_parts_left_out(void);
/* The descriptor answering for a kind, or NULL; *name its kind's name. */
const format_desc *format_lookup(hpcdb_format kind, const char **name);

#endif
