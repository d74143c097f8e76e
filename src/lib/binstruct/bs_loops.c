/* SPDX-License-Identifier: BSD-3-Clause */
/* Loops of one function: basic blocks and control-flow edges from the
 * decoded instructions, dominators (Cooper, Harvey and Kennedy's iterative
 * algorithm over reverse post-order), natural loops from back edges, and
 * irreducible regions from retreating edges whose target does not dominate
 * their source. Calls do not end blocks. An indirect jump (a jump table's)
 * leads to every block nothing else reaches: the cases of a switch are
 * such blocks, and without these edges a loop around a switch would look
 * entered from outside. */
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"
#include "common/error.h"
#include "common/vec.h"

typedef struct cfg {
  uint32_t nb;     /* real blocks; index nb is the virtual root */
  uint32_t *start; /* first insn of each block (nb + 1 entries: start[nb] = n) */
  int32_t (*succs)[2];
  uint8_t *indirect; /* ends in an indirect jump */
  uint32_t *orphans; /* blocks no direct edge reaches (but the entry) */
  uint32_t n_orphans;
  uint32_t *pred_off, *preds; /* CSR over nb + 1 nodes */
  uint32_t *rpo, *rpo_num;    /* reverse post-order of the DFS from the root */
  uint32_t *pre, *post;       /* DFS numbering (ancestor test) */
  uint32_t *idom;
  uint32_t *dpre, *dpost; /* dominator-tree numbering (dominance test) */
  uint8_t *root_child;    /* reached from the virtual root */
  uint32_t n_reached;     /* entries of rpo */
} cfg;

static void cfg_free(cfg *g) {
  free(g->start);
  free(g->succs);
  free(g->indirect);
  free(g->orphans);
  free(g->pred_off);
  free(g->preds);
  free(g->rpo);
  free(g->rpo_num);
  free(g->pre);
  free(g->post);
  free(g->idom);
  free(g->dpre);
  free(g->dpost);
  free(g->root_child);
}

static int oom(void) { return hpcdb_fail(HPCDB_ENOMEM, "out of memory building a control-flow graph"); }

static int build_blocks(cfg *g, const bs_insn *in, uint64_t n, uint64_t entry, uint32_t *blk_of) {
  uint8_t *leader = calloc(n, 1);
  if (!leader) return oom();
  leader[0] = 1;
  int64_t e = bs_insn_index(in, n, entry);
  if (e >= 0) leader[e] = 1;
  for (uint64_t i = 0; i < n; i++) {
    uint8_t f = in[i].flow;
    if ((f == BS_FLOW_JUMP || f == BS_FLOW_COND || f == BS_FLOW_STOP) && i + 1 < n) leader[i + 1] = 1;
    if (i + 1 < n && in[i].addr + in[i].len != in[i + 1].addr) leader[i + 1] = 1;
    if ((f == BS_FLOW_JUMP || f == BS_FLOW_COND) && in[i].target) {
      int64_t t = bs_insn_index(in, n, in[i].target);
      if (t >= 0) leader[t] = 1;
    }
  }
  uint32_t nb = 0;
  for (uint64_t i = 0; i < n; i++) nb += leader[i];
  g->nb = nb;
  g->start = malloc((nb + 1) * sizeof *g->start);
  g->succs = malloc((nb + 1) * sizeof *g->succs);
  if (!g->start || !g->succs) {
    free(leader);
    return oom();
  }
  uint32_t b = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (leader[i]) g->start[b++] = (uint32_t)i;
    blk_of[i] = b - 1;
  }
  g->start[nb] = (uint32_t)n;
  free(leader);
  for (b = 0; b < nb; b++) {
    uint64_t last = g->start[b + 1] - 1;
    const bs_insn *l = &in[last];
    int32_t *s = g->succs[b];
    s[0] = s[1] = -1;
    int falls = l->flow == BS_FLOW_NEXT || l->flow == BS_FLOW_PAD || l->flow == BS_FLOW_CALL || l->flow == BS_FLOW_COND;
    if (falls && last + 1 < n && l->addr + l->len == in[last + 1].addr) s[0] = (int32_t)(b + 1);
    if ((l->flow == BS_FLOW_JUMP || l->flow == BS_FLOW_COND) && l->target) {
      int64_t t = bs_insn_index(in, n, l->target);
      if (t >= 0 && (int32_t)blk_of[t] != s[0]) s[1] = (int32_t)blk_of[t];
    }
  }
  /* the virtual root: the entry first, then blocks nothing jumps to */
  g->succs[nb][0] = e >= 0 ? (int32_t)blk_of[e] : 0;
  g->succs[nb][1] = -1;
  g->indirect = calloc(nb + 1, 1);
  uint8_t *reached = calloc(nb + 1, 1);
  g->orphans = malloc((nb + 1) * sizeof *g->orphans);
  if (!g->indirect || !reached || !g->orphans) {
    free(reached);
    return oom();
  }
  int any_indirect = 0;
  for (b = 0; b < nb; b++) {
    const bs_insn *l = &in[g->start[b + 1] - 1];
    if (l->flow == BS_FLOW_JUMP && !l->target) g->indirect[b] = 1, any_indirect = 1;
    for (int k = 0; k < 2; k++)
      if (g->succs[b][k] >= 0) reached[g->succs[b][k]] = 1;
  }
  if (e >= 0) reached[blk_of[e]] = 1;
  for (b = 0; b < nb && any_indirect; b++) {
    int pad = 1; /* alignment padding between code is not a case of a switch */
    for (uint32_t i = g->start[b]; i < g->start[b + 1] && pad; i++) pad = in[i].flow == BS_FLOW_PAD;
    if (!reached[b] && !pad) g->orphans[g->n_orphans++] = b;
  }
  free(reached);
  return 0;
}

