/* SPDX-License-Identifier: BSD-3-Clause */
/* meta.db Context Tree section: as hpcprof lays it out, every child array
 * comes before its parent's (a post-order walk: a node's children array is
 * written once all its descendants' arrays are), and the entry point array
 * comes last. The walk uses an explicit stack: trees can be very deep. */
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/error.h"
#include "hpctk4/hpctk4_write.h"

#define SZ_ENTRY 32
#define SZ_CTX_FIXED 32
#define SZ_MODULE 16
#define SZ_FILE 16
#define SZ_FUNCTION 40
/* Siblings are apart in the context array: a children array's next
 * contexts are fetched this many ahead. */
#define PREFETCH_AHEAD 4

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

/* The tree in arrays: each context's children (in sibling order) at
 * kids[first[n] .. first[n + 1]), the size of each context's entry and
 * where each children array went. The walk reads only these arrays and
 * writes each children array in order, front to back: the contexts are read
 * in index order once to size their entries, then as their arrays are
 * written. */
typedef struct tree_out {
  const hpcdb_context *ctx;
  const hpctk4_meta_refs *refs;
  uint8_t *out; /* the section's bytes (zeroed) */
  uint32_t *first, *kids;
  uint8_t *size;         /* entry size / 8 */
  uint64_t *ptr, *bytes; /* per context: its children array */
  uint64_t at;           /* the next children array goes here */
} tree_out;

/* n's children array: its children's entries, each of whose own arrays the
 * post-order walk has placed already. */
static void children_array(uint32_t n, tree_out *t) {
  t->ptr[n] = t->first[n] < t->first[n + 1] ? t->at : 0;
  uint64_t start = t->at;
  for (uint32_t k = t->first[n]; k < t->first[n + 1]; k++) {
    uint32_t c = t->kids[k];
    if (k + PREFETCH_AHEAD < t->first[n + 1]) __builtin_prefetch(&t->ctx[t->kids[k + PREFETCH_AHEAD]]);
    put_ctx(t->out + t->at, &t->ctx[c], t->bytes[c], t->ptr[c], t->refs);
    t->at += 8 * (uint64_t)t->size[c];
  }
  t->bytes[n] = t->at - start;
}

typedef struct frame {
  uint32_t node, next_kid;
} frame;

/* Post-order over the subtree of root: children arrays of descendants first. */
static void subtree(uint32_t root, frame *stack, tree_out *t) {
  uint32_t depth = 0;
  stack[depth++] = (frame){root, t->first[root]};
  while (depth > 0) {
    frame *top = &stack[depth - 1];
    if (top->next_kid < t->first[top->node + 1]) {
      uint32_t c = t->kids[top->next_kid++];
      stack[depth++] = (frame){c, t->first[c]};
    } else {
      children_array(top->node, t);
      depth--;
    }
  }
}

/* Fills first, kids and size; returns the bytes of the children arrays below
 * the entry points. hpcdb_add_context appends a child to its parent's sibling
 * list and gives it a larger index than the parent's, so a context's children
 * in sibling order are the contexts naming it as parent in index order: a
 * counting sort by parent, in two sequential passes, lists them. */
static uint64_t layout(const hpcdb_experiment *exp, tree_out *t) {
  const hpcdb_context *ctx = exp->contexts;
  uint32_t n = exp->n_contexts;
  memset(t->first, 0, ((size_t)n + 2) * sizeof *t->first);
  for (uint32_t c = 0; c < n; c++) {
    t->size[c] = (uint8_t)(ctx_size(&ctx[c]) / 8);
    if (c > 0) t->first[ctx[c].parent + 2]++;
  }
  for (uint32_t p = 0; p < n; p++) t->first[p + 2] += t->first[p + 1];
  for (uint32_t c = 1; c < n; c++) t->kids[t->first[ctx[c].parent + 1]++] = c;
  uint64_t all = 0; /* every context below an entry point has its entry in an array */
  for (uint32_t c = 1; c < n; c++)
    if (ctx[c].parent != 0) all += 8 * (uint64_t)t->size[c];
  return all;
}

static int tree(hpctk4_wbuf *b, const hpcdb_experiment *exp, const hpctk4_meta_refs *refs, uint64_t s, tree_out *t,
                frame *stack) {
  const hpcdb_context *ctx = exp->contexts;
  uint64_t all = layout(exp, t), start;
  /* Entries are multiples of 8 bytes: the children arrays lie end to end. */
  HPCDB_TRY(hpctk4_wbuf_alloc(b, all, 8, &start));
  t->ctx = ctx;
  t->refs = refs;
  t->out = b->data;
  t->at = start;
  uint32_t n_entries = 0;
  for (uint32_t e = ctx[0].first_child; e != HPCDB_NONE; e = ctx[e].next_sibling, n_entries++) subtree(e, stack, t);
  if (t->at != start + all) return hpcdb_fail(HPCDB_EINVAL, "context tree: some contexts are not below an entry point");
  uint64_t entries = 0;
  if (n_entries) HPCDB_TRY(hpctk4_wbuf_alloc(b, SZ_ENTRY * (uint64_t)n_entries, 8, &entries));
  uint32_t k = 0;
  for (uint32_t e = ctx[0].first_child; e != HPCDB_NONE; e = ctx[e].next_sibling, k++) {
    uint8_t *p = b->data + entries + SZ_ENTRY * (uint64_t)k;
    wr_le64(p + 0x00, t->bytes[e]);
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

int hpctk4_meta_context_tree(hpctk4_wbuf *b, const hpcdb_experiment *exp, const hpctk4_meta_refs *refs, uint64_t *off,
                             uint64_t *size) {
  uint64_t s;
  HPCDB_TRY(hpctk4_wbuf_alloc(b, 0x0b, 8, &s));
  size_t n = exp->n_contexts;
  tree_out t = {NULL,
                NULL,
                NULL,
                malloc((n + 2) * sizeof *t.first),
                malloc((n ? n : 1) * sizeof *t.kids),
                malloc(n ? n : 1),
                calloc(n ? n : 1, sizeof *t.ptr),
                calloc(n ? n : 1, sizeof *t.bytes),
                0};
  frame *stack = malloc((n ? n : 1) * sizeof *stack);
  int rc = (t.first && t.kids && t.size && t.ptr && t.bytes && stack)
               ? tree(b, exp, refs, s, &t, stack)
               : hpcdb_fail(HPCDB_ENOMEM, "out of memory for %u contexts", exp->n_contexts);
  free(t.first);
  free(t.kids);
  free(t.size);
  free(t.ptr);
  free(t.bytes);
  free(stack);
  HPCDB_TRY(rc);
  *off = s;
  *size = b->len - s;
  return 0;
}
