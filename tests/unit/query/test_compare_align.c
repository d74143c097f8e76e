/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_align's rules on two hand-made runs (function names with clone
 * suffixes, lines moved, module offsets for unnamed frames, twins, subtrees
 * on one side only), every context in exactly one node, a random experiment
 * aligned with itself node for node, and hpcdb_compare's values; the
 * ranking key, the summary's lists and the per-function sums on a run
 * compared with itself (no change, every function's sides equal, the
 * exclusive sums kept). */
#include <math.h>
#include <string.h>

#include "hpcdb/compare.h"
#include "hpcdb/hpcdb.h"
#include "random_experiment.h"
#include "testlib.h"

static uint32_t next_id;

static uint32_t fn(hpcdb_experiment *e, const char *name, uint64_t offset) {
  hpcdb_function f = {name, 0, offset, 0, 1, 0};
  uint32_t idx = HPCDB_NONE;
  hpcdb_add_function(e, &f, &idx);
  return idx;
}

static uint32_t ctx(hpcdb_experiment *e, uint32_t parent, uint8_t rel, uint8_t lex, uint32_t function, uint32_t line,
                    uint64_t offset) {
  hpcdb_context c = {0};
  c.id = next_id++;
  c.kind = HPCDB_CTX_NORMAL;
  c.relation = rel;
  c.lexical_type = lex;
  c.function = function;
  c.file = function == HPCDB_NONE && line ? 0 : HPCDB_NONE;
  c.line = line;
  c.module = offset ? 0 : HPCDB_NONE;
  c.offset = offset;
  uint32_t idx = HPCDB_NONE;
  hpcdb_add_context(e, &c, parent, &idx);
  return idx;
}

/* main > a.c:(10+s) > work; main > a.c:(11+s) > work (twins); main > loop
 * a.c:(30+s) > a.c:(31+s); main > extra; main > unnamed frame at app+0x500. */
static hpcdb_experiment *run(int b) {
  hpcdb_experiment *e;
  hpcdb_experiment_new(&e);
  next_id = 1;
  hpcdb_add_module(e, b ? "/other/machine/app" : "/home/me/app", 0, NULL);
  hpcdb_add_file(e, b ? "/other/src/a.c" : "/home/src/a.c", 0, NULL);
  uint32_t s = b ? 3 : 0;
  hpcdb_context entry = {0};
  entry.id = next_id++;
  entry.kind = HPCDB_CTX_ENTRY;
  entry.entry_point = HPCDB_ENTRY_MAIN;
  entry.name = "main thread";
  entry.function = entry.file = entry.module = HPCDB_NONE;
  uint32_t en;
  hpcdb_add_context(e, &entry, 0, &en);
  uint32_t main_ = ctx(e, en, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, "main", b ? 0x180 : 0x100), 0, 0);
  uint32_t work = fn(e, b ? "work.constprop.0" : "work", b ? 0x280 : 0x200);
  ctx(e, ctx(e, main_, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, HPCDB_NONE, 10 + s, 0), HPCDB_REL_CALL, HPCDB_LEX_FUNCTION,
      work, 0, 0);
  ctx(e, ctx(e, main_, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, HPCDB_NONE, 11 + s, 0), HPCDB_REL_CALL, HPCDB_LEX_FUNCTION,
      work, 0, 0);
  uint32_t loop = ctx(e, main_, HPCDB_REL_LEXICAL, HPCDB_LEX_LOOP, HPCDB_NONE, 30 + s, 0);
  ctx(e, loop, HPCDB_REL_LEXICAL, HPCDB_LEX_LINE, HPCDB_NONE, 31 + s, 0);
  ctx(e, main_, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, b ? "only_b" : "only_a", 0x900), 0, 0);
  uint32_t unnamed = ctx(e, main_, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, HPCDB_NONE, 0, 0x500);
  ctx(e, unnamed, HPCDB_REL_LEXICAL, HPCDB_LEX_INSTRUCTION, HPCDB_NONE, 0, 0x520);
  return e;
}

static uint32_t only(const hpcdb_alignment *al, const char *name) {
  uint32_t n[4];
  return hpcdb_align_find(al, name, n, 4) == 1 ? n[0] : HPCDB_NONE;
}

static uint8_t how(const hpcdb_alignment *al, uint32_t node, uint32_t r) {
  return node == HPCDB_NONE ? 255 : al->how[(size_t)node * al->n_runs + r];
}

static int present(const hpcdb_alignment *al, uint32_t node, uint32_t r) {
  return node != HPCDB_NONE && al->ctx[(size_t)node * al->n_runs + r] != HPCDB_NONE;
}