/* Successor slot k of block v (-1: none); slots: 2 direct, then the orphans
 * for a block ending in an indirect jump. */
static uint32_t n_slots(const cfg *g, uint32_t v) { return 2 + (g->indirect[v] ? g->n_orphans : 0); }

static int32_t slot(const cfg *g, uint32_t v, uint32_t k) {
  return k < 2 ? g->succs[v][k] : (int32_t)g->orphans[k - 2];
}

/* Depth-first search from the virtual root (whose one successor is the
 * entry): pre/post numbers and reverse post-order of the blocks reached.
 * Blocks not reached (padding, code only the unwinder enters) take no part:
 * their edges into the function must not make its loops look irreducible. */
static int dfs(cfg *g) {
  uint32_t nn = g->nb + 1, root = g->nb;
  g->pre = malloc(nn * sizeof *g->pre);
  g->post = malloc(nn * sizeof *g->post);
  g->rpo = malloc(nn * sizeof *g->rpo);
  g->rpo_num = malloc(nn * sizeof *g->rpo_num);
  g->root_child = calloc(nn, 1);
  uint32_t *stack = malloc(nn * sizeof *stack);
  uint32_t *next = calloc(nn, sizeof *next);
  if (!g->pre || !g->post || !g->rpo || !g->rpo_num || !g->root_child || !stack || !next) {
    free(stack);
    free(next);
    return oom();
  }
  for (uint32_t i = 0; i < nn; i++) g->pre[i] = g->post[i] = g->rpo_num[i] = UINT32_MAX;
  uint32_t clock = 0, pclock = 0, sp = 0;
  stack[sp++] = root;
  g->pre[root] = clock++;
  while (sp) {
    uint32_t v = stack[sp - 1];
    int32_t w = -1;
    uint32_t limit = v == root ? 1 : n_slots(g, v);
    while (w < 0 && next[v] < limit) {
      uint32_t k = next[v]++;
      int32_t c = v != root ? slot(g, v, k) : g->succs[root][0];
      if (c >= 0 && g->pre[c] == UINT32_MAX) w = c;
    }
    if (w >= 0) {
      if (v == root) g->root_child[w] = 1;
      g->pre[w] = clock++;
      stack[sp++] = (uint32_t)w;
    } else {
      g->post[v] = pclock;
      g->rpo[pclock++] = v; /* post-order for now */
      sp--;
    }
  }
  g->n_reached = pclock;
  for (uint32_t i = 0; i < pclock / 2; i++) {
    uint32_t t = g->rpo[i];
    g->rpo[i] = g->rpo[pclock - 1 - i];
    g->rpo[pclock - 1 - i] = t;
  }
  for (uint32_t i = 0; i < pclock; i++) g->rpo_num[g->rpo[i]] = i;
  free(stack);
  free(next);
  return 0;
}

