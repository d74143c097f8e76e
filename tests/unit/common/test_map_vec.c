/* SPDX-License-Identifier: BSD-3-Clause */
/* Arrays grown by mremap: contents kept, new elements zero, capacity in whole
 * pages, overflow refused. */
#include <unistd.h>

#include "common/map_vec.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

typedef struct item {
  uint64_t a, b;
  uint32_t c;
} item;

int main(void) {
  item *v = NULL;
  uint64_t cap = 0;
  CHECK_RC(MAP_VEC_RESERVE(&v, &cap, 1));
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  CHECK(v != NULL && cap * sizeof *v <= page && (cap + 1) * sizeof *v > page); /* the first page, whole */
  uint64_t n = 0;
  for (; n < 300000; n++) { /* past the huge-page size: several moves */
    CHECK_RC(MAP_VEC_RESERVE(&v, &cap, n + 1));
    CHECK(v[n].a == 0 && v[n].b == 0 && v[n].c == 0);
    v[n] = (item){n, ~n, (uint32_t)(n * 7)};
  }
  CHECK(cap >= n);
  for (uint64_t i = 0; i < n; i++) CHECK(v[i].a == i && v[i].b == ~i && v[i].c == (uint32_t)(i * 7));
  uint64_t before = cap;
  CHECK_RC(MAP_VEC_RESERVE(&v, &cap, n)); /* room already */
  CHECK(cap == before);
  CHECK(MAP_VEC_RESERVE(&v, &cap, UINT64_MAX / 4) == HPCDB_ENOMEM);
  CHECK(cap == before && v[n - 1].a == n - 1); /* unchanged after a refusal */
  map_vec_free(v, cap, sizeof *v);
  map_vec_free(NULL, 0, sizeof *v);
  return TEST_END();
}
