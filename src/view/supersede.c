/* SPDX-License-Identifier: BSD-3-Clause */
/* Superseded work: slots of generations (see supersede.h). */
#include "supersede.h"

#include <string.h>

void supersede_init(supersede *s) {
  memset(s, 0, sizeof *s);
  pthread_mutex_init(&s->lock, NULL);
}

void supersede_fini(supersede *s) { pthread_mutex_destroy(&s->lock); }

static uint64_t key_of(const char *name) { /* FNV-1a, never 0 */
  uint64_t h = 14695981039346656037ull;
  for (; *name; name++) h = (h ^ (unsigned char)*name) * 1099511628211ull;
  return h ? h : 1;
}

void supersede_enter(supersede *s, const char *name, supersede_ticket *t) {
  *t = (supersede_ticket){s, 0, 0, 0};
  if (!name || !*name) return;
  t->key = key_of(name);
  pthread_mutex_lock(&s->lock);
  uint32_t at = 0;
  while (at < SUPERSEDE_SLOTS && s->key[at] != t->key) at++;
  if (at == SUPERSEDE_SLOTS) { /* a new slot takes the oldest entry */
    at = s->next;
    s->next = (s->next + 1) % SUPERSEDE_SLOTS;
    s->key[at] = t->key;
  }
  t->at = at;
  t->gen = ++s->gen[at];
  pthread_mutex_unlock(&s->lock);
}

int supersede_stale(void *ticket) {
  const supersede_ticket *t = ticket;
  if (!t->key) return 0;
  pthread_mutex_lock(&t->s->lock);
  int stale = t->s->key[t->at] == t->key && t->s->gen[t->at] != t->gen;
  pthread_mutex_unlock(&t->s->lock);
  return stale;
}
