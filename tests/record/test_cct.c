/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the profiler's calling-context tree and its arena (the parts
 * the signal handler builds): placeholders as hpcrun writes them, the same
 * path found again, parents before children, nodes that never move across
 * chunk boundaries, memory that grows with contexts and not with samples. */
#include <stdio.h>
#include <string.h>

#include "record.h"

static int failures;
#define CHECK(c)                                                                                   \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c);                                      \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

static uint64_t chars(const char *s) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | (uint8_t)s[i];
  return v;
}

int main(void) {
  rec_cct c;
  CHECK(rec_cct_init(&c, 1) == 0);
  CHECK(rec_cct_node(&c, c.root)->offset == chars("^Primary"));
  CHECK(rec_cct_node(&c, c.root)->parent == REC_NO_NODE);
  CHECK(rec_cct_node(&c, c.idle)->offset == chars("NoActvty"));
  CHECK(rec_cct_node(&c, c.thread_root)->offset == chars("| Main  "));
  CHECK(rec_cct_node(&c, c.thread_root)->lm == 0);
  CHECK(c.partial_root == REC_NO_NODE);
  uint32_t partial = rec_cct_partial_root(&c);
  CHECK(rec_cct_node(&c, partial)->offset == chars("^Partial"));
  CHECK(rec_cct_node(&c, partial)->parent == c.root);
  CHECK(rec_cct_partial_root(&c) == partial);

  /* the same path is the same node; a different module or offset is not */
  uint32_t a = rec_cct_child(&c, c.thread_root, 1, 0x1000);
  uint32_t b = rec_cct_child(&c, a, 1, 0x2000);
  uint32_t before = c.nodes.count;
  CHECK(rec_cct_child(&c, c.thread_root, 1, 0x1000) == a);
  CHECK(rec_cct_child(&c, a, 1, 0x2000) == b);
  CHECK(c.nodes.count == before);
  CHECK(rec_cct_child(&c, a, 2, 0x2000) != b);
  CHECK(rec_cct_child(&c, c.thread_root, 1, 0x2000) != b);

  /* many samples of the same contexts: no growth */
  uint64_t bytes = c.nodes.mapped_bytes;
  for (int i = 0; i < 100000; i++) rec_cct_child(&c, a, 1, 0x2000 + (uint64_t)(i % 7) * 4);
  CHECK(c.nodes.mapped_bytes == bytes);

  /* many contexts: chunks added, nodes stay where they were, parents first */
  rec_node *first = rec_cct_node(&c, b);
  uint32_t parent = b;
  for (uint32_t i = 0; i < 5000; i++) parent = rec_cct_child(&c, parent, 3, i);
  CHECK(c.nodes.count > 5000);
  CHECK(rec_cct_node(&c, b) == first);
  CHECK(c.nodes.mapped_bytes > bytes);
  CHECK(c.nodes.mapped_bytes < (uint64_t)16 * 1024 * sizeof(rec_node));
  for (uint32_t i = 1; i < c.nodes.count; i++) {
    uint32_t p = rec_cct_node(&c, i)->parent;
    CHECK(p != REC_NO_NODE && p < i);
  }
  for (uint32_t i = 0, n = parent; i < 5000; i++, n = rec_cct_node(&c, n)->parent)
    CHECK(rec_cct_node(&c, n)->offset == 4999 - i);
  rec_arena_free(&c.nodes);
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures != 0;
}