static int build_preds(cfg *g) {
  uint32_t nn = g->nb + 1;
  g->pred_off = calloc(nn + 1, sizeof *g->pred_off);
  if (!g->pred_off) return oom();
  uint64_t total = 0;
  /* blocks the DFS entered from the virtual root (the entry among them) have
   * it as their predecessor */
  g->succs[g->nb][0] = -1;
  for (uint32_t v = 0; v < nn; v++)
    for (uint32_t k = 0; k < (v < g->nb ? n_slots(g, v) : 2); k++)
      if (slot(g, v, k) >= 0) g->pred_off[slot(g, v, k) + 1]++, total++;
  for (uint32_t v = 0; v < g->nb; v++)
    if (g->root_child[v]) g->pred_off[v + 1]++, total++;
  for (uint32_t v = 0; v < nn; v++) g->pred_off[v + 1] += g->pred_off[v];
  g->preds = malloc((total ? total : 1) * sizeof *g->preds);
  uint32_t *fill = calloc(nn, sizeof *fill);
  if (!g->preds || !fill) {
    free(fill);
    return oom();
  }
  for (uint32_t v = 0; v < nn; v++)
    for (uint32_t k = 0; k < (v < g->nb ? n_slots(g, v) : 2); k++) {
      int32_t w = slot(g, v, k);
      if (w >= 0) g->preds[g->pred_off[w] + fill[w]++] = v;
    }
  for (uint32_t v = 0; v < g->nb; v++)
    if (g->root_child[v]) g->preds[g->pred_off[v] + fill[v]++] = g->nb;
  free(fill);
  return 0;
}

static uint32_t intersect(const cfg *g, uint32_t a, uint32_t b) {
  while (a != b) {
    while (g->rpo_num[a] > g->rpo_num[b]) a = g->idom[a];
    while (g->rpo_num[b] > g->rpo_num[a]) b = g->idom[b];
  }
  return a;
}

static int dominators(cfg *g) {
  uint32_t nn = g->nb + 1, root = g->nb;
  g->idom = malloc(nn * sizeof *g->idom);
  if (!g->idom) return oom();
  for (uint32_t i = 0; i < nn; i++) g->idom[i] = UINT32_MAX;
  g->idom[root] = root;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t i = 1; i < g->n_reached; i++) {
      uint32_t b = g->rpo[i], nd = UINT32_MAX;
      for (uint32_t k = g->pred_off[b]; k < g->pred_off[b + 1]; k++) {
        uint32_t p = g->preds[k];
        if (g->idom[p] == UINT32_MAX) continue;
        nd = nd == UINT32_MAX ? p : intersect(g, p, nd);
      }
      if (nd != UINT32_MAX && g->idom[b] != nd) g->idom[b] = nd, changed = 1;
    }
  }
  /* dominator tree numbering: a dominates b iff dpre[a] <= dpre[b] && dpost[b] <= dpost[a] */
  uint32_t *child_off = calloc(nn + 1, sizeof *child_off), *kids = malloc(nn * sizeof *kids);
  uint32_t *fill = calloc(nn, sizeof *fill), *stack = malloc(nn * sizeof *stack);
  uint32_t *it = calloc(nn, sizeof *it);
  g->dpre = malloc(nn * sizeof *g->dpre);
  g->dpost = malloc(nn * sizeof *g->dpost);
  int rc = 0;
  if (!child_off || !kids || !fill || !stack || !it || !g->dpre || !g->dpost) {
    rc = oom();
    goto out;
  }
  for (uint32_t v = 0; v < nn; v++)
    if (v != root && g->idom[v] != UINT32_MAX) child_off[g->idom[v] + 1]++;
  for (uint32_t v = 0; v < nn; v++) child_off[v + 1] += child_off[v];
  for (uint32_t v = 0; v < nn; v++)
    if (v != root && g->idom[v] != UINT32_MAX) kids[child_off[g->idom[v]] + fill[g->idom[v]]++] = v;
  uint32_t sp = 0, clock = 0;
  stack[sp++] = root;
  g->dpre[root] = clock++;
  while (sp) {
    uint32_t v = stack[sp - 1];
    if (child_off[v] + it[v] < child_off[v + 1]) {
      uint32_t w = kids[child_off[v] + it[v]++];
      g->dpre[w] = clock++;
      stack[sp++] = w;
    } else {
      g->dpost[v] = clock++;
      sp--;
    }
  }
