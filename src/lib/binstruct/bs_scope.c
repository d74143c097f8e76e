/* SPDX-License-Identifier: BSD-3-Clause */
/* The scope tree of one function: every instruction goes to a statement
 * (its source line) inside the innermost loop holding it and the chain of
 * inlined calls DWARF puts it in. A loop sits where its header is: under
 * its enclosing loop, below the inlined calls its header is in. Each inlined
 * call is a pair of alien scopes, as hpcstruct writes them: the call site
 * (file, line, empty name), then the callee (name, declaration file, line). */
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"
#include "common/error.h"
#include "common/vec.h"

typedef struct ctx {
  const bs_unit *u;
  const bs_func *f;
  const bs_inline *in; /* the function's inlined calls */
  int32_t *up;         /* each call's enclosing call, one_site()'s (-1: the function) */
  int32_t *site;       /* each call's first instance at its call site (itself when first) */
  uint32_t *depth;     /* of each inlined call (1: directly in the function) */
  bs_proc *p;
  hpcdb_u64map children; /* (parent, kind, key) -> node */
} ctx;

static int range_cmp(const void *a, const void *b) {
  const bs_range *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int oom(void) { return hpcdb_fail(HPCDB_ENOMEM, "out of memory building a scope tree"); }

static int new_node(ctx *c, int32_t parent, uint8_t kind, int32_t *out) {
  bs_proc *p = c->p;
  if (p->n_nodes >= INT32_MAX) return oom();
  HPCDB_TRY(VEC_RESERVE(&p->nodes, &p->cap_nodes, p->n_nodes + 1));
  bs_node *n = &p->nodes[p->n_nodes];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->parent = parent;
  n->first_child = n->last_child = n->next_sibling = -1;
  n->min_addr = UINT64_MAX;
  n->ctx = parent >= 0 ? p->nodes[parent].ctx : -1;
  *out = (int32_t)p->n_nodes++;
  return 0;
}

static int child(ctx *c, int32_t parent, uint8_t kind, uint32_t key, int32_t *out) {
  uint64_t k = ((uint64_t)(uint32_t)parent << 34) ^ ((uint64_t)kind << 32) ^ key;
  uint64_t v;
  if (u64map_get(&c->children, k, &v)) {
    *out = (int32_t)v;
    return 0;
  }
  HPCDB_TRY(new_node(c, parent, kind, out));
  return u64map_put(&c->children, k, (uint64_t)*out) < 0 ? oom() : 0;
}

/* Descends from node (standing in inlined call from) into the inlined calls
 * leading to target, below the calls both share. */
static int descend(ctx *c, int32_t node, int32_t target, int32_t *out) {
  int32_t from = c->p->nodes[node].ctx;
  if (target == from || target < 0) {
    *out = node;
    return 0;
  }
  uint32_t dt = c->depth[target];
  int32_t chain[256];
  if (dt > 256) return hpcdb_fail(HPCDB_EUNSUPPORTED, "inlined calls nested deeper than 256");
  for (int32_t t = target, i = (int32_t)dt - 1; t >= 0 && i >= 0; t = c->up[t], i--) chain[i] = t;
  /* skip the frames node already stands in: the common prefix of both chains */
  uint32_t k = 0;
  if (from >= 0) {
    int32_t a = from;
    while (a >= 0 && c->depth[a] > dt) a = c->up[a];
    while (a >= 0 && chain[c->depth[a] - 1] != a) a = c->up[a];
    k = a >= 0 ? c->depth[a] : 0;
  }
  for (uint32_t i = k; i < dt; i++) {
    const bs_inline *in = &c->in[chain[i]];
    int32_t site, alien;
    HPCDB_TRY(child(c, node, BS_NODE_CALLSITE, (uint32_t)chain[i], &site));
    bs_node *s = &c->p->nodes[site];
    s->file = in->call_file;
    s->line = in->call_line;
    s->name = "";
    HPCDB_TRY(child(c, site, BS_NODE_ALIEN, (uint32_t)chain[i], &alien));
    bs_node *a = &c->p->nodes[alien];
    a->file = in->decl_file;
    a->line = in->decl_line;
    a->name = in->name;
    a->ctx = chain[i];
    node = alien;
  }
  *out = node;
  return 0;
}

static void touch(bs_proc *p, int32_t node, uint64_t addr) {
  for (; node >= 0 && p->nodes[node].min_addr > addr; node = p->nodes[node].parent) p->nodes[node].min_addr = addr;
}

static int add_stmt(bs_proc *p, int32_t node, const char *file, uint32_t line, uint64_t lo, uint64_t hi) {
  if (p->n_stmts) {
    bs_stmt *last = &p->stmts[p->n_stmts - 1];
    if (last->node == node && last->line == line && last->file == file && last->hi == lo) {
      last->hi = hi;
      return 0;
    }
  }
  HPCDB_TRY(VEC_RESERVE(&p->stmts, &p->cap_stmts, p->n_stmts + 1));
  p->stmts[p->n_stmts++] = (bs_stmt){node, line, lo, hi, file};
  touch(p, node, lo);
  return 0;
}

/* Without a decoder: one pseudo-instruction per line-table row piece. */
static int rows_as_insns(const bs_unit *u, const bs_range *r, bs_insn **insns, uint64_t *n, uint64_t *cap) {
  uint64_t a = r->lo;
  while (a < r->hi) {
    const bs_row *row = bs_unit_row_at(u, a);
    uint64_t end = r->hi;
    if (row) {
      uint64_t idx = (uint64_t)(row - u->rows) + 1;
      while (idx < u->n_rows && u->rows[idx].addr <= a) idx++;
      if (idx < u->n_rows && u->rows[idx].addr < end) end = u->rows[idx].addr;
    } else {
      for (uint64_t i = 0; i < u->n_rows; i++) /* the next row after a gap */
        if (u->rows[i].addr > a && u->rows[i].addr < end) {
          end = u->rows[i].addr;
          break;
        }
    }
    if (end - a > UINT16_MAX) end = a + UINT16_MAX;
    HPCDB_TRY(VEC_RESERVE(insns, cap, *n + 1));
    (*insns)[(*n)++] = (bs_insn){a, 0, (uint16_t)(end - a), BS_FLOW_NEXT};
    a = end;
  }
  return 0;
}

static int collect_insns(const bs_unit *u, const bs_func *f, const bs_binary *b, bs_decoder *d, bs_range *ranges,
                         bs_insn **insns, uint64_t *n, uint64_t *cap) {
  if (f->n_ranges) memcpy(ranges, &u->ranges[f->first_range], f->n_ranges * sizeof *ranges);
  if (f->n_ranges > 1) qsort(ranges, f->n_ranges, sizeof *ranges, range_cmp);
  uint64_t covered = 0;
  for (uint32_t i = 0; i < f->n_ranges; i++) {
    bs_range r = ranges[i];
    if (r.lo < covered) r.lo = covered; /* overlapping ranges: each byte once */
    if (r.lo >= r.hi) continue;
    covered = r.hi;
    if (d) {
      uint64_t a = r.lo;
      while (a < r.hi) {
        uint64_t len = r.hi - a;
        const uint8_t *bytes = bs_binary_code_at(b, a, &len);
        if (!bytes) break; /* not in an executable section: nothing to decode */
        HPCDB_TRY(bs_decode(d, bytes, len, a, insns, n, cap));
        a += len;
      }
    } else {
      HPCDB_TRY(rows_as_insns(u, &r, insns, n, cap));
    }
  }
  return 0;
}

/* The first instruction at or after j not painted yet at this depth (n: none). */
static uint64_t unpainted(uint64_t *next, uint64_t j) {
  while (next[j] != j) {
    next[j] = next[next[j]]; /* path halving */
    j = next[j];
  }
  return j;
}

/* hpcstruct keys an inlined call by its call site and callee (file, line,
 * name: Struct-Inline.cpp's FLPIndex), so the instances DWARF gives one call
 * (code an optimizer duplicated: a loop's versions, a recursion inlined into
 * itself more than once) are one pair of scopes: each call's first instance
 * with the same site in the same (merged) enclosing call stands for it. */
static int one_site(ctx *c) {
  uint32_t m = c->f->n_inlines;
  hpcdb_u64map first = {0}; /* hash of (enclosing call, site, callee) -> its first instance */
  int rc = 0;
  for (uint32_t i = 0; i < m && rc == 0; i++) {
    const bs_inline *a = &c->in[i];
    int32_t par = a->parent >= 0 && (uint32_t)a->parent < i ? c->site[a->parent] : -1;
    struct {
      int64_t par;
      uint64_t line;
      const char *name, *file;
    } key = {par, a->call_line, a->name, a->call_file};
    uint64_t h = hash_bytes(&key, sizeof key), j;
    c->up[i] = par;
    c->site[i] = (int32_t)i;
    if (!u64map_get(&first, h, &j)) rc = u64map_put(&first, h, i) < 0 ? oom() : 0;
    else if (c->up[j] == par && c->in[j].call_line == a->call_line && c->in[j].name == a->name &&
             c->in[j].call_file == a->call_file)
      c->site[i] = (int32_t)j; /* else a collision of two sites: each keeps its own pair */
  }
  u64map_free(&first);
  return rc;
}

/* Innermost inlined call of each instruction: outer calls painted first. At
 * one depth an instruction is painted once (calls at one depth do not overlap
 * in sound DWARF; in damaged DWARF the first wins), so the work is bounded by
 * instructions x depth whatever the ranges say. */
static int paint_inlines(ctx *c, const bs_insn *insns, uint64_t n, int32_t *of) {
  for (uint64_t i = 0; i < n; i++) of[i] = -1;
  uint32_t m = c->f->n_inlines, maxd = 0;
  HPCDB_TRY(one_site(c));
  for (uint32_t i = 0; i < m; i++) {
    int32_t par = c->up[i];
    c->depth[i] = par >= 0 ? c->depth[par] + 1 : 1;
    if (c->depth[i] > maxd) maxd = c->depth[i];
  }
  if (m == 0) return 0;
  uint64_t *next = malloc((n + 1) * sizeof *next);
  if (!next) return oom();
  for (uint32_t d = 1; d <= maxd; d++) {
    for (uint64_t j = 0; j <= n; j++) next[j] = j;
    for (uint32_t i = 0; i < m; i++) {
      if (c->depth[i] != d) continue;
      const bs_inline *in = &c->in[i];
      for (uint32_t k = 0; k < in->n_ranges; k++) {
        bs_range r = c->u->ranges[in->first_range + k];
        uint64_t lo = 0, hi = n;
        while (lo < hi) {
          uint64_t mid = lo + (hi - lo) / 2;
          if (insns[mid].addr < r.lo) lo = mid + 1;
          else hi = mid;
        }
        for (uint64_t j = unpainted(next, lo); j < n && insns[j].addr < r.hi; j = unpainted(next, j)) {
          of[j] = c->site[i];
          next[j] = j + 1;
        }
      }
    }
  }
  free(next);
  return 0;
}

/* The innermost inlined call both a and b are in (-1: the function itself). */
static int32_t common_call(const ctx *c, int32_t a, int32_t b) {
  while (a >= 0 && b >= 0 && a != b) {
    if (c->depth[a] >= c->depth[b]) a = c->up[a];
    else b = c->up[b];
  }
  return a >= 0 && b >= 0 ? a : -1;
}

/* The loop's line in its owner's code: the naming instruction's when the
 * owner's code holds it, else the back edge's, else the line of the owner's
 * call that the naming instruction was inlined from. */
static void loop_line(const ctx *c, const bs_insn *insns, const int32_t *inl, const bs_loop *lp, int32_t owner,
                      bs_node *nd) {
  uint32_t i = inl[lp->line_insn] == owner || inl[lp->back_insn] != owner ? lp->line_insn : lp->back_insn;
  int32_t call = inl[i];
  if (call != owner) { /* the call directly in the owner's code */
    while (call >= 0 && c->up[call] != owner) call = c->up[call];
    if (call >= 0) {
      nd->line = c->in[call].call_line;
      nd->file = c->in[call].call_file;
      return;
    }
  }
  const bs_row *row = bs_unit_row_at(c->u, insns[i].addr);
  nd->line = row ? row->line : 0;
  nd->file = row ? row->file : c->f->file;
}

/* A loop belongs to the code that holds both its header and its back edge:
 * the innermost inlined call around the two. An optimizer that rotates a
 * caller's loop puts its header on the first instruction of a call inlined in
 * its body (gcc -O2 does), so the header alone would put the caller's loop
 * inside its callee; the back edge's branch stays the loop's own. */
static int place_loops(ctx *c, const bs_insn *insns, const int32_t *inl, const bs_loops *L, int32_t *loop_node) {
  for (uint64_t l = 0; l < L->n; l++) {
    const bs_loop *lp = &L->loops[l];
    int32_t at = lp->parent >= 0 ? loop_node[lp->parent] : 0, node;
    int32_t owner = common_call(c, inl[lp->header], inl[lp->back_insn]);
    HPCDB_TRY(descend(c, at, owner, &at));
    HPCDB_TRY(child(c, at, BS_NODE_LOOP, (uint32_t)l, &node));
    bs_node *nd = &c->p->nodes[node];
    loop_line(c, insns, inl, lp, owner, nd);
    nd->addr = insns[lp->header].addr;
    touch(c->p, node, nd->addr);
    loop_node[l] = node;
    c->p->n_loops++;
    c->p->n_irreducible += lp->irreducible != 0;
  }
  return 0;
}

static int in_ranges(const bs_range *r, uint32_t n, uint64_t a) {
  for (uint32_t i = 0; i < n; i++)
    if (a >= r[i].lo && a < r[i].hi) return 1;
  return 0;
}

static const char *base_name(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : path ? path : "";
}

static int same_base(const char *a, const char *b) { return a && b && !strcmp(base_name(a), base_name(b)); }

/* Where hpcstruct places an inlined callee's scope (Struct-Output.cpp,
 * locateTree): the file of its first inlined call inside, else of its first
 * loop, else of its first statement; the line, the lowest line of those
 * calls and loops in that file, else of its statements in that file, else 0. */
static int locate_callees(bs_proc *p) {
  uint64_t nn = p->n_nodes;
  uint64_t *at = malloc((nn + 1) * sizeof *at);
  uint8_t *rank = calloc(nn + 1, 1); /* what named the file: 1 a call, 2 a loop, 3 a statement */
  uint32_t *inner = calloc(nn + 1, sizeof *inner), *own = calloc(nn + 1, sizeof *own);
  const char **file = calloc(nn + 1, sizeof *file);
  if (!at || !rank || !inner || !own || !file) {
    free(at), free(rank), free(inner), free(own), free(file);
    return oom();
  }
  for (uint64_t i = 0; i < nn; i++) at[i] = UINT64_MAX;
  for (uint64_t i = 1; i < nn; i++) { /* the file, from the calls and loops just inside */
    const bs_node *n = &p->nodes[i];
    int32_t up = n->parent;
    uint8_t r = n->kind == BS_NODE_CALLSITE ? 1 : n->kind == BS_NODE_LOOP ? 2 : 0;
    if (!r || p->nodes[up].kind != BS_NODE_ALIEN || !n->file || !n->file[0]) continue;
    if (!rank[up] || r < rank[up] || (r == rank[up] && n->min_addr < at[up]))
      rank[up] = r, at[up] = n->min_addr, file[up] = n->file;
  }
  for (uint64_t i = 0; i < p->n_stmts; i++) { /* else from the first statement */
    const bs_stmt *st = &p->stmts[i];
    if (p->nodes[st->node].kind != BS_NODE_ALIEN || !st->file || !st->file[0]) continue;
    if ((!rank[st->node] || (rank[st->node] == 3 && st->lo < at[st->node])))
      rank[st->node] = 3, at[st->node] = st->lo, file[st->node] = st->file;
  }
  for (uint64_t i = 1; i < nn; i++) { /* the lowest line of the calls and loops in that file */
    const bs_node *n = &p->nodes[i];
    int32_t up = n->parent;
    if ((n->kind == BS_NODE_CALLSITE || n->kind == BS_NODE_LOOP) && p->nodes[up].kind == BS_NODE_ALIEN && n->line &&
        same_base(n->file, file[up]) && (!inner[up] || n->line < inner[up]))
      inner[up] = n->line;
  }
  for (uint64_t i = 0; i < p->n_stmts; i++) { /* else of the statements */
    const bs_stmt *st = &p->stmts[i];
    if (p->nodes[st->node].kind == BS_NODE_ALIEN && st->line && same_base(st->file, file[st->node]) &&
        (!own[st->node] || st->line < own[st->node]))
      own[st->node] = st->line;
  }
  for (uint64_t i = 0; i < nn; i++) {
    bs_node *n = &p->nodes[i];
    if (n->kind != BS_NODE_ALIEN) continue;
    if (file[i]) n->file = file[i];
    n->line = inner[i] ? inner[i] : own[i];
  }
  free(at), free(rank), free(inner), free(own), free(file);
  return 0;
}

int bs_build_proc(const bs_unit *u, const bs_func *f, const bs_binary *b, bs_decoder *d, bs_proc *out) {
  memset(out, 0, sizeof *out);
  /* a unit with no inlined calls has no array: no pointer arithmetic on NULL */
  ctx c = {u, f, u->inlines ? &u->inlines[f->first_inline] : NULL, NULL, NULL, NULL, out, {0}};
  bs_insn *insns = NULL;
  uint64_t n = 0, cap = 0;
  bs_range *ranges = malloc((f->n_ranges ? f->n_ranges : 1) * sizeof *ranges);
  c.depth = malloc((f->n_inlines ? f->n_inlines : 1) * sizeof *c.depth);
  c.up = malloc((f->n_inlines ? f->n_inlines : 1) * sizeof *c.up);
  c.site = malloc((f->n_inlines ? f->n_inlines : 1) * sizeof *c.site);
  int32_t *inl = NULL, *loop_node = NULL;
  bs_loops L;
  memset(&L, 0, sizeof L);
  int rc = ranges && c.depth && c.up && c.site ? 0 : oom();
  if (rc == 0) rc = collect_insns(u, f, b, d, ranges, &insns, &n, &cap);
  int32_t root;
  if (rc == 0) rc = new_node(&c, -1, BS_NODE_PROC, &root);
  if (rc == 0) {
    bs_node *p = &out->nodes[root];
    p->name = f->name;
    p->link_name = f->link_name;
    p->file = f->file;
    p->line = f->line;
    p->addr = f->entry;
    touch(out, root, f->entry);
  }
  if (rc < 0 || n == 0) goto done;
  inl = malloc(n * sizeof *inl);
  if (!inl) rc = oom();
  if (rc == 0) rc = paint_inlines(&c, insns, n, inl);
  if (rc == 0 && d) rc = bs_find_loops(insns, n, f->entry, &L);
  if (rc == 0 && L.n) {
    loop_node = malloc(L.n * sizeof *loop_node);
    rc = loop_node ? place_loops(&c, insns, inl, &L, loop_node) : oom();
  }
  for (uint64_t i = 0; rc == 0 && i < n; i++) {
    int32_t node = L.n && L.insn_loop[i] >= 0 ? loop_node[L.insn_loop[i]] : root;
    rc = descend(&c, node, inl[i], &node);
    if (rc < 0) break;
    if (insns[i].flow == BS_FLOW_CALL && insns[i].target && !in_ranges(ranges, f->n_ranges, insns[i].target)) {
      rc = VEC_RESERVE(&out->calls, &out->cap_calls, out->n_calls + 1);
      if (rc < 0) break;
      out->calls[out->n_calls++] = insns[i].target;
    }
    const bs_row *row = bs_unit_row_at(u, insns[i].addr);
    rc = add_stmt(out, node, row ? row->file : NULL, row ? row->line : 0, insns[i].addr, insns[i].addr + insns[i].len);
  }
  if (rc == 0) rc = locate_callees(out);
done:
  free(insns);
  free(ranges);
  free(c.depth);
  free(c.up);
  free(c.site);
  free(inl);
  free(loop_node);
  bs_loops_free(&L);
  u64map_free(&c.children);
  if (rc < 0) bs_proc_free(out);
  return rc;
}

void bs_proc_free(bs_proc *p) {
  free(p->calls);
  free(p->nodes);
  free(p->stmts);
  memset(p, 0, sizeof *p);
}
