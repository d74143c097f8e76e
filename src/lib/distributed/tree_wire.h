/* SPDX-License-Identifier: BSD-3-Clause */
/* One context of a unified tree as it travels between ranks (tree_merge.c
 * sends and merges whole trees of them, millions in a large run): varints
 * (dist_msg_varint), most of one byte: the distance from its id down to its
 * parent's, its key's module or kind (the kinds KEY_UNKNOWN .. KEY_ENTRY as
 * 0-5, modules after them), its key's offset; a byte of bits; unless hidden,
 * its prototype (4 bytes: kind, relation, lexical type, flags; propagation
 * and entry point; its name as dist_msg_str; function, file, line, module,
 * offset, an index sent + 1 and HPCDB_NONE as 0; the function, module and
 * offset only where the key does not hold them already). A context is written with
 * one reservation of room, and read with its one-byte varints inline. */
#ifndef HPCDB_DISTRIBUTED_TREE_WIRE_H
#define HPCDB_DISTRIBUTED_TREE_WIRE_H

#include "analysis/analysis.h"
#include "distributed/dist_msg.h"

/* SENT_AT_KEY: the prototype's module and offset are the key's (a frame kept as its address);
 * SENT_FUNCTION_KEY: its function is the key's (a function's context). Neither is sent again. */
enum { SENT_HIDDEN = 1, SENT_LEXICAL = 2, SENT_LOOP = 4, SENT_AT_KEY = 8, SENT_FUNCTION_KEY = 16 };
#define SENT_BITS 31
#define CONTEXT_MIN 4 /* bytes a context takes at least: three varints and the bits */

/* A context as sent: its parent the sender's id, its key's and prototype's
 * indices the sender's (key.parent is not set). */
typedef struct wire_context {
  uint32_t parent;
  unify_key key;
  uint8_t bits;
  hpcdb_context proto; /* a hidden one's: propagation and lexical type from the bits */
} wire_context;

/* Context id, under parent (< id), made by key; proto unless bits has SENT_HIDDEN. */
void wire_put_context(dist_msg *m, uint32_t id, uint32_t parent, unify_key key, uint8_t bits,
                      const hpcdb_context *proto);
/* Context id (its parent must be below it). */
int wire_read_context(hpcdb_cursor *c, uint32_t id, wire_context *out);
/* A varint of at most max. */
int wire_read_number(hpcdb_cursor *c, uint64_t max, uint64_t *v, const char *what);

#endif
