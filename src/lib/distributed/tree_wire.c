/* SPDX-License-Identifier: BSD-3-Clause */
/* A context between ranks (tree_wire.h). */
#include <string.h>

#include "distributed/tree_wire.h"
#include "common/bytes.h"
#include "common/error.h"

#define KEY_KINDS 6
_Static_assert(KEY_UNKNOWN == UINT32_MAX - (KEY_KINDS - 1) && KEY_ENTRY == UINT32_MAX,
               "key kinds as tree_wire.c sends them");
#define VARINT_MAX 10
#define NAME_HEAD 5 /* a name's length (u32) and its NUL */
/* Room a context takes at most, but its name's bytes: 10 varints, the bits, 4 bytes of the prototype. */
#define CONTEXT_MAX (10 * VARINT_MAX + 1 + 4 + NAME_HEAD)

static uint64_t index_sent(uint32_t v) { return v == HPCDB_NONE ? 0 : (uint64_t)v + 1; }

void wire_put_context(dist_msg *m, uint32_t id, uint32_t parent, unify_key key, uint8_t bits,
                      const hpcdb_context *proto) {
  int hidden = (bits & SENT_HIDDEN) != 0;
  size_t name = !hidden && proto->name ? strlen(proto->name) : 0;
  if (name >= UINT32_MAX) { /* cannot be sent; the message fails */
    m->failed = 1;
    return;
  }
  uint8_t *start = dist_msg_put(m, CONTEXT_MAX + name), *p = start;
  if (!start) return;
  if (!hidden && key.module < KEY_UNKNOWN && proto->module == key.module && proto->offset == key.offset)
    bits |= SENT_AT_KEY;
  if (!hidden && key.module == KEY_FUNCTION && proto->function == key.offset) bits |= SENT_FUNCTION_KEY;
  p = dist_put_varint(p, id - parent);
  p = dist_put_varint(p, (uint32_t)(key.module + KEY_KINDS));
  p = dist_put_varint(p, key.offset);
  *p++ = bits;
  if (!hidden) {
    p[0] = proto->kind;
    p[1] = proto->relation;
    p[2] = proto->lexical_type;
    p[3] = proto->flags;
    p = dist_put_varint(p + 4, proto->propagation);
    p = dist_put_varint(p, proto->entry_point);
    p = dist_put_str(p, proto->name, (uint32_t)name);
    if (!(bits & SENT_FUNCTION_KEY)) p = dist_put_varint(p, index_sent(proto->function));
    p = dist_put_varint(p, index_sent(proto->file));
    p = dist_put_varint(p, proto->line);
    if (!(bits & SENT_AT_KEY)) {
      p = dist_put_varint(p, index_sent(proto->module));
      p = dist_put_varint(p, proto->offset);
    }
  }
  m->len -= CONTEXT_MAX + name - (uint64_t)(p - start); /* room was made for the longest */
}

/* A varint. With VARINT_MAX bytes left (all but a part's last few), decoded
 * without a bound check per byte; near the end, and for a number that is
 * not one (past 64 bits), dist_msg_read_varint reads it and names the fault. */
static inline int varint(hpcdb_cursor *c, uint64_t *v, const char *what) {
  const uint8_t *p = c->base + c->pos;
  if (c->pos < c->limit && p[0] < 0x80) {
    *v = p[0];
    c->pos++;
    return 0;
  }
  if (c->limit - c->pos >= VARINT_MAX) {
    uint64_t x = p[0] & 0x7f;
    for (unsigned n = 1; n < VARINT_MAX - 1; n++) { /* the 10th byte may carry bit 63 only: the slow path checks */
      x |= (uint64_t)(p[n] & 0x7f) << (7 * n);
      if (p[n] < 0x80) {
        *v = x;
        c->pos += n + 1;
        return 0;
      }
    }
  }
  return dist_msg_read_varint(c, v, what);
}