static void rules(void) {
  hpcdb_experiment *a = run(0), *b = run(1);
  const hpcdb_experiment *runs[2] = {a, b};
  hpcdb_alignment *al;
  CHECK_RC(hpcdb_align(&al, runs, 2, NULL));
  if (!al) return;
  uint32_t works[4];
  CHECK(hpcdb_align_find(al, "work", works, 4) == 2); /* the twins, each matched once */
  for (int k = 0; k < 2; k++)
    CHECK(present(al, works[k], 0) && present(al, works[k], 1) && how(al, works[k], 1) == HPCDB_MATCH_NAME);
  uint32_t loop = only(al, "loop at a.c:30");
  CHECK(present(al, loop, 1) && how(al, loop, 1) == HPCDB_MATCH_LINE_SHIFTED && al->shift[(size_t)loop * 2 + 1] == 3);
  uint32_t line = only(al, "main > loop at a.c:30 > a.c:31");
  CHECK(present(al, line, 1) && how(al, line, 1) == HPCDB_MATCH_LINE_SHIFTED);
  uint32_t call_line = only(al, "main > a.c:10");
  CHECK(present(al, call_line, 1) && how(al, call_line, 1) == HPCDB_MATCH_LINE_SHIFTED);
  uint32_t oa = only(al, "only_a"), ob = only(al, "only_b");
  CHECK(present(al, oa, 0) && !present(al, oa, 1));
  CHECK(present(al, ob, 1) && !present(al, ob, 0));
  uint32_t unnamed = only(al, "app+0x500");
  CHECK(present(al, unnamed, 1) && how(al, unnamed, 1) == HPCDB_MATCH_OFFSET);
  uint32_t instr = only(al, "app+0x500 > app+0x520");
  CHECK(present(al, instr, 1) && how(al, instr, 1) == HPCDB_MATCH_OFFSET);
  /* every context of each run in exactly one node */
  for (uint32_t r = 0; r < 2; r++) {
    uint32_t seen = 0;
    for (uint32_t n = 0; n < al->n_nodes; n++)
      if (present(al, n, r)) seen++;
    CHECK(seen == runs[r]->n_contexts);
  }
  /* exact lines only: the moved loop is on each side alone */
  hpcdb_alignment *exact;
  hpcdb_align_options o = {HPCDB_ALIGN_OPTIONS_VERSION, 0, 1};
  CHECK_RC(hpcdb_align(&exact, runs, 2, &o));
  if (exact) {
    uint32_t l = only(exact, "loop at a.c:30");
    CHECK(present(exact, l, 0) && !present(exact, l, 1));
    hpcdb_alignment_free(exact);
  }
  /* a tolerance of 2 lines does not reach a move of 3 */
  hpcdb_align_options near = {HPCDB_ALIGN_OPTIONS_VERSION, 2, 0};
  CHECK_RC(hpcdb_align(&exact, runs, 2, &near));
  if (exact) {
    CHECK(!present(exact, only(exact, "loop at a.c:30"), 1));
    hpcdb_alignment_free(exact);
  }
  hpcdb_alignment_free(al);
  hpcdb_experiment_free(a);
  hpcdb_experiment_free(b);
}

/* A: main > work > leaf; B: program > main > wrapper > work > leaf, and
 * PMPI_Send [libmpi.so] against MPI_Send: frames one side alone has are looked
 * through, up and down; hpcprof's module suffix and the PMPI_ prefix do not count. */
static hpcdb_experiment *wrapped(int b) {
  hpcdb_experiment *e;
  hpcdb_experiment_new(&e);
  next_id = 1;
  hpcdb_add_module(e, "/app", 0, NULL);
  hpcdb_add_file(e, "/a.c", 0, NULL);
  uint32_t top = 0;
  if (b) top = ctx(e, 0, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, "program", 0x10), 0, 0);
  uint32_t main_ = ctx(e, top, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, "main", 0x20), 0, 0);
  uint32_t work_parent = main_;
  if (b) work_parent = ctx(e, main_, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, "wrapper", 0x30), 0, 0);
  uint32_t work = ctx(e, work_parent, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, "work", 0x40), 0, 0);
  ctx(e, work, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, "leaf", 0x50), 0, 0);
  ctx(e, main_, HPCDB_REL_CALL, HPCDB_LEX_FUNCTION, fn(e, b ? "MPI_Send" : "PMPI_Send [libmpi.so.40]", 0x60), 0, 0);
  return e;
}

