/* Fuzz target: a unified tree as one rank sends it to another
 * (tree_merge.c), merged into an empty tree and into one that already holds
 * the same message. Corpus: the trees of the sample measurements. */
#include <stddef.h>
#include <stdint.h>

#include "analysis/tree_merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  merged_tree m;
  if (merged_tree_init(&m, "/nonexistent") == 0 && tree_merge(&m, data, size, 0, "fuzz", NULL) == 0) {
    tree_map map = {0};
    tree_merge(&m, data, size, 0, "fuzz", &map);
    tree_map_free(&map);
  }
  merged_tree_free(&m);
  return 0;
}
