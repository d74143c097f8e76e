/* SPDX-License-Identifier: BSD-3-Clause */
/* The cnode order of inclusive metrics' .index and .data (specs/README.md):
 * a node, then all its children, then the same for each child in turn. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "cube/cube_write.h"

int cube_inclusive_order(uint32_t n, const uint32_t *parent, const uint32_t *kids_at, const uint32_t *kids,
                         uint32_t *order) {
  uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack), k = 0;
  if (!stack) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u cnodes", n);
  for (uint32_t r = 0; r < n; r++) {
    if (parent[r] != UINT32_MAX) continue;
    order[k++] = r;
    size_t top = 0;
    stack[top++] = r;
    while (top > 0) { /* every node is pushed once: the stack never exceeds n */
      uint32_t c = stack[--top];
      for (uint32_t i = kids_at[c]; i < kids_at[c + 1]; i++) order[k++] = kids[i];
      for (uint32_t i = kids_at[c + 1]; i-- > kids_at[c];) stack[top++] = kids[i];
    }
  }
  free(stack);
  return 0;
}

int cube_children(uint32_t n, const uint32_t *parent, uint32_t *kids_at, uint32_t *kids) {
  memset(kids_at, 0, ((size_t)n + 2) * sizeof *kids_at);
  for (uint32_t c = 0; c < n; c++)
    if (parent[c] != UINT32_MAX) kids_at[parent[c] + 1]++;
  for (uint32_t c = 0; c < n; c++) kids_at[c + 1] += kids_at[c];
  uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!fill) return hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u cnodes", n);
  memcpy(fill, kids_at, (size_t)n * sizeof *fill);
  for (uint32_t c = 0; c < n; c++)
    if (parent[c] != UINT32_MAX) kids[fill[parent[c]]++] = c;
  free(fill);
  return 0;
}
