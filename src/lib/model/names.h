/* SPDX-License-Identifier: BSD-3-Clause */
/* The one table of the names of the model's context relations and lexical
 * types, as dumps, paths and Cube files (hpctoolkit::relation,
 * hpctoolkit::lexical) spell them. */
#ifndef HPCDB_MODEL_NAMES_H
#define HPCDB_MODEL_NAMES_H

#include <stdint.h>

/* The name of an enum hpcdb_relation, resp. hpcdb_lexical_type value; NULL
 * for a value past the known ones (readers keep those as read). */
const char *model_relation_name(uint8_t relation);
const char *model_lexical_name(uint8_t lexical_type);
/* The value a name spells, or -1 for a name of none. */
int model_relation_of(const char *name);
int model_lexical_of(const char *name);

#endif
