/* SPDX-License-Identifier: BSD-3-Clause */
/* The model's builders keep their invariants. */
#include <string.h>

#include "hpcdb/hpcdb.h"
#include "model/model_build.h"
#include "testlib.h"

static void test_tree(void) {
  hpcdb_experiment *exp;
  CHECK_RC(hpcdb_experiment_new(&exp));
  CHECK(exp->n_contexts == 1 && exp->contexts[0].kind == HPCDB_CTX_GLOBAL);
  uint32_t mod, fn, entry, a, b;
  CHECK_RC(hpcdb_add_module(exp, "/bin/app", 0, &mod));
  hpcdb_function f = {"main", mod, 0x400, HPCDB_NONE, 0, 0};
  CHECK_RC(hpcdb_add_function(exp, &f, &fn));
  hpcdb_context c = {0};
  c.function = c.file = c.module = HPCDB_NONE;
  c.id = 1;
  c.kind = HPCDB_CTX_ENTRY;
  c.entry_point = HPCDB_ENTRY_MAIN;
  c.name = "main thread";
  CHECK_RC(hpcdb_add_context(exp, &c, 0, &entry));
  c.kind = HPCDB_CTX_NORMAL;
  c.id = 5;
  c.function = fn;
  c.relation = HPCDB_REL_CALL;
  CHECK_RC(hpcdb_add_context(exp, &c, entry, &a));
  c.id = 7;
  c.function = HPCDB_NONE;
  c.module = mod;
  c.offset = 0x410;
  c.lexical_type = HPCDB_LEX_INSTRUCTION;
  CHECK_RC(hpcdb_add_context(exp, &c, entry, &b));
  CHECK(exp->contexts[a].flags == HPCDB_CTXF_FUNCTION);
  CHECK(exp->contexts[b].flags == HPCDB_CTXF_POINT);
  CHECK(exp->contexts[entry].first_child == a && exp->contexts[a].next_sibling == b);
  CHECK(exp->contexts[entry].last_child == b && exp->contexts[b].next_sibling == HPCDB_NONE);
  CHECK(hpcdb_find_context(exp, 7) == b);
  CHECK(hpcdb_find_context(exp, 8) == HPCDB_NONE);
  c.id = 7;
  CHECK(hpcdb_add_context(exp, &c, entry, NULL) == HPCDB_EINVAL);
  CHECK(strstr(hpcdb_last_error(), "used twice") != NULL);
  CHECK(strcmp(exp->contexts[entry].name, "main thread") == 0);
  CHECK(hpcdb_intern(exp, "main") == exp->functions[fn].name);
  hpcdb_experiment_free(exp);
}

/* Contexts added unlinked and linked afterwards (also when hpcdb_add_context
 * comes in between, and under parents linked before) get the links adding
 * them one by one gives. */
static void test_deferred_links(void) {
  enum { N = 3000 };
  hpcdb_experiment *linked, *deferred;
  CHECK_RC(hpcdb_experiment_new(&linked));
  CHECK_RC(hpcdb_experiment_new(&deferred));
  uint64_t seed = 12345;
  for (uint32_t i = 1; i < N; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t parent = i < 4 ? 0 : (uint32_t)(seed >> 33) % (i < 40 ? i : 40 + i / 8);
    hpcdb_context c = {0};
    c.function = c.file = c.module = HPCDB_NONE;
    c.id = 10 * i;
    c.kind = parent == 0 ? HPCDB_CTX_ENTRY : HPCDB_CTX_NORMAL;
    uint32_t a, b;
    CHECK_RC(hpcdb_add_context(linked, &c, parent, &a));
    if (i < 100 || i % 997 == 0) CHECK_RC(hpcdb_add_context(deferred, &c, parent, &b));
    else CHECK_RC(model_add_context_unlinked(deferred, &c, parent, &b));
    CHECK(a == b);
    if (i == 1500) CHECK_RC(model_link_contexts(deferred));
  }
  CHECK_RC(model_link_contexts(deferred));
  CHECK_RC(model_link_contexts(deferred)); /* nothing left: no change */
  CHECK(linked->n_contexts == deferred->n_contexts);
  int same = 1;
  for (uint32_t i = 0; i < linked->n_contexts; i++) {
    const hpcdb_context *x = &linked->contexts[i], *y = &deferred->contexts[i];
    same &= x->parent == y->parent && x->first_child == y->first_child && x->next_sibling == y->next_sibling &&
            x->last_child == y->last_child;
  }
  CHECK(same);
  hpcdb_experiment_free(linked);
  hpcdb_experiment_free(deferred);
}

static void test_values(void) {
  hpcdb_experiment *exp;
  CHECK_RC(hpcdb_experiment_new(&exp));
  uint32_t kr, kt, p;
  CHECK_RC(hpcdb_add_kind_name(exp, "RANK", &kr));
  CHECK_RC(hpcdb_add_kind_name(exp, "THREAD", &kt));
  hpcdb_id ids[2] = {{(uint16_t)kr, 0, 3, 3}, {(uint16_t)kt, 0, 1, 1}};
  CHECK_RC(hpcdb_add_profile(exp, 0, 1, ids, 2, &p));
  uint32_t ctx[] = {9, 2, 9, 2, 4};
  uint16_t met[] = {1, 3, 0, 1, 2};
  double val[] = {1.5, 2.5, 3.5, 4.5, 5.5};
  CHECK_RC(hpcdb_profile_set_values(exp, p, 5, ctx, met, val));
  const hpcdb_profile *pr = &exp->profiles[p];
  CHECK(pr->n_ctxs == 3 && pr->n_values == 5);
  CHECK(pr->ctx_ids[0] == 2 && pr->ctx_ids[1] == 4 && pr->ctx_ids[2] == 9);
  CHECK(pr->ctx_starts[0] == 0 && pr->ctx_starts[1] == 2 && pr->ctx_starts[2] == 3 && pr->ctx_starts[3] == 5);
  CHECK(pr->metric_ids[0] == 1 && pr->metric_ids[1] == 3);
  double v;
  CHECK(hpcdb_profile_value(pr, 9, 0, &v) == 1 && v == 3.5);
  CHECK(hpcdb_profile_value(pr, 9, 2, &v) == 0 && v == 0);
  CHECK(hpcdb_profile_value(pr, 3, 0, &v) == 0);
  char buf[64];
  hpcdb_profile_identity(exp, pr, buf, sizeof buf);
  CHECK(strcmp(buf, "RANK 3 THREAD 1") == 0);
  uint32_t dup_ctx[] = {1, 1};
  uint16_t dup_met[] = {0, 0};
  CHECK(hpcdb_profile_set_values(exp, p, 2, dup_ctx, dup_met, val) == HPCDB_EINVAL);
  uint32_t bad_ids[] = {4, 2};
  uint64_t starts[] = {0, 1, 2};
  CHECK(hpcdb_profile_set_csr(exp, p, 2, bad_ids, starts, 2, met, val) == HPCDB_EINVAL);
  CHECK(hpcdb_value_count(exp) == 5); /* a failed set leaves the old values */
  hpcdb_experiment_free(exp);
}

int main(void) {
  test_tree();
  test_deferred_links();
  test_values();
  return TEST_END();
}
