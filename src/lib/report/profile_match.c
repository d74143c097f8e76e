/* SPDX-License-Identifier: BSD-3-Clause */
/* Which profiles a --profile selection names: a whole identity as 'hpcdb info' prints it
 * ("RANK 3 THREAD 0"), or a pattern of identity levels, "rank=3", "rank=0-7,thread=0",
 * "node=0x660a0523" (a level's kind name, any case; its logical id, or its physical id
 * where the identity shows one; a single value or an inclusive range). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hpcdb/report.h"

#define MAX_TERMS 8

typedef struct term {
  char kind[32];
  unsigned long long lo, hi;
} term;

static int parse_number(const char *s, const char **end, unsigned long long *v) {
  if (!isdigit((unsigned char)*s)) return -1;
  char *e;
  *v = strtoull(s, &e, 0); /* 0x... for physical ids */
  *end = e;
  return 0;
}

/* n terms of pattern, or -1 with why. */
static int parse(const char *pattern, term *t, char *why, size_t size) {
  int n = 0;
  for (const char *p = pattern; *p;) {
    const char *eq = strchr(p, '='), *comma = strchr(p, ',');
    if (!eq || (comma && comma < eq) || eq == p || (size_t)(eq - p) >= sizeof t->kind || n == MAX_TERMS) {
      snprintf(why, size, "--profile: '%s' is not LEVEL=N[-M][,LEVEL=N[-M]]... (e.g. rank=0-7,thread=0)", pattern);
      return -1;
    }
    snprintf(t[n].kind, sizeof t[n].kind, "%.*s", (int)(eq - p), p);
    const char *end;
    if (parse_number(eq + 1, &end, &t[n].lo) < 0) goto bad;
    t[n].hi = t[n].lo;
    if (*end == '-' && parse_number(end + 1, &end, &t[n].hi) < 0) goto bad;
    if (t[n].hi < t[n].lo || (*end && *end != ',') || (*end == ',' && !end[1])) goto bad;
    n++;
    p = *end ? end + 1 : end;
    continue;
  bad:
    snprintf(why, size, "--profile: '%s': %s takes a number or a range N-M", pattern, t[n].kind);
    return -1;
  }
  return n;
}

int hpcdb_profile_pattern_check(const char *pattern, char *why, size_t size) {
  term t[MAX_TERMS];
  return parse(pattern, t, why, size) < 0 ? -1 : 0;
}

int hpcdb_profile_matches(const hpcdb_experiment *e, const hpcdb_profile *p, const char *selection) {
  term t[MAX_TERMS];
  char why[8];
  if (!strchr(selection, '=')) {
    char id[256];
    hpcdb_profile_identity(e, p, id, sizeof id);
    return !strcmp(id, selection);
  }
  int n = parse(selection, t, why, sizeof why);
  if (n <= 0 || (p->flags & HPCDB_PROFILE_SUMMARY)) return 0;
  for (int k = 0; k < n; k++) {
    int found = 0;
    for (uint16_t i = 0; i < p->n_ids && !found; i++) {
      const hpcdb_id *id = &p->ids[i];
      const char *kind = id->kind < e->n_kind_names ? e->kind_names[id->kind] : NULL;
      unsigned long long v = id->flags & HPCDB_ID_PHYSICAL ? id->physical_id : id->logical_id;
      found = kind && !strcasecmp(kind, t[k].kind) && v >= t[k].lo && v <= t[k].hi;
    }
    if (!found) return 0;
  }
  return 1;
}