static inline int read_number(hpcdb_cursor *c, uint64_t max, uint64_t *v, const char *what) {
  uint64_t at = c->pos;
  HPCDB_TRY(varint(c, v, what));
  if (*v > max)
    return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, at, what, "%llu is too large", (unsigned long long)*v);
  return 0;
}

int wire_read_number(hpcdb_cursor *c, uint64_t max, uint64_t *v, const char *what) {
  return read_number(c, max, v, what);
}

/* An index sent with index_sent. */
static int read_index(hpcdb_cursor *c, uint32_t *v, const char *what) {
  uint64_t x;
  HPCDB_TRY(read_number(c, (uint64_t)HPCDB_NONE, &x, what)); /* HPCDB_NONE - 1 + 1: the largest index */
  *v = x == 0 ? HPCDB_NONE : (uint32_t)(x - 1);
  return 0;
}

/* The name: most are none (4 bytes, read inline). */
static int read_name(hpcdb_cursor *c, const char **name) {
  if (c->limit - c->pos >= 4 && rd_le32(c->base + c->pos) == UINT32_MAX) {
    c->pos += 4;
    *name = NULL;
    return 0;
  }
  return dist_msg_read_str(c, name);
}

static int read_proto(hpcdb_cursor *c, unify_key key, uint8_t bits, hpcdb_context *p) {
  const uint8_t *q = cursor_take(c, 4, "context");
  if (!q) return HPCDB_ETRUNCATED;
  p->kind = q[0];
  p->relation = q[1];
  p->lexical_type = q[2];
  p->flags = q[3];
  uint64_t v;
  HPCDB_TRY(read_number(c, UINT16_MAX, &v, "context propagation"));
  p->propagation = (uint16_t)v;
  HPCDB_TRY(read_number(c, UINT16_MAX, &v, "context entry point"));
  p->entry_point = (uint16_t)v;
  HPCDB_TRY(read_name(c, &p->name));
  if (bits & SENT_FUNCTION_KEY)
    p->function = (uint32_t)key.offset; /* checked against the sender's functions with the key */
  else HPCDB_TRY(read_index(c, &p->function, "context function"));
  HPCDB_TRY(read_index(c, &p->file, "context file"));
  HPCDB_TRY(read_number(c, UINT32_MAX, &v, "context line"));
  p->line = (uint32_t)v;
  if (bits & SENT_AT_KEY) {
    p->module = key.module;
    p->offset = key.offset;
    return 0;
  }
  HPCDB_TRY(read_index(c, &p->module, "context module"));
  return varint(c, &p->offset, "context offset");
}

int wire_read_context(hpcdb_cursor *c, uint32_t id, wire_context *out) {
  uint64_t up, module, at = c->pos;
  HPCDB_TRY(read_number(c, id, &up, "context parent"));
  HPCDB_TRY(read_number(c, UINT32_MAX, &module, "context key module"));
  HPCDB_TRY(varint(c, &out->key.offset, "context key offset"));
  if (c->pos >= c->limit) return cursor_u8(c, &out->bits, "context bits"); /* fails: truncated */
  out->bits = c->base[c->pos++];
  out->key.module = (uint32_t)module - KEY_KINDS;
  uint8_t bits = out->bits;
  int at_key_wrong = (bits & SENT_AT_KEY) && (bits & SENT_HIDDEN || out->key.module >= KEY_UNKNOWN);
  int function_key_wrong = (bits & SENT_FUNCTION_KEY) && (bits & SENT_HIDDEN || out->key.module != KEY_FUNCTION);
  if (up == 0 || bits > SENT_BITS || at_key_wrong || function_key_wrong)
    return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, at, "context", "not a context");
  out->parent = id - (uint32_t)up;
  memset(&out->proto, 0, sizeof out->proto);
  if (!(bits & SENT_HIDDEN)) return read_proto(c, out->key, bits, &out->proto);
  out->proto.propagation = (out->bits & SENT_LEXICAL) != 0;
  out->proto.lexical_type = out->bits & SENT_LOOP ? HPCDB_LEX_LOOP : HPCDB_LEX_INSTRUCTION;
  return 0;
}
