/* SPDX-License-Identifier: BSD-3-Clause */
/* The signal handler: one sample = identify the source, unwind, insert the
 * path into the thread's tree, add the source's amount to the leaf, append
 * to the trace. Samples that cannot be taken are counted, never lost
 * silently: dropped (the thread is inside the profiler, or it is ending),
 * partial (the stack does not reach the thread's root). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "record.h"

static void add_value(rec_node *n, int ev, uint64_t amount) {
  if (rec_proc.cfg.events[ev].kind == REC_EV_PERF) {
    n->values[ev] += amount;
    return;
  }
  double have, add;
  memcpy(&have, &n->values[ev], sizeof have);
  memcpy(&add, &amount, sizeof add);
  have += add;
  memcpy(&n->values[ev], &have, sizeof have);
}

static void take(rec_thread *t, int ev, void *uc) {
  uint64_t amount = rec_events_amount(t, ev);
  int n;
  rec_unwind_status st = rec_unwind(t, uc, &n);
  rec_cct *c = &t->cct;
  uint32_t node = st == REC_UNW_ROOT ? c->thread_root : rec_cct_partial_root(c);
  if (st != REC_UNW_ROOT) t->partial++;
  for (int i = n - 1; i >= 0 && node != REC_NO_NODE; i--) {
    /* callers are stored as return address - 1, inside the call instruction,
     * as hpcrun does (the structure's lines then are the call's) */
    uint64_t off;
    uint16_t lm = rec_loadmap_lookup(i ? t->frames[i] - 1 : t->frames[i], &off);
    if (!lm) continue; /* an ip in no module (only the interrupted pc can be) */
    node = rec_cct_child(c, node, lm, off);
  }
  if (node == REC_NO_NODE) {
    t->dropped++;
    return;
  }
  add_value(rec_cct_node(c, node), ev, amount);
  t->samples[ev]++;
  if (rec_proc.cfg.trace) rec_trace_append(t, rec_now_ns(), node + 1);
}

void rec_sample(int sig, siginfo_t *si, void *uc) {
  int saved = errno;
  rec_thread *t = rec_self;
  int ev = rec_events_identify(t, si);
  if (ev < 0) {
    rec_forward_app_signal(sig, si, uc);
  } else if (!t) {
    __atomic_add_fetch(&rec_proc.lost_no_thread, 1, __ATOMIC_RELAXED);
  } else {
    /* in_handler before the flushed check: a flush waits for this sample */
    __atomic_store_n(&t->in_handler, 1, __ATOMIC_SEQ_CST);
    if (t->busy || !rec_proc.active || __atomic_load_n(&t->flushed, __ATOMIC_SEQ_CST)) t->dropped++;
    else take(t, ev, uc);
    __atomic_store_n(&t->in_handler, 0, __ATOMIC_SEQ_CST);
  }
  errno = saved;
}
