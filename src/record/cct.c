/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-thread calling-context tree, built in the signal handler: nodes
 * live in an arena (never move, id = index + 1), children in a sibling list
 * with the most recently found child moved to the front (hot paths stay
 * short). Only the owning thread's handler inserts; a node is published by
 * bumping the arena count after it is complete, so a flush from another
 * thread sees whole nodes. */
#include <string.h>

#include "record.h"

static uint64_t pack(const char name[8]) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | (uint8_t)name[i];
  return v;
}

static uint32_t add(rec_cct *c, uint32_t parent, uint16_t lm, uint64_t offset) {
  uint32_t i = rec_arena_alloc(&c->nodes);
  if (i == UINT32_MAX) return REC_NO_NODE;
  rec_node *n = rec_cct_node(c, i);
  n->offset = offset;
  n->lm = lm;
  n->parent = parent;
  n->first_child = REC_NO_NODE;
  n->next_sibling = REC_NO_NODE;
  if (parent != REC_NO_NODE) {
    rec_node *p = rec_cct_node(c, parent);
    n->next_sibling = p->first_child;
    __atomic_store_n(&c->nodes.count, i + 1, __ATOMIC_RELEASE);
    p->first_child = i;
  } else {
    __atomic_store_n(&c->nodes.count, i + 1, __ATOMIC_RELEASE);
  }
  return i;
}

/* hpcrun's placeholders: the program root, the idle node, the thread's root
 * ("| Main  " or "| Thread"); where partial unwinds go ("^Partial") is added
 * when the first one happens. */
int rec_cct_init(rec_cct *c, int main_thread) {
  if (rec_arena_init(&c->nodes, sizeof(rec_node), 1024) < 0) return -1;
  c->root = add(c, REC_NO_NODE, 0, pack("^Primary"));
  c->idle = add(c, c->root, 0, pack("NoActvty"));
  c->thread_root = add(c, c->root, 0, pack(main_thread ? "| Main  " : "| Thread"));
  c->partial_root = REC_NO_NODE; /* made by the first partial unwind */
  return c->thread_root == REC_NO_NODE ? -1 : 0;
}

uint32_t rec_cct_partial_root(rec_cct *c) {
  if (c->partial_root == REC_NO_NODE) c->partial_root = add(c, c->root, 0, pack("^Partial"));
  return c->partial_root;
}

uint32_t rec_cct_child(rec_cct *c, uint32_t parent, uint16_t lm, uint64_t offset) {
  rec_node *p = rec_cct_node(c, parent);
  uint32_t prev = REC_NO_NODE;
  for (uint32_t i = p->first_child; i != REC_NO_NODE;) {
    rec_node *n = rec_cct_node(c, i);
    if (n->offset == offset && n->lm == lm) {
      if (prev != REC_NO_NODE) { /* move to front */
        rec_cct_node(c, prev)->next_sibling = n->next_sibling;
        n->next_sibling = p->first_child;
        p->first_child = i;
      }
      return i;
    }
    prev = i;
    i = n->next_sibling;
  }
  return add(c, parent, lm, offset);
}
