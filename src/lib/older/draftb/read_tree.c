/* SPDX-License-Identifier: BSD-3-Clause */
/* meta.db draft b: the context tree. Sibling blocks are read from a work
 * list (no recursion); a node's bytes are counted, so that blocks pointing
 * back at each other end in an error instead of a loop. */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "common/vec.h"
#include "older/draftb/draftb.h"

typedef struct pending {
  uint64_t off, size;
  uint32_t parent;
} pending;

/* The propagation bits of a context reached by a lexical relation: the
 * transitive scopes' bits (hpcprof's "function" scope: the value stays
 * within the function). The draft has no such field; docs/formats-notes.md. */
static uint16_t lexical_propagation(const hpcdb_experiment *exp) {
  uint16_t mask = 0;
  for (uint32_t i = 0; i < exp->n_scopes; i++)
    if (exp->scopes[i].type == HPCDB_SCOPE_TRANSITIVE && exp->scopes[i].propagation_index < 16)
      mask |= (uint16_t)(1u << exp->scopes[i].propagation_index);
  return mask;
}

static int keep_attr(draftb_meta *m, const char *what, uint32_t id, const char *value) {
  char key[64];
  snprintf(key, sizeof key, "draftb.%s.%u", what, id);
  return hpcdb_add_attr(m->exp, key, value);
}

static int parse_callee(draftb_meta *m, uint64_t at, uint8_t size, hpcdb_context *c) {
  c->relation = HPCDB_REL_LEXICAL;
  if (size == 0) return 0;
  if (size < 2)
    return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", at, "callee-size", "callee specification of %u bytes", size);
  const uint8_t *p = m->d + at;
  c->relation = p[0] < 254 ? (uint8_t)(p[0] + 1) : 255; /* 0 normal call, 1 inlined call, others kept */
  if (!(p[1] & 1)) return 0;
  if (size < 14)
    return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", at, "callee-size",
                       "has_caller_srcline needs 14 bytes, the specification has %u", size);
  uint32_t file;
  HPCDB_TRY(draftb_entry_index(m, DB_FILES, rd_be64(p + 2), at + 2, "caller_fileptr", &file));
  char value[4200];
  snprintf(value, sizeof value, "%s:%u", m->exp->files[file].path, rd_be32(p + 10));
  return keep_attr(m, "caller-srcline", c->id, value);
}

static int parse_lexical(draftb_meta *m, uint64_t at, uint8_t size, hpcdb_context *c) {
  if (size == 0) return 0;
  if (size < 3)
    return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", at, "lexical-size", "lexical specification of %u bytes",
                       size);
  const uint8_t *p = m->d + at;
  uint16_t flags = rd_be16(p + 1);
  uint64_t need = 3u + (flags & 1 ? 8u : 0u) + (flags & 2 ? 12u : 0u) + (flags & 4 ? 16u : 0u), pos = at + 3;
  if (need > size)
    return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", at + 1, "lexical-size",
                       "lex_flags 0x%x need %llu bytes, the specification has %u", flags, (unsigned long long)need,
                       size);
  c->lexical_type = p[0];
  /* v4.0 defines only the three presence bits (the builder sets them from the
   * fields); bits 3-7 are reserved there and HPCToolkit's reader refuses a
   * context using them. The draft's is_call_srcline (0x8: this line may stand
   * for a descendant call's missing call site) is what v4.0 expresses by the
   * tree itself (a call's parent is its call site), so the bit is not stored
   * in the flags: it stays an attribute, which a conversion reports as lost. */
  c->flags = 0;
  if (flags & 1) {
    HPCDB_TRY(draftb_entry_index(m, DB_FUNCTIONS, rd_be64(m->d + pos), pos, "func_ptr", &c->function));
    pos += 8;
  }
  if (flags & 2) {
    HPCDB_TRY(draftb_entry_index(m, DB_FILES, rd_be64(m->d + pos), pos, "src_fileptr", &c->file));
    c->line = rd_be32(m->d + pos + 8);
    pos += 12;
  }
  if (flags & 4) {
    HPCDB_TRY(draftb_entry_index(m, DB_BINARIES, rd_be64(m->d + pos), pos, "binary_ptr", &c->module));
    c->offset = rd_be64(m->d + pos + 8);
  }
  if (flags & ~7u) {
    HPCDB_TRY(VEC_RESERVE(&m->lex_flags, &m->cap_lex_flags, m->n_lex_flags + 1));
    m->lex_flags[m->n_lex_flags++] = (uint64_t)c->id << 16 | flags;
  }
  return 0;
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* draftb.lex-flags.ID = the draft's flags, in context id order (the order the
 * tree is read in depends on the layout of its blocks). */
