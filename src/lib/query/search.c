/* SPDX-License-Identifier: BSD-3-Clause */
/* Finding top-down nodes by name (POSIX extended regular expressions). */
#include <regex.h>

#include "common/error.h"
#include "query/query_internal.h"

int hpcdb_query_search(hpcdb_query *q, const char *pattern, uint32_t offset, uint32_t limit, hpcdb_qnode *out,
                       uint32_t *n, uint32_t *total) {
  *n = *total = 0;
  regex_t re;
  int err = pattern ? regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) : REG_BADPAT;
  if (err) {
    char why[128] = "no expression";
    if (pattern) regerror(err, &re, why, sizeof why);
    return hpcdb_fail(HPCDB_EINVAL, "search \"%s\": %s", pattern ? pattern : "", why);
  }
  char name[512];
  for (uint32_t i = 0; i < q->exp->n_contexts; i++) {
    if (query_hidden(q->exp, i, 0)) continue;
    query_context_name(q->exp, i, name, sizeof name);
    if (regexec(&re, name, 0, NULL, 0) != 0) continue;
    if (*total >= offset && *n < limit) out[(*n)++] = i;
    (*total)++;
  }
  regfree(&re);
  return 0;
}