static void across_one_sided_frames(void) {
  for (int order = 0; order < 2; order++) { /* the wrapper side first and second */
    hpcdb_experiment *a = wrapped(order), *b = wrapped(!order);
    const hpcdb_experiment *runs[2] = {a, b};
    hpcdb_alignment *al;
    CHECK_RC(hpcdb_align(&al, runs, 2, NULL));
    if (!al) continue;
    for (const char *const *name = (const char *const[]){"main", "work", "leaf", NULL}; *name; name++) {
      uint32_t n = only(al, *name);
      CHECK(present(al, n, 0) && present(al, n, 1));
    }
    CHECK(how(al, only(al, "main"), 1) == HPCDB_MATCH_NAME_ACROSS); /* up (B wrapped) or down (A wrapped) */
    CHECK(how(al, only(al, "leaf"), 1) == HPCDB_MATCH_NAME);
    uint32_t send[2];
    CHECK(hpcdb_align_find(al, order ? "MPI_Send" : "PMPI_Send [libmpi.so.40]", send, 2) == 1 &&
          present(al, send[0], 1));
    uint32_t w = only(al, "wrapper"), p = only(al, "program");
    uint32_t side = order ? 0 : 1; /* the run with the wrapper and the program frame */
    CHECK(present(al, w, side) && !present(al, w, !side) && present(al, p, side) && !present(al, p, !side));
    hpcdb_alignment_free(al);
    hpcdb_experiment_free(a);
    hpcdb_experiment_free(b);
  }
}

static void self_alignment(void) {
  for (uint64_t seed = 1; seed <= 20; seed++) {
    hpcdb_experiment *e;
    if (random_experiment(&e, seed) < 0) continue;
    const hpcdb_experiment *runs[2] = {e, e};
    hpcdb_alignment *al;
    CHECK_RC(hpcdb_align(&al, runs, 2, NULL));
    if (!al) continue;
    int same = al->n_nodes == e->n_contexts;
    for (uint32_t n = 0; n < al->n_nodes && same; n++) same = al->ctx[2 * n] == al->ctx[2 * n + 1];
    CHECK(same);
    hpcdb_alignment_free(al);
    hpcdb_experiment_free(e);
  }
}

static void ranking(void) {
  hpcdb_delta grew = {1, 2, 0, 0, 1, 2, 0}, fell = {4, 1, 0, 0, -3, 0.25, 0}, fresh = {0, 1, 0, 0, 1, INFINITY, 0},
              none = {0, 0, 0, 0, 0, 1, 0};
  CHECK(hpcdb_delta_rank(&grew, 0) == 1 && hpcdb_delta_rank(&fell, 0) == 3);
  CHECK(fabs(hpcdb_delta_rank(&grew, 1) - log(2)) < 1e-12 && fabs(hpcdb_delta_rank(&fell, 1) - log(4)) < 1e-12);
  CHECK(isinf(hpcdb_delta_rank(&fresh, 1)) && hpcdb_delta_rank(&none, 1) == 0);
  int compared = 0;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    hpcdb_experiment *e;
    if (random_experiment(&e, seed) < 0) continue;
    const hpcdb_experiment *runs[2] = {e, e};
    hpcdb_comparison *c;
    if (hpcdb_compare(&c, runs, 2, NULL) < 0) { /* a random experiment without a time metric */
      hpcdb_experiment_free(e);
      continue;
    }
    uint32_t out[8];
    CHECK(hpcdb_compare_changes(c, 1, 0, 1, out, 8) == 0 && hpcdb_compare_changes(c, 1, 0, 0, out, 8) == 0);
    hpcdb_compare_functions fn;
    CHECK_RC(hpcdb_compare_by_function(c, &fn));
    double frames = 0, functions = 0;
    int equal = 1, first = 1;
    for (uint32_t k = 1; k < c->al->n_nodes; k++) frames += c->al->nodes[k].is_frame ? c->exc[2 * k] : 0;
    for (uint32_t f = 0; f < fn.n; f++) {
      functions += fn.exc[2 * f];
      equal &= fn.inc[2 * f] == fn.inc[2 * f + 1] && fn.exc[2 * f] == fn.exc[2 * f + 1];
      first &= c->al->nodes[fn.node[f]].is_frame && (f == 0 || fn.node[f] > fn.node[f - 1]);
    }
    CHECK(equal && first && fabs(frames - functions) <= 1e-9 * fmax(1, fabs(frames)));
    compared += fn.n > 0;
    hpcdb_compare_functions_free(&fn);
    hpcdb_comparison_free(c);
    hpcdb_experiment_free(e);
  }
  CHECK(compared >= 10);
}

int main(void) {
  rules();
  ranking();
  across_one_sided_frames();
  self_alignment();
  hpcdb_alignment *none;
  CHECK(hpcdb_align(&none, NULL, 0, NULL) == HPCDB_EINVAL && none == NULL);
  return TEST_END();
}
