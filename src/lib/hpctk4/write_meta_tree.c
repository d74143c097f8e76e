/* meta.db Context Tree section: as hpcprof lays it out, every child array
 * comes before its parent's (a post-order walk: a node's children array is
 * written once all its descendants' arrays are), and the entry point array
 * comes last. The walk uses an explicit stack: trees can be very deep. */
#include <stdlib.h>

#include "common/bytes.h"
#include "common/error.h"
#include "hpctk4/hpctk4_write.h"

#define SZ_ENTRY 32
#define SZ_CTX_FIXED 32
#define SZ_MODULE 16
#define SZ_FILE 16
#define SZ_FUNCTION 40

const char *hpctk4_entry_name(const hpcdb_context *c) {
  static const char *const canonical[] = {"unknown entry", "main thread", "application thread"};
  if (c->name) return c->name;
  return c->entry_point < 3 ? canonical[c->entry_point] : canonical[0];
}

/* The flags byte: reserved bits as in the model, presence bits from the fields. */
static uint8_t ctx_flags(const hpcdb_context *c) {
  uint8_t f = (uint8_t)(c->flags & ~(HPCDB_CTXF_FUNCTION | HPCDB_CTXF_SRCLOC | HPCDB_CTXF_POINT));
  if (c->function != HPCDB_NONE) f |= HPCDB_CTXF_FUNCTION;
  if (c->file != HPCDB_NONE) f |= HPCDB_CTXF_SRCLOC;
  if (c->module != HPCDB_NONE) f |= HPCDB_CTXF_POINT;
  return f;
}

/* flex packing: pFunction | pFile, line (u32, own word: it is the only u32) | pModule, offset. */
static unsigned flex_words(uint8_t f) {
  return (f & HPCDB_CTXF_FUNCTION ? 1u : 0u) + (f & HPCDB_CTXF_SRCLOC ? 2u : 0u) + (f & HPCDB_CTXF_POINT ? 2u : 0u);
}

static uint64_t ctx_size(const hpcdb_context *c) { return SZ_CTX_FIXED + 8 * (uint64_t)flex_words(ctx_flags(c)); }

static void put_ctx(uint8_t *p, const hpcdb_context *c, uint64_t sz_children, uint64_t p_children,
                    const hpctk4_meta_refs *refs) {
  uint8_t f = ctx_flags(c);
  wr_le64(p + 0x00, sz_children);
  wr_le64(p + 0x08, p_children);
  wr_le32(p + 0x10, c->id);
  p[0x14] = f;
  p[0x15] = c->relation;
  p[0x16] = c->lexical_type;
  p[0x17] = (uint8_t)flex_words(f);
  wr_le16(p + 0x18, c->propagation);
  uint8_t *w = p + 0x20;
  if (f & HPCDB_CTXF_FUNCTION) {
    wr_le64(w, refs->functions + SZ_FUNCTION * (uint64_t)c->function);
    w += 8;
  }
  if (f & HPCDB_CTXF_SRCLOC) {
    wr_le64(w, refs->files + SZ_FILE * (uint64_t)c->file);
    wr_le32(w + 8, c->line);
    w += 16;
  }
  if (f & HPCDB_CTXF_POINT) {
    wr_le64(w, refs->modules + SZ_MODULE * (uint64_t)c->module);
    wr_le64(w + 8, c->offset);
  }
}

typedef struct tree_out {
  uint64_t *ptr, *size; /* per context index: its children array */
} tree_out;

static int children_array(wbuf *b, const hpcdb_experiment *exp, uint32_t n, tree_out *t,
                          const hpctk4_meta_refs *refs) {
  const hpcdb_context *ctx = exp->contexts;
  uint64_t total = 0, off;
  for (uint32_t c = ctx[n].first_child; c != HPCDB_NONE; c = ctx[c].next_sibling) total += ctx_size(&ctx[c]);
  t->ptr[n] = t->size[n] = 0;
  if (total == 0) return 0;
  HPCDB_TRY(wbuf_alloc(b, total, 8, &off));
  t->ptr[n] = off;
  t->size[n] = total;
  for (uint32_t c = ctx[n].first_child; c != HPCDB_NONE; c = ctx[c].next_sibling) {
    put_ctx(b->data + off, &ctx[c], t->size[c], t->ptr[c], refs);
    off += ctx_size(&ctx[c]);
  }
  return 0;
}

typedef struct frame {
  uint32_t node, next_child;
} frame;

/* Post-order over the subtree of root: children arrays of descendants first. */
static int subtree(wbuf *b, const hpcdb_experiment *exp, uint32_t root, frame *stack, tree_out *t,
                   const hpctk4_meta_refs *refs) {
  const hpcdb_context *ctx = exp->contexts;
  uint32_t depth = 0;
  stack[depth++] = (frame){root, ctx[root].first_child};
  while (depth > 0) {
    frame *top = &stack[depth - 1];
    if (top->next_child != HPCDB_NONE) {
      uint32_t c = top->next_child;
      top->next_child = ctx[c].next_sibling;
      stack[depth++] = (frame){c, ctx[c].first_child};
    } else {
      HPCDB_TRY(children_array(b, exp, top->node, t, refs));
      depth--;
    }
  }
  return 0;
}

static int tree(wbuf *b, const hpcdb_experiment *exp, const hpctk4_meta_refs *refs, uint64_t s, tree_out *t,
                frame *stack) {
  const hpcdb_context *ctx = exp->contexts;
  uint32_t n_entries = 0;
  for (uint32_t e = ctx[0].first_child; e != HPCDB_NONE; e = ctx[e].next_sibling, n_entries++)
    HPCDB_TRY(subtree(b, exp, e, stack, t, refs));
  uint64_t entries = 0;
  if (n_entries) HPCDB_TRY(wbuf_alloc(b, SZ_ENTRY * (uint64_t)n_entries, 8, &entries));
  uint32_t k = 0;
  for (uint32_t e = ctx[0].first_child; e != HPCDB_NONE; e = ctx[e].next_sibling, k++) {
    uint8_t *p = b->data + entries + SZ_ENTRY * (uint64_t)k;
    wr_le64(p + 0x00, t->size[e]);
    wr_le64(p + 0x08, t->ptr[e]);
    wr_le32(p + 0x10, ctx[e].id);
    wr_le16(p + 0x14, ctx[e].entry_point);
    wr_le64(p + 0x18, refs->entry_names[k]);
  }
  wr_le64(b->data + s, entries);
  wr_le16(b->data + s + 8, (uint16_t)n_entries);
  b->data[s + 10] = SZ_ENTRY;
  return 0;
}

int hpctk4_meta_context_tree(wbuf *b, const hpcdb_experiment *exp, const hpctk4_meta_refs *refs,
                             uint64_t *off, uint64_t *size) {
  uint64_t s;
  HPCDB_TRY(wbuf_alloc(b, 0x0b, 8, &s));
  tree_out t = {calloc(exp->n_contexts, sizeof *t.ptr), calloc(exp->n_contexts, sizeof *t.size)};
  frame *stack = malloc((size_t)exp->n_contexts * sizeof *stack);
  int rc = (t.ptr && t.size && stack) ? tree(b, exp, refs, s, &t, stack)
                                      : hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", exp->n_contexts);
  free(t.ptr);
  free(t.size);
  free(stack);
  HPCDB_TRY(rc);
  *off = s;
  *size = b->len - s;
  return 0;
}
