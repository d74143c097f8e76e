/* SPDX-License-Identifier: BSD-3-Clause */
/* Byte cursors: byte order, bounds, overflow, strings. */
#include <string.h>

#include "common/cursor.h"
#include "common/hashmap.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

int main(void) {
  const uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 'h', 'i', 0, 'x'};
  CHECK(rd_le16(bytes) == 0x0201 && rd_be16(bytes) == 0x0102);
  CHECK(rd_le32(bytes) == 0x04030201u && rd_be32(bytes) == 0x01020304u);
  CHECK(rd_le64(bytes) == 0x0807060504030201ull && rd_be64(bytes) == 0x0102030405060708ull);
  uint8_t w[8];
  wr_le_f64(w, 1.0);
  CHECK(memcmp(w, "\0\0\0\0\0\0\xf0\x3f", 8) == 0);
  wr_be_f64(w, 1.0);
  CHECK(memcmp(w, "\x3f\xf0\0\0\0\0\0\0", 8) == 0);

  hpcdb_cursor c;
  cursor_init(&c, bytes, sizeof bytes, "test.bin");
  uint32_t v32;
  CHECK_RC(cursor_le32(&c, &v32, "a"));
  CHECK(v32 == 0x04030201u && c.pos == 4);
  CHECK_RC(cursor_section(&c, "sec", 8, 4));
  uint64_t v64;
  CHECK(cursor_le64(&c, &v64, "too long") == HPCDB_ETRUNCATED);
  CHECK(strstr(hpcdb_last_error(), "test.bin: sec: offset 0x8: bounds") != NULL);
  CHECK(cursor_section(&c, "sec", 10, 3) == HPCDB_ETRUNCATED);
  CHECK(cursor_section(&c, "sec", UINT64_MAX, 2) == HPCDB_ETRUNCATED);
  CHECK(cursor_check_array(&c, 0, UINT64_MAX / 2, 4, "arr") == HPCDB_ECORRUPT);
  CHECK(in_bounds(12, 12, 0) && !in_bounds(12, 13, 0) && !in_bounds(12, 2, UINT64_MAX));
  const char *s;
  size_t n;
  CHECK_RC(cursor_cstring_at(&c, 8, 8, 12, &s, &n, "name"));
  CHECK(n == 2 && memcmp(s, "hi", 2) == 0);
  CHECK(cursor_cstring_at(&c, 11, 8, 12, &s, &n, "name") == HPCDB_ECORRUPT);
  CHECK(cursor_cstring_at(&c, 7, 8, 12, &s, &n, "name") == HPCDB_ECORRUPT);

  hpcdb_u64map m = {0};
  for (uint64_t i = 0; i < 1000; i++) CHECK(u64map_put(&m, i * 7919, i) == 0);
  uint64_t got = 0;
  CHECK(u64map_get(&m, 500 * 7919, &got) == 1 && got == 500);
  CHECK(u64map_get(&m, 3, &got) == 0);
  u64map_free(&m);
  hpcdb_strpool pool = {0};
  const char *a = strpool_intern(&pool, "alpha", 5);
  CHECK(a == strpool_intern(&pool, "alphabet", 5));
  CHECK(a != strpool_intern(&pool, "alpha!", 6));
  strpool_free(&pool);
  return TEST_END();
}
