/* Fuzz target: one metric's .index and .data. Input: u32 LE length of the
 * index, the index, then the data; the value size, location and cnode
 * counts come from the index length so that every shape is reached. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/bytes.h"
#include "cube/cube.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  uint32_t ix_len = rd_le32(data);
  if (ix_len > size - 4) return 0;
  static const size_t sizes[] = {1, 2, 4, 8, 16, 36};
  size_t value_size = sizes[ix_len % 6];
  uint32_t locations = 1 + ix_len % 3, cnodes = 1 + (ix_len / 3) % 8;
  cube_values v;
  if (cube_values_decode(&v, data + 4, ix_len, data + 4 + ix_len, size - 4 - ix_len, value_size, locations, cnodes,
                         "fuzz/x.cubex", "m") == 0)
    cube_values_free(&v);
  return 0;
}
