/* SPDX-License-Identifier: BSD-3-Clause */
/* The configuration hpcdb record passes in the environment (already
 * checked there): HPCDB_RECORD_DIR, HPCDB_RECORD_TRACE=1 and
 * HPCDB_RECORD_EVENTS, one "kind:type:config:period:freq:name" per event,
 * separated by ';' (kind 0 CPUTIME, 1 REALTIME, 2 perf_event_open; timer
 * periods in ns). HPCDB_RECORD_UNWIND=fp (set by the user) unwinds with
 * frame pointers only. Without HPCDB_RECORD_DIR the library stays inert. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

static int parse_event(const char *s, rec_event *e) {
  unsigned kind, type;
  unsigned long long config, period, freq;
  int used = 0;
  memset(e, 0, sizeof *e);
  if (sscanf(s, "%u:%u:%llu:%llu:%llu:%n", &kind, &type, &config, &period, &freq, &used) != 5 || kind > REC_EV_PERF)
    return -1;
  const char *name = s + used, *end = strchr(name, ';');
  size_t n = end ? (size_t)(end - name) : strlen(name);
  if (!n || n >= sizeof e->name || (kind != REC_EV_PERF && !period) || (!period && !freq)) return -1;
  e->kind = (rec_event_kind)kind;
  e->perf_type = type;
  e->perf_config = config;
  e->period = period;
  e->freq = freq;
  memcpy(e->name, name, n);
  return 0;
}

int rec_config_load(rec_config *c) {
  memset(c, 0, sizeof *c);
  const char *dir = getenv("HPCDB_RECORD_DIR"), *events = getenv("HPCDB_RECORD_EVENTS");
  const char *trace = getenv("HPCDB_RECORD_TRACE");
  if (!dir || !dir[0] || strlen(dir) >= sizeof c->dir) return -1;
  strcpy(c->dir, dir);
  c->trace = trace && !strcmp(trace, "1");
  const char *unwind = getenv("HPCDB_RECORD_UNWIND");
  c->frame_pointers_only = unwind && !strcmp(unwind, "fp");
  if (!events || !events[0]) events = "0:0:0:5000000:0:CPUTIME (sec)";
  for (const char *p = events; p && *p && c->n_events < REC_MAX_EVENTS;) {
    if (parse_event(p, &c->events[c->n_events]) < 0) return -1;
    c->n_events++;
    p = strchr(p, ';');
    if (p) p++;
  }
  c->enabled = c->n_events > 0;
  return c->enabled ? 0 : -1;
}