static int keep_lex_flags(draftb_meta *m) {
  if (m->n_lex_flags) qsort(m->lex_flags, m->n_lex_flags, sizeof *m->lex_flags, by_value); /* NULL when none */
  int rc = 0;
  for (uint64_t i = 0; i < m->n_lex_flags && rc == 0; i++) {
    char value[16];
    snprintf(value, sizeof value, "0x%x", (unsigned)(m->lex_flags[i] & 0xffffu));
    rc = keep_attr(m, "lex-flags", (uint32_t)(m->lex_flags[i] >> 16), value);
  }
  free(m->lex_flags);
  m->lex_flags = NULL;
  m->n_lex_flags = m->cap_lex_flags = 0;
  return rc;
}

/* The nodes of one sibling block; child blocks go onto the work list. */
static int parse_block(draftb_meta *m, const pending *b, uint16_t lexical_bits, pending **work, uint64_t *n_work,
                       uint64_t *cap) {
  uint64_t pos = b->off, end = b->off + b->size;
  uint64_t lo = m->sec_off[DB_TREE], hi = lo + m->sec_size[DB_TREE];
  while (pos < end) {
    if (end - pos < 22)
      return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", pos, "node-bounds",
                         "a node's 22 fixed bytes run past its block");
    const uint8_t *p = m->d + pos;
    uint8_t cs = p[20], ls = p[21];
    uint64_t size = 22 + (uint64_t)cs + ls;
    if (end - pos < size)
      return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", pos + 20, "node-bounds",
                         "a node of %llu bytes runs past its block", (unsigned long long)size);
    m->tree_bytes += size;
    if (m->tree_bytes > m->sec_size[DB_TREE])
      return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", pos, "block-overlap",
                         "nodes are read twice: sibling blocks overlap or point back at each other");
    hpcdb_context c = {0};
    c.id = rd_be32(p);
    c.kind = b->parent == 0 ? HPCDB_CTX_ENTRY : HPCDB_CTX_NORMAL;
    if (c.kind == HPCDB_CTX_ENTRY) c.name = "unknown entry"; /* the draft has no entry points: what v4.0 calls them */
    c.function = c.file = c.module = HPCDB_NONE;
    HPCDB_TRY(parse_callee(m, pos + 22, cs, &c));
    HPCDB_TRY(parse_lexical(m, pos + 22 + cs, ls, &c));
    if (c.relation == HPCDB_REL_LEXICAL && c.kind == HPCDB_CTX_NORMAL) c.propagation = lexical_bits;
    uint32_t index;
    if (c.id == 0 || hpcdb_find_context(m->exp, c.id) != HPCDB_NONE)
      return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", pos, "duplicate-id",
                         "context id %u is used twice (or is the implicit root's 0)", c.id);
    HPCDB_TRY(hpcdb_add_context(m->exp, &c, b->parent, &index));
    uint64_t child = rd_be64(p + 4), child_size = rd_be64(p + 12);
    if (child_size) {
      if (child < lo || !in_bounds(hi - lo, child - lo, child_size))
        return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", pos + 4, "block-bounds",
                           "children block (%llu bytes at 0x%llx) is not inside the Context Tree section",
                           (unsigned long long)child_size, (unsigned long long)child);
      HPCDB_TRY(VEC_RESERVE(work, cap, *n_work + 1));
      (*work)[(*n_work)++] = (pending){child, child_size, index};
    }
    pos += size;
  }
  return 0;
}

int draftb_parse_tree(draftb_meta *m) {
  uint64_t s = m->sec_off[DB_TREE], size = m->sec_size[DB_TREE];
  if (size < 8)
    return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", s, "section-bounds", "no room for the root block size");
  uint64_t root = rd_be64(m->d + s);
  if (root > size - 8)
    return draftb_fail(m, HPCDB_ECORRUPT, "Context Tree", s, "block-bounds",
                       "root block of %llu bytes does not fit the section", (unsigned long long)root);
  uint16_t bits = lexical_propagation(m->exp);
  pending *work = NULL;
  uint64_t n = 0, cap = 0;
  int rc = VEC_RESERVE(&work, &cap, 1);
  if (rc == 0) work[n++] = (pending){s + 8, root, 0};
  while (rc == 0 && n > 0) {
    pending b = work[--n];
    rc = parse_block(m, &b, bits, &work, &n, &cap);
  }
  free(work);
  if (rc == 0) return keep_lex_flags(m);
  free(m->lex_flags);
  m->lex_flags = NULL;
  return rc;
}
