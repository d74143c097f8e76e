/* SPDX-License-Identifier: BSD-3-Clause */
/* Superseded work (internal to src/view). A request may name its slot
 * (the page: its own random id and the kind of request, "k3f9c1.tile"); a
 * newer request in the same slot makes the older one stale, and the long
 * loops of the older one (hpcdb_trace_filter.cancelled) then stop it. The
 * table remembers the last SUPERSEDE_SLOTS slots: a slot pushed out is
 * never stale, so a forgotten request runs to its end rather than stopping
 * for another page's request. */
#ifndef HPCDB_VIEW_SUPERSEDE_H
#define HPCDB_VIEW_SUPERSEDE_H

#include <pthread.h>
#include <stdint.h>

#define SUPERSEDE_SLOTS 64

typedef struct supersede {
  pthread_mutex_t lock;
  uint64_t key[SUPERSEDE_SLOTS], gen[SUPERSEDE_SLOTS]; /* key 0: unused */
  uint32_t next;                                       /* the entry a new slot takes */
} supersede;

/* One request's place in its slot. */
typedef struct supersede_ticket {
  supersede *s;
  uint64_t key, gen; /* key 0: the request named no slot */
  uint32_t at;
} supersede_ticket;

void supersede_init(supersede *s);
void supersede_fini(supersede *s);
/* Enters a request of slot name (NULL or "": none) into s: any earlier
 * request of that slot is stale from now on. */
void supersede_enter(supersede *s, const char *name, supersede_ticket *t);
/* 1 when a newer request of the ticket's slot came in (for hpcdb_trace_filter.cancelled). */
int supersede_stale(void *ticket);

#endif
