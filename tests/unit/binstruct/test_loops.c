/* SPDX-License-Identifier: BSD-3-Clause */
/* Loops from hand-made instruction streams: nesting, a loop entered through
 * padding, two back edges to one header, an irreducible region, a switch
 * (indirect jump) inside a loop, and the line-naming instruction. */
#include <string.h>

#include "binstruct/bs_internal.h"
#include "hpcdb/hpcdb.h"
#include "testlib.h"

enum { N = BS_FLOW_NEXT, J = BS_FLOW_JUMP, C = BS_FLOW_COND, S = BS_FLOW_STOP, P = BS_FLOW_PAD };

/* One instruction per 4 bytes from 0x1000; t: target index or -1. */
static void make(bs_insn *out, const int *flow, const int *t, int n) {
  for (int i = 0; i < n; i++)
    out[i] = (bs_insn){0x1000 + 4 * (uint64_t)i, t[i] >= 0 ? 0x1000 + 4 * (uint64_t)t[i] : 0, 4, (uint8_t)flow[i]};
}

static void nested(void) {
  /* 0 entry; 1 outer header; 2 inner header; 3 inner latch (c->2); 4 outer latch (c->1); 5 ret */
  int f[] = {N, N, N, C, C, S}, t[] = {-1, -1, -1, 2, 1, -1};
  bs_insn in[6];
  make(in, f, t, 6);
  bs_loops L;
  memset(&L, 0, sizeof L);
  CHECK_RC(bs_find_loops(in, 6, 0x1000, &L));
  CHECK(L.n == 2);
  if (L.n == 2) {
    CHECK(L.loops[0].header == 1 && L.loops[0].parent == -1 && !L.loops[0].irreducible);
    CHECK(L.loops[1].header == 2 && L.loops[1].parent == 0);
    CHECK(L.insn_loop[0] == -1 && L.insn_loop[1] == 0 && L.insn_loop[2] == 1 && L.insn_loop[3] == 1);
    CHECK(L.insn_loop[4] == 0 && L.insn_loop[5] == -1);
    CHECK(L.loops[1].line_insn == 3); /* rotated: named by its back-edge branch */
  }
  bs_loops_free(&L);
}

static void test_first_and_padding(void) {
  /* 0 jmp 4 (into the test); 1 pad; 2 body; 3 body; 4 test: c->2 exits by falling to 5; 5 ret.
   * The padding at 1 falls into the body but nothing reaches it: not an entry. */
  int f[] = {J, P, N, N, C, S}, t[] = {4, -1, -1, -1, 2, -1};
  bs_insn in[6];
  make(in, f, t, 6);
  bs_loops L;
  memset(&L, 0, sizeof L);
  CHECK_RC(bs_find_loops(in, 6, 0x1000, &L));
  CHECK(L.n == 1);
  if (L.n == 1) {
    CHECK(L.loops[0].header == 4 && !L.loops[0].irreducible);
    CHECK(L.loops[0].line_insn == 4); /* the header ends in the exit test */
    CHECK(L.insn_loop[1] == -1 && L.insn_loop[2] == 0 && L.insn_loop[4] == 0);
  }
  bs_loops_free(&L);
}

static void irreducible(void) {
  /* 0 c->3 (enter at B), falls to A=1; 1 A: n; 2 c->... A's end falls into B; 3 B: c->1 (back to A); 4 ret
   * The cycle A->B->A has two entries (1 from 0, 3 from 0): irreducible. */
  int f[] = {C, N, N, C, S}, t[] = {3, -1, -1, 1, -1};
  bs_insn in[5];
  make(in, f, t, 5);
  bs_loops L;
  memset(&L, 0, sizeof L);
  CHECK_RC(bs_find_loops(in, 5, 0x1000, &L));
  CHECK(L.n == 1);
  if (L.n == 1) CHECK(L.loops[0].irreducible);
  bs_loops_free(&L);
}

static void switch_in_loop(void) {
  /* 0 entry; 1 header: jmp *table; 2 case a: jmp 4; 3 case b: falls to 4; 4 latch c->1; 5 ret.
   * The cases are reached only through the indirect jump: still one reducible loop. */
  int f[] = {N, J, J, N, C, S}, t[] = {-1, -1, 4, -1, 1, -1};
  bs_insn in[6];
  make(in, f, t, 6);
  bs_loops L;
  memset(&L, 0, sizeof L);
  CHECK_RC(bs_find_loops(in, 6, 0x1000, &L));
  CHECK(L.n == 1);
  if (L.n == 1) {
    CHECK(L.loops[0].header == 1 && !L.loops[0].irreducible);
    CHECK(L.insn_loop[2] == 0 && L.insn_loop[3] == 0 && L.insn_loop[4] == 0);
  }
  bs_loops_free(&L);
}

int main(void) {
  nested();
  test_first_and_padding();
  irreducible();
  switch_in_loop();
  return TEST_END();
}