out:
  free(child_off);
  free(kids);
  free(fill);
  free(stack);
  free(it);
  return rc;
}

static int dominates(const cfg *g, uint32_t a, uint32_t b) {
  if (g->idom[a] == UINT32_MAX || g->idom[b] == UINT32_MAX) return 0;
  return g->dpre[a] <= g->dpre[b] && g->dpost[b] <= g->dpost[a];
}

static int dfs_ancestor(const cfg *g, uint32_t a, uint32_t b) {
  return g->pre[a] <= g->pre[b] && g->post[b] <= g->post[a];
}

typedef struct raw_loop {
  uint32_t header;
  uint32_t latch; /* the back edge's source block (the last one in the code) */
  int irreducible;
  uint32_t *body; /* blocks */
  uint32_t n_body;
} raw_loop;

/* Adds to l's body the blocks reaching latch backwards without passing the
 * header (for an irreducible region: staying in the header's DFS subtree).
 * mark: 1 for blocks already in the body; scratch: nb + 1 entries. */
static int grow_body(const cfg *g, uint32_t header, uint32_t latch, int irreducible, uint8_t *mark, uint32_t *scratch,
                     uint32_t *stack, raw_loop *l) {
  uint32_t sp = 0, n = l->n_body;
  if (n) memcpy(scratch, l->body, n * sizeof *scratch);
  if (!mark[header]) mark[header] = 1, scratch[n++] = header;
  if (!mark[latch]) mark[latch] = 1, scratch[n++] = latch, stack[sp++] = latch;
  while (sp) {
    uint32_t v = stack[--sp];
    for (uint32_t k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
      uint32_t p = g->preds[k];
      if (p >= g->nb || mark[p]) continue;
      if (irreducible ? !dfs_ancestor(g, header, p) : !dominates(g, header, p)) continue;
      mark[p] = 1;
      scratch[n++] = p;
      stack[sp++] = p;
    }
  }
  uint32_t *body = realloc(l->body, n * sizeof *body);
  if (!body) return oom();
  memcpy(body, scratch, n * sizeof *body);
  l->body = body;
  l->n_body = n;
  return 0;
}

/* The instruction whose source line names the loop. A header ending in the
 * loop's exit test (loops compiled test-first, as at -O0) is named by that
 * test, as hpcstruct does; a rotated loop (test at the bottom, as at -O2) by
 * its back-edge branch, which carries the loop statement's line. in_body:
 * the loop's blocks marked. */
static uint32_t line_insn(const cfg *g, const bs_insn *in, const raw_loop *l, const uint8_t *in_body) {
  uint32_t last = g->start[l->header + 1] - 1;
  if (in[last].flow == BS_FLOW_COND) {
    for (int k = 0; k < 2; k++) {
      int32_t s = g->succs[l->header][k];
      if (s >= 0 && !in_body[s]) return last;
    }
  }
  return g->start[l->latch + 1] - 1;
}

static int size_desc(const void *a, const void *b) {
  const raw_loop *x = a, *y = b;
  if (x->n_body != y->n_body) return x->n_body > y->n_body ? -1 : 1;
  return x->header < y->header ? -1 : x->header > y->header;
}

