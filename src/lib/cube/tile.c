/* SPDX-License-Identifier: BSD-3-Clause */
/* How many locations to handle at once when a cnode × location matrix is
 * walked location by location: their columns are copied out together, so
 * that the walk reads and writes memory in order. */
#include "cube/cube.h"

uint32_t cube_tile_width(uint32_t n_cnodes, uint32_t n_locations) {
  uint64_t w = ((uint64_t)4 << 20) / (((uint64_t)n_cnodes + 1) * 8); /* a tile of about 4 MB */
  if (w > 64) w = 64;
  if (w > n_locations) w = n_locations;
  return w ? (uint32_t)w : 1;
}
