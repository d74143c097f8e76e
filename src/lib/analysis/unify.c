/* Unifying per-thread calling-context trees: the same calling path (same
 * parent, same load module by path, same offset) is the same context. As
 * hpcprof does without binary analysis, every frame becomes an instruction
 * context reached by a call; hpcrun's placeholders (load module 0, the ip
 * holding 8 characters) become the global context ("^Primary" and the idle
 * "NoActvty") or entry points ("| Main  ", "| Thread"; other roots such as
 * partial unwinds: "unknown entry"). */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/error.h"
#include "common/hashmap.h"

static uint64_t key_hash(unify_key k) {
  return hash_u64(((uint64_t)k.parent << 32 | k.module) ^ hash_u64(k.offset));
}

static int key_eq(unify_key a, unify_key b) {
  return a.parent == b.parent && a.module == b.module && a.offset == b.offset;
}

static int table_grow(unified_tree *t) {
  uint64_t ncap = t->cap ? t->cap * 2 : 1024;
  unify_key *keys = malloc(ncap * sizeof *keys);
  uint32_t *slots = calloc(ncap, sizeof *slots);
  if (!keys || !slots) {
    free(keys);
    free(slots);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory unifying calling contexts");
  }
  for (uint64_t i = 0; i < t->cap; i++) {
    if (!t->slots[i]) continue;
    uint64_t j = key_hash(t->keys[i]) & (ncap - 1);
    while (slots[j]) j = (j + 1) & (ncap - 1);
    slots[j] = t->slots[i];
    keys[j] = t->keys[i];
  }
  free(t->keys);
  free(t->slots);
  t->keys = keys;
  t->slots = slots;
  t->cap = ncap;
  return 0;
}

static const char *const entry_names[] = {"unknown entry", "main thread", "application thread"};

/* Finds or creates the child; new contexts get id = index. */
static int find_or_add(unified_tree *t, unify_key key, const hpcdb_context *proto, uint32_t *out) {
  if ((t->count + 1) * 2 > t->cap) HPCDB_TRY(table_grow(t));
  uint64_t i = key_hash(key) & (t->cap - 1);
  while (t->slots[i]) {
    if (key_eq(t->keys[i], key)) {
      *out = t->slots[i] - 1;
      return 0;
    }
    i = (i + 1) & (t->cap - 1);
  }
  hpcdb_context c = *proto;
  c.id = t->exp->n_contexts;
  uint32_t idx;
  HPCDB_TRY(hpcdb_add_context(t->exp, &c, key.parent, &idx));
  t->keys[i] = key;
  t->slots[i] = idx + 1;
  t->count++;
  *out = idx;
  return 0;
}

uint32_t unify_entry_point(unified_tree *t, uint16_t kind, uint32_t *out_index) {
  hpcdb_context c = {0};
  c.kind = HPCDB_CTX_ENTRY;
  c.entry_point = kind;
  c.name = entry_names[kind < 3 ? kind : 0];
  c.function = c.file = c.module = HPCDB_NONE;
  unify_key key = {0, HPCDB_NONE, kind};
  return (uint32_t)find_or_add(t, key, &c, out_index);
}

int unify_child(unified_tree *t, unify_key key, uint32_t *out_index) {
  hpcdb_context c = {0};
  c.kind = HPCDB_CTX_NORMAL;
  c.relation = HPCDB_REL_CALL;
  c.lexical_type = HPCDB_LEX_INSTRUCTION;
  c.function = c.file = HPCDB_NONE;
  c.module = key.module;
  c.offset = key.offset;
  return find_or_add(t, key, &c, out_index);
}

void unified_tree_free(unified_tree *t) {
  free(t->keys);
  free(t->slots);
  t->keys = NULL;
  t->slots = NULL;
  t->cap = t->count = 0;
}

/* What a placeholder node stands for. */
typedef enum placeholder { PH_GLOBAL, PH_MAIN, PH_THREAD, PH_UNKNOWN } placeholder;

static placeholder classify(uint64_t ip) {
  char name[9];
  for (int i = 0; i < 8; i++) name[i] = (char)(ip >> (56 - 8 * i));
  name[8] = '\0';
  if (!strcmp(name, "^Primary") || !strcmp(name, "NoActvty")) return PH_GLOBAL;
  if (!strcmp(name, "| Main  ")) return PH_MAIN;
  if (!strcmp(name, "| Thread")) return PH_THREAD;
  return PH_UNKNOWN;
}

static int module_index(hpcdb_experiment *exp, const hpcrun_str *path, uint32_t *out) {
  const char *p = hpcdb_intern_n(exp, path->s, path->len);
  if (!p) return HPCDB_ENOMEM;
  for (uint32_t i = 0; i < exp->n_modules; i++)
    if (exp->modules[i].path == p) {
      *out = i;
      return 0;
    }
  return hpcdb_add_module(exp, p, 0, out);
}