static int find(cfg *g, const bs_insn *in, bs_loops *out) {
  raw_loop *raw = NULL;
  uint64_t n_raw = 0, cap_raw = 0;
  uint32_t nb = g->nb;
  uint8_t *mark = calloc(nb + 1, 1);
  uint32_t *stack = malloc((nb + 1) * sizeof *stack), *scratch = malloc((nb + 1) * sizeof *scratch);
  int32_t *loop_of_header = malloc((nb + 1) * sizeof *loop_of_header);
  int32_t *blk_loop = malloc((nb + 1) * sizeof *blk_loop);
  int rc = 0;
  if (!mark || !stack || !scratch || !loop_of_header || !blk_loop) {
    rc = oom();
    goto out;
  }
  for (uint32_t v = 0; v <= nb; v++) loop_of_header[v] = blk_loop[v] = -1;
  for (uint32_t u = 0; u < nb; u++)
    for (uint32_t k = 0; k < n_slots(g, u); k++) {
      int32_t s = slot(g, u, k);
      if (s < 0 || g->pre[u] == UINT32_MAX) continue;
      uint32_t h = (uint32_t)s;
      int back = dominates(g, h, u);
      int retreating = !back && dfs_ancestor(g, h, u);
      if (!back && !retreating) continue;
      if (loop_of_header[h] < 0) {
        rc = VEC_RESERVE(&raw, &cap_raw, n_raw + 1);
        if (rc < 0) goto out;
        raw[n_raw] = (raw_loop){h, u, 0, NULL, 0};
        loop_of_header[h] = (int32_t)n_raw++;
      }
      raw_loop *l = &raw[loop_of_header[h]];
      if (retreating) l->irreducible = 1;
      if (u > l->latch) l->latch = u;
      for (uint32_t i = 0; i < l->n_body; i++) mark[l->body[i]] = 1;
      rc = grow_body(g, h, u, retreating, mark, scratch, stack, l);
      if (rc < 0) goto out;
      for (uint32_t i = 0; i < l->n_body; i++) mark[l->body[i]] = 0;
    }
  if (n_raw == 0) goto out;
  qsort(raw, n_raw, sizeof *raw, size_desc);
  rc = VEC_RESERVE(&out->loops, &out->cap, n_raw);
  if (rc < 0) goto out;
  /* outermost first: each loop's blocks are painted over by the loops inside it */
  for (uint64_t i = 0; i < n_raw; i++) {
    raw_loop *l = &raw[i];
    bs_loop *o = &out->loops[out->n++];
    o->parent = blk_loop[l->header];
    o->irreducible = l->irreducible;
    o->header = g->start[l->header];
    o->back_insn = g->start[l->latch + 1] - 1;
    for (uint32_t k = 0; k < l->n_body; k++) blk_loop[l->body[k]] = (int32_t)i, mark[l->body[k]] = 1;
    o->line_insn = line_insn(g, in, l, mark);
    for (uint32_t k = 0; k < l->n_body; k++) mark[l->body[k]] = 0;
  }
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = g->start[b]; i < g->start[b + 1]; i++) out->insn_loop[i] = blk_loop[b];
out:
  for (uint64_t i = 0; i < n_raw; i++) free(raw[i].body);
  free(raw);
  free(mark);
  free(stack);
  free(scratch);
  free(loop_of_header);
  free(blk_loop);
  return rc;
}

int bs_find_loops(const bs_insn *insns, uint64_t n, uint64_t entry, bs_loops *out) {
  out->n = 0;
  free(out->insn_loop);
  out->insn_loop = malloc((n ? n : 1) * sizeof *out->insn_loop);
  uint32_t *blk_of = malloc((n ? n : 1) * sizeof *blk_of);
  if (!out->insn_loop || !blk_of || n > UINT32_MAX - 2) {
    free(blk_of);
    return oom();
  }
  for (uint64_t i = 0; i < n; i++) out->insn_loop[i] = -1;
  cfg g;
  memset(&g, 0, sizeof g);
  int rc = build_blocks(&g, insns, n, entry, blk_of);
  if (rc == 0) rc = dfs(&g);
  if (rc == 0) rc = build_preds(&g);
  if (rc == 0) rc = dominators(&g);
  if (rc == 0) rc = find(&g, insns, out);
  cfg_free(&g);
  free(blk_of);
  return rc;
}

void bs_loops_free(bs_loops *l) {
  free(l->loops);
  free(l->insn_loop);
  memset(l, 0, sizeof *l);
}
