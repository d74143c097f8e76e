/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: a unified tree as one rank sends it to another
 * (tree_merge.c), in parts, merged into an empty tree and into one that
 * already holds the same tree. The input is the parts one after another, each
 * a little-endian u32 length and its bytes; past the end the sender has
 * failed (an empty part). Corpus: the trees of the sample measurements and
 * damaged ones. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "distributed/tree_merge.h"

typedef struct input {
  const uint8_t *data;
  size_t size, at;
} input;

static int get(void *user, void **data, uint64_t *len) {
  input *in = user;
  *data = NULL;
  *len = 0;
  if (in->size - in->at < 4) return 0;
  const uint8_t *p = in->data + in->at;
  uint32_t n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  in->at += 4;
  if (n > in->size - in->at) n = (uint32_t)(in->size - in->at);
  if (!(*data = malloc(n ? n : 1))) return -1;
  memcpy(*data, in->data + in->at, n);
  in->at += n;
  *len = n;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  merged_tree m;
  input in = {data, size, 0};
  if (merged_tree_init(&m, "/nonexistent") == 0 && tree_merge_parts(&m, get, &in, 0, 0, "fuzz", NULL) == 0) {
    tree_map map = {0};
    in.at = 0;
    tree_merge_parts(&m, get, &in, 0, 1, "fuzz", &map); /* the last merge: no keys entered */
    tree_map_free(&map);
  }
  merged_tree_free(&m);
  return 0;
}
