/* SPDX-License-Identifier: BSD-3-Clause */
/* The numbers the ranks' trees travel in (dist_msg_varint): each value back as
 * it was sent, in the bytes LEB128 gives it, and a message that stops inside a
 * number or runs past 64 bits is refused at its offset. */
#include <stdint.h>
#include <string.h>

#include "common/cursor.h"
#include "common/error.h"
#include "distributed/dist_msg.h"
#include "distributed/tree_wire.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static void round_trip(void) {
  static const uint64_t values[] = {
      0, 1, 127, 128, 300, 16383, 16384, UINT32_MAX - 1, UINT32_MAX, (uint64_t)1 << 63, UINT64_MAX};
  static const uint64_t sizes[] = {1, 1, 1, 2, 2, 2, 3, 5, 5, 10, 10};
  enum { N = sizeof values / sizeof values[0] };
  dist_msg m = {0};
  uint64_t total = 0;
  for (int i = 0; i < N; i++) {
    uint64_t before = m.len;
    dist_msg_varint(&m, values[i]);
    CHECK(m.len - before == sizes[i]);
    total += sizes[i];
  }
  CHECK_RC(dist_msg_status(&m));
  CHECK(m.len == total);
  CHECK(m.data[3] == 0x80 && m.data[4] == 0x01); /* 128: low 7 bits first, then the rest */
  hpcdb_cursor c;
  cursor_init(&c, m.data, m.len, "message");
  for (int i = 0; i < N; i++) {
    uint64_t v = 0;
    CHECK_RC(dist_msg_read_varint(&c, &v, "number"));
    CHECK(v == values[i]);
  }
  CHECK(c.pos == m.len);
  dist_msg_free(&m);
}

/* wire_read_number decodes a number with 10 bytes left without a bound check per byte, and hands the last
 * few bytes of a message and a malformed number to dist_msg_read_varint: the same values either way. */
static void wire_numbers(void) {
  static const uint64_t values[] = {5,          127, 128, 16384, UINT32_MAX, (uint64_t)1 << 56, (uint64_t)1 << 63,
                                    UINT64_MAX, 300, 1};
  enum { N = sizeof values / sizeof values[0] };
  dist_msg m = {0};
  for (int i = 0; i < N; i++) dist_msg_varint(&m, values[i]);
  CHECK_RC(dist_msg_status(&m));
  hpcdb_cursor c;
  cursor_init(&c, m.data, m.len, "message");
  for (int i = 0; i < N; i++) {
    uint64_t v = 0;
    CHECK_RC(wire_read_number(&c, UINT64_MAX, &v, "number"));
    CHECK(v == values[i]);
  }
  CHECK(c.pos == m.len);
  uint64_t v;
  cursor_init(&c, m.data, m.len, "message");
  CHECK(wire_read_number(&c, 4, &v, "number") == HPCDB_ECORRUPT); /* 5 is above the bound */
  dist_msg_free(&m);
  static const uint8_t past[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0}; /* 65 bits */
  static const uint8_t longer[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0};
  cursor_init(&c, past, sizeof past, "message");
  CHECK(wire_read_number(&c, UINT64_MAX, &v, "number") == HPCDB_ECORRUPT);
  cursor_init(&c, longer, sizeof longer, "message");
  CHECK(wire_read_number(&c, UINT64_MAX, &v, "number") == HPCDB_ECORRUPT);
}

static void refused(const uint8_t *bytes, uint64_t n, int expected) {
  hpcdb_cursor c;
  cursor_init(&c, bytes, n, "message");
  uint64_t v;
  CHECK(dist_msg_read_varint(&c, &v, "number") == expected);
  CHECK(strstr(hpcdb_last_error(), "message") != NULL);
}

int main(void) {
  round_trip();
  wire_numbers();
  static const uint8_t cut[] = {0x80, 0x80}; /* a number that does not end */
  static const uint8_t past[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}; /* 65 bits */
  static const uint8_t longer[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  refused(cut, sizeof cut, HPCDB_ETRUNCATED);
  refused(past, sizeof past, HPCDB_ECORRUPT);
  refused(longer, sizeof longer, HPCDB_ECORRUPT);
  return TEST_END();
}