static int cmp_u32_pair(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

uint32_t mapped_profile_ctx(const mapped_profile *m, uint32_t node_id) {
  uint32_t lo = 0, hi = m->n_nodes;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->node_ids[mid] < node_id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m->n_nodes && m->node_ids[lo] == node_id ? m->node_ctx[lo] : HPCDB_NONE;
}

void mapped_profile_free(mapped_profile *m) {
  free(m->node_ids);
  free(m->node_ctx);
  memset(m, 0, sizeof *m);
}

/* The node order of a file is not guaranteed parent-first, so nodes whose
 * parent is not mapped yet are retried in further passes (each pass maps at
 * least one node, or the rest have no reachable parent: corrupt). */
int unify_file(unified_tree *t, const char *path, const hpcrun_file *f, int all_stats,
               mapped_profile *out, uint32_t *metric_map) {
  hpcdb_experiment *exp = t->exp;
  const hpcrun_tables *tab = &f->t;
  memset(out, 0, sizeof *out);
  if (tab->n_nodes > UINT32_MAX - 1) return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: too many nodes", path);
  uint32_t n = (uint32_t)tab->n_nodes;
  uint32_t *pairs = malloc(((size_t)n + 1) * 2 * sizeof *pairs);
  uint32_t *lm_map = calloc((size_t)UINT16_MAX + 1, sizeof *lm_map);
  out->node_ids = malloc(((size_t)n + 1) * sizeof *out->node_ids);
  out->node_ctx = malloc(((size_t)n + 1) * sizeof *out->node_ctx);
  int rc = 0;
  if (!pairs || !lm_map || !out->node_ids || !out->node_ctx) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory mapping %u nodes", path, n);
    goto done;
  }
  for (uint32_t i = 0; i < tab->n_lm; i++) lm_map[tab->lm[i].id] = i + 1;
  rc = unify_metrics(exp, tab, all_stats, metric_map);
  if (rc < 0) goto done;
  /* Sorted (node id, file position) pairs let parents be found by binary search. */
  for (uint32_t i = 0; i < n; i++) {
    pairs[2 * i] = tab->nodes[i].id;
    pairs[2 * i + 1] = i;
  }
  qsort(pairs, n, 2 * sizeof *pairs, cmp_u32_pair);
  out->n_nodes = n;
  for (uint32_t i = 0; i < n; i++) {
    out->node_ids[i] = pairs[2 * i];
    out->node_ctx[i] = HPCDB_NONE;
    if (i > 0 && pairs[2 * i] == pairs[2 * i - 2]) {
      rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: node id %u is used twice", path, pairs[2 * i]);
      goto done;
    }
  }
  uint32_t left = n;
  while (left > 0) {
    uint32_t before = left;
    for (uint32_t i = 0; i < n; i++) {
      const hpcrun_cct_node *node = &tab->nodes[i];
      uint32_t pos = 0, lo = 0, hi = n;
      while (lo < hi) { /* position of this node in the sorted ids */
        uint32_t mid = lo + (hi - lo) / 2;
        if (out->node_ids[mid] < node->id) lo = mid + 1; else hi = mid;
      }
      pos = lo;
      if (out->node_ctx[pos] != HPCDB_NONE) continue;
      uint32_t parent_ctx = 0;
      if (node->parent != 0) {
        parent_ctx = mapped_profile_ctx(out, node->parent);
        if (parent_ctx == HPCDB_NONE) continue; /* parent not mapped yet */
      }
      uint32_t ctx;
      if (node->lm_id == HPCRUN_LM_PLACEHOLDER) {
        placeholder ph = classify(node->ip);
        if (ph == PH_GLOBAL)
          ctx = parent_ctx;
        else if (parent_ctx == 0)
          rc = (int)unify_entry_point(t, ph == PH_MAIN ? HPCDB_ENTRY_MAIN
                                         : ph == PH_THREAD ? HPCDB_ENTRY_THREAD
                                                           : HPCDB_ENTRY_UNKNOWN, &ctx);
        else
          ctx = parent_ctx; /* a placeholder inside a path adds no frame */
      } else {
        if (!lm_map[node->lm_id]) {
          rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: node %u refers to load module %u, not in the load map",
                          path, node->id, node->lm_id);
          goto done;
        }
        uint32_t module;
        rc = module_index(exp, &tab->lm[lm_map[node->lm_id] - 1].name, &module);
        if (rc == 0) {
          if (parent_ctx == 0) /* a frame without an entry placeholder */
            rc = (int)unify_entry_point(t, HPCDB_ENTRY_UNKNOWN, &parent_ctx);
          if (rc == 0) rc = unify_child(t, (unify_key){parent_ctx, module, node->ip}, &ctx);
        }
      }
      if (rc < 0) goto done;
      out->node_ctx[pos] = ctx;
      left--;
    }
    if (left == before) {
      rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: %u nodes have no path to a root (missing parent or cycle)",
                      path, left);
      goto done;
    }
  }
done:
  free(pairs);
  free(lm_map);
  if (rc < 0) mapped_profile_free(out);
  return rc;
}
