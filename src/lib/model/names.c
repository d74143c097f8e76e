/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of relations and lexical types (names.h). */
#include "model/names.h"

#include <string.h>

#include "hpcdb/model.h"

static const char *const relations[] = {
    [HPCDB_REL_LEXICAL] = "lexical", [HPCDB_REL_CALL] = "call", [HPCDB_REL_INLINED_CALL] = "inlined call"};
static const char *const lexicals[] = {[HPCDB_LEX_FUNCTION] = "function",
                                       [HPCDB_LEX_LOOP] = "loop",
                                       [HPCDB_LEX_LINE] = "line",
                                       [HPCDB_LEX_INSTRUCTION] = "instruction"};

#define COUNT(a) (sizeof a / sizeof *a)

const char *model_relation_name(uint8_t relation) { return relation < COUNT(relations) ? relations[relation] : NULL; }

const char *model_lexical_name(uint8_t lexical_type) {
  return lexical_type < COUNT(lexicals) ? lexicals[lexical_type] : NULL;
}

static int index_of(const char *name, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(name, names[i])) return (int)i;
  return -1;
}

int model_relation_of(const char *name) { return index_of(name, relations, COUNT(relations)); }

int model_lexical_of(const char *name) { return index_of(name, lexicals, COUNT(lexicals)); }
