/* SPDX-License-Identifier: BSD-3-Clause */
/* A context as it travels between ranks (tree_wire.c): each kind back as it
 * was sent, the prototype's fields the key already holds left out (a frame
 * kept as its address, a function's context) and restored from the key, and
 * bits that claim so where the key cannot hold them refused. */
#include <string.h>

#include "common/cursor.h"
#include "common/error.h"
#include "distributed/tree_wire.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

static hpcdb_context proto(uint32_t function, uint32_t module, uint64_t offset) {
  hpcdb_context c;
  memset(&c, 0, sizeof c);
  c.kind = 1;
  c.relation = 2;
  c.lexical_type = HPCDB_LEX_FUNCTION;
  c.propagation = 1;
  c.function = function;
  c.file = HPCDB_NONE;
  c.line = 42;
  c.module = module;
  c.offset = offset;
  return c;
}

static void same_proto(const hpcdb_context *a, const hpcdb_context *b) {
  CHECK(a->kind == b->kind && a->relation == b->relation && a->lexical_type == b->lexical_type);
  CHECK(a->propagation == b->propagation && a->entry_point == b->entry_point);
  CHECK(a->function == b->function && a->file == b->file && a->line == b->line);
  CHECK(a->module == b->module && a->offset == b->offset);
  CHECK(a->name == NULL && b->name == NULL);
}

/* Sends one context as id 5 under 2, reads it back; returns the bytes it took. */
static uint64_t round_trip(unify_key key, uint8_t bits, const hpcdb_context *p, uint8_t *sent_bits) {
  dist_msg m = {0};
  wire_put_context(&m, 5, 2, key, bits, p);
  CHECK_RC(dist_msg_status(&m));
  hpcdb_cursor c;
  cursor_init(&c, m.data, m.len, "message");
  wire_context out;
  CHECK_RC(wire_read_context(&c, 5, &out));
  CHECK(c.pos == m.len);
  CHECK(out.parent == 2 && out.key.module == key.module && out.key.offset == key.offset);
  if (!(bits & SENT_HIDDEN)) same_proto(&out.proto, p);
  *sent_bits = out.bits;
  uint64_t n = m.len;
  dist_msg_free(&m);
  return n;
}

int main(void) {
  uint8_t bits;
  /* a frame kept as its address: module and offset only in the key */
  hpcdb_context frame = proto(HPCDB_NONE, 3, 0x401234);
  uint64_t at_key = round_trip((unify_key){2, 3, 0x401234}, 0, &frame, &bits);
  CHECK(bits == SENT_AT_KEY);
  /* the same prototype under a key of another address is sent whole: its module (1 byte) and offset (4) again */
  uint64_t whole = round_trip((unify_key){2, 3, 0x401238}, 0, &frame, &bits);
  CHECK(bits == 0 && whole == at_key + 5);
  /* a function's context: its function is the key's */
  hpcdb_context fn = proto(7, HPCDB_NONE, 0);
  round_trip((unify_key){2, KEY_FUNCTION, 7}, SENT_LEXICAL, &fn, &bits);
  CHECK(bits == (SENT_LEXICAL | SENT_FUNCTION_KEY));
  /* a hidden context sends no prototype, so claims nothing */
  round_trip((unify_key){2, 3, 0x401234}, SENT_HIDDEN, NULL, &bits);
  CHECK(bits == SENT_HIDDEN);

  /* bits that say "at the key" where the key is no address, or on a hidden context: refused */
  static const uint8_t bad[][8] = {
      {3, 6 + 3, 5, SENT_HIDDEN | SENT_AT_KEY},     /* hidden, yet "at the key" */
      {3, 2, 5, SENT_AT_KEY, 1, 2, 3, 4},           /* key kind 2 (a line): no address */
      {3, 6 + 3, 5, SENT_FUNCTION_KEY, 1, 2, 3, 4}, /* key of a module, yet "the key's function" */
      {3, 6 + 3, 5, 32, 0, 0, 0, 0},                /* a bit no sender sets */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    hpcdb_cursor c;
    cursor_init(&c, bad[i], sizeof bad[i], "message");
    wire_context out;
    CHECK(wire_read_context(&c, 5, &out) == HPCDB_ECORRUPT);
    CHECK(strstr(hpcdb_last_error(), "not a context") != NULL);
  }
  return TEST_END();
}
