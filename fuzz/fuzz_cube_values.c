/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: one metric's .index and .data, and every value decoded as a
 * data type, with its components. Input: u32 LE length of the index, the
 * index, then the data; the data type, location and cnode counts come from
 * the index length so that every shape is reached. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/bytes.h"
#include "cube/cube.h"

static const char *const dtypes[] = {"INT8",       "UINT16",  "INT32",       "UINT64",       "DOUBLE",     "RATE",
                                     "TAU_ATOMIC", "COMPLEX", "NDOUBLES(3)", "HISTOGRAM(4)", "SCALE_FUNC", "MINDOUBLE"};

static volatile double sink;

static void decode_all(const cube_values *v, const cube_dtype *t, uint32_t locations) {
  int64_t terms = 0;
  for (uint32_t k = 0; k < v->n_rows; k++)
    for (uint32_t l = 0; l < locations; l++) {
      const uint8_t *p = v->data + ((size_t)k * locations + l) * t->size;
      sink = cube_decode(t, p, v->big_endian);
      if (t->kind == CUBE_DT_SCALE_FUNC) {
        int64_t n = cube_scale_func_terms(p, v->big_endian);
        if (n < 0) return; /* the reader rejects such a value */
        if (n > terms) terms = n;
      }
    }
  uint32_t n = cube_n_components(t, (uint32_t)terms);
  for (uint32_t c = 0; c < n; c++) {
    cube_component comp;
    cube_component_of(t, c, 0, &comp);
    for (uint32_t k = 0; k < v->n_rows; k++)
      for (uint32_t l = 0; l < locations; l++)
        sink = cube_decode_component(t, c, v->data + ((size_t)k * locations + l) * t->size, v->big_endian);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  uint32_t ix_len = rd_le32(data);
  if (ix_len > size - 4) return 0;
  cube_dtype t;
  if (!cube_dtype_parse(&t, dtypes[ix_len % (sizeof dtypes / sizeof *dtypes)]) || !t.size) return 0;
  uint32_t locations = 1 + ix_len % 3, cnodes = 1 + (ix_len / 3) % 8;
  cube_values v;
  if (cube_values_decode(&v, data + 4, ix_len, data + 4 + ix_len, size - 4 - ix_len, t.size, locations, cnodes,
                         "fuzz/x.cubex", "m") == 0) {
    decode_all(&v, &t, locations);
    cube_values_free(&v);
  }
  return 0;
}
