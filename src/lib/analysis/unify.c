/* SPDX-License-Identifier: BSD-3-Clause */
/* Unifying per-thread calling-context trees: the same calling path is the
 * same context. A frame in a load module a structure file describes is
 * mapped by structure_map.c. Otherwise, as hpcprof --ignore-structs does:
 * a frame is an instruction context (load module + offset) reached by a
 * call; a frame in a binary the measurement directory carries (the vdso) and
 * whose function symbol is known is that function's context with the
 * instruction as a hidden lexical child; so is a kernel frame whose function
 * the measurement's kernel_symbols/ names. hpcrun's placeholders (load module
 * 0, the ip holding 8 characters; hpcrun_placeholders.h) become the global context
 * ("^Primary" and the idle "NoActvty"), entry points at a root ("| Main  ",
 * "| Thread"; any other, e.g. a partial unwind: "unknown entry"), or, inside
 * a path, a function context named after the placeholder (GPU operations:
 * `<gpu kernel>` between a launch site and the kernel's GPU instructions). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/kernel_symbols.h"
#include "hpcrun/hpcrun_placeholders.h"
#include "analysis/structure_map.h"
#include "analysis/symbols.h"
#include "common/error.h"
#include "common/huge_pages.h"
#include "common/vec.h"
#include "hpcrun/hpcrun_model.h"
#include "model/model_build.h"

#define HPCRUN_NODE_UNWOUND 0x1

static uint64_t key_hash(unify_key k) {
  return hash_u64(((uint64_t)k.parent << 32 | k.module) * 0x9e3779b97f4a7c15ull ^ k.offset);
}

static int key_eq(unify_key a, unify_key b) {
  return a.parent == b.parent && a.module == b.module && a.offset == b.offset;
}

int unified_tree_init(unified_tree *t, hpcdb_experiment *exp, const char *measurements) {
  memset(t, 0, sizeof *t);
  t->exp = exp;
  t->measurements = measurements;
  HPCDB_TRY(VEC_RESERVE(&t->info, &t->cap_ids, 1024));
  t->info[0] = (ctx_info){0, 0, 0, 0, 0}; /* the global context, exp->contexts[0] */
  t->n_ids = 1;
  return 0;
}

void unified_tree_drop_sources(unified_tree *t) {
  for (uint64_t i = 0; i < t->cap_symbols; i++)
    if (t->symbols[i]) {
      symbols_free(t->symbols[i]);
      free(t->symbols[i]);
    }
  free(t->symbols);
  t->symbols = NULL;
  t->cap_symbols = 0;
  structure_map_free(t->structure);
  t->structure = NULL;
  u64map_free(&t->functions);
  u64map_free(&t->placeholders);
}

void unified_tree_free(unified_tree *t) {
  unified_tree_drop_sources(t);
  free(t->slots);
  free(t->spare);
  free(t->info);
  free(t->keys);
  unified_tree_release_retired(t);
  free(t->retired);
  memset(t, 0, sizeof *t);
}

void unified_tree_release_retired(unified_tree *t) {
  for (uint64_t i = 0; i < t->n_retired; i++) free(t->retired[i]);
  t->n_retired = 0;
}

/* Room for one more id. The old array is kept until
 * unified_tree_release_retired: a view of the tree may be reading it. */
static int info_grow(unified_tree *t) {
  uint64_t cap = t->cap_ids * 2;
  ctx_info *info = malloc(cap * sizeof *info);
  if (!info || VEC_RESERVE(&t->retired, &t->cap_retired, t->n_retired + 1) < 0) {
    free(info);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory unifying calling contexts");
  }
  huge_pages_advise(info, cap * sizeof *info);
  memcpy(info, t->info, t->n_ids * sizeof *info);
  t->retired[t->n_retired++] = t->info;
  t->info = info;
  t->cap_ids = cap;
  return 0;
}

static int table_resize(unified_tree *t, uint64_t ncap) {
  unify_slot *slots = t->spare_cap == ncap && t->spare_zeroed == ncap * sizeof *slots ? t->spare : NULL;
  if (slots) { /* zeroed by another thread already (unify_ahead) */
    t->spare = NULL;
    t->spare_cap = 0;
    t->spare_zeroed = 0;
  } else if ((slots = calloc(ncap, sizeof *slots))) {
    huge_pages_advise(slots, ncap * sizeof *slots);
  } else {
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory unifying calling contexts");
  }
  for (uint64_t i = 0; i < t->cap; i++) {
    if (!t->slots[i].id_plus1) continue;
    uint64_t j = key_hash(t->slots[i].key) & (ncap - 1);
    while (slots[j].id_plus1) j = (j + 1) & (ncap - 1);
    slots[j] = t->slots[i];
  }
  free(t->slots);
  t->slots = slots;
  t->cap = ncap;
  return 0;
}

static int table_grow(unified_tree *t) { return table_resize(t, t->cap ? t->cap * 2 : 1024); }

int unify_table_reserve(unified_tree *t, uint64_t n) {
  uint64_t cap = t->cap ? t->cap : 1024;
  while (n * 4 > cap * 3) cap *= 2; /* at most 3/4 full */
  return cap > t->cap ? table_resize(t, cap) : 0;
}

/* The spare table is zeroed this much per batch: a few ms of the other
 * thread's time, where the whole table (tens of MB) would keep the unifying
 * thread waiting for it at the batch's end. */
#define SPARE_PIECE ((size_t)8 << 20)

void unify_ahead_prepare(unified_tree *t, uint64_t n, uint64_t rest, unify_ahead *a) {
  memset(a, 0, sizeof *a);
  uint64_t need = t->n_ids + n;
  if (need > UINT32_MAX) need = UINT32_MAX;
  if (n > UINT32_MAX) n = UINT32_MAX;
  if (model_reserve_contexts(t->exp, (uint32_t)n, &a->pages[0], &a->bytes[0]) < 0) return;
  while (t->cap_ids < need)
    if (info_grow(t) < 0) return;
  a->pages[1] = t->info + t->n_ids;
  a->bytes[1] = (size_t)(need - t->n_ids) * sizeof *t->info;
  if (t->spare && t->spare_cap <= t->cap) { /* the table grew past it */
    free(t->spare);
    t->spare = NULL;
    t->spare_cap = 0;
  }
  size_t bytes = 2 * t->cap * sizeof *t->spare;
  uint64_t batches = bytes / SPARE_PIECE + 2;              /* to zero it in, and one to spare */
  uint64_t soon = batches * n < rest ? batches * n : rest; /* no table the run will not grow into */
  if (!t->spare && t->cap && (t->count + soon) * 4 > t->cap * 3 && (t->spare = malloc(bytes))) {
    t->spare_cap = 2 * t->cap;
    t->spare_zeroed = 0;
    huge_pages_advise(t->spare, bytes);
  }
  if (t->spare) {
    bytes = t->spare_cap * sizeof *t->spare;
    a->zero = (uint8_t *)t->spare + t->spare_zeroed;
    a->zero_bytes = bytes - t->spare_zeroed < SPARE_PIECE ? bytes - t->spare_zeroed : SPARE_PIECE;
  }
}

void unify_ahead_run(const unify_ahead *a) {
  for (int i = 0; i < 2; i++) prefault_pages(a->pages[i], a->bytes[i]);
  if (a->zero_bytes) memset(a->zero, 0, a->zero_bytes);
}

void unify_ahead_done(unified_tree *t, const unify_ahead *a) {
  if (a->zero_bytes && a->zero == (uint8_t *)t->spare + t->spare_zeroed) t->spare_zeroed += a->zero_bytes;
}

void unify_prefetch(const unified_tree *t, unify_key key) {
  if (t->cap) __builtin_prefetch(&t->slots[key_hash(key) & (t->cap - 1)]);
}

/* A new context under key.parent, made from proto; its key is not looked for (nor entered). */
static inline int add_context(unified_tree *t, unify_key key, const hpcdb_context *proto, int hidden,
                              uint32_t *out_id) {
  if (t->n_ids == UINT32_MAX - 1) return hpcdb_fail(HPCDB_EUNSUPPORTED, "more than 2^32 contexts");
  if (t->n_ids == t->cap_ids) HPCDB_TRY(info_grow(t));
  uint32_t id = t->n_ids;
  const ctx_info *parent = &t->info[key.parent];
  ctx_info info = {key.parent, HPCDB_NONE, id, (uint8_t)(proto->propagation & 1),
                   (uint8_t)(proto->lexical_type == HPCDB_LEX_LOOP)};
  if (hidden) {
    info.visible = parent->visible;
  } else {
    hpcdb_context c = *proto;
    c.id = id;
    uint32_t model_parent = t->info[parent->visible].model_index;
    HPCDB_TRY(t->defer_links ? model_add_context_unlinked(t->exp, &c, model_parent, &info.model_index)
                             : hpcdb_add_context(t->exp, &c, model_parent, &info.model_index));
  }
  if (t->keys) {
    if (id >= t->cap_keys) HPCDB_TRY(VEC_RESERVE(&t->keys, &t->cap_keys, (uint64_t)id + 1));
    t->keys[id] = key;
  }
  t->info[id] = info;
  t->n_ids++;
  *out_id = id;
  return 0;
}

int unify_find_or_add(unified_tree *t, unify_key key, const hpcdb_context *proto, int hidden, uint32_t *out_id) {
  if ((t->count + 1) * 4 > t->cap * 3) HPCDB_TRY(table_grow(t)); /* at most 3/4 full */
  uint64_t i = key_hash(key) & (t->cap - 1);
  while (t->slots[i].id_plus1) {
    if (key_eq(t->slots[i].key, key)) {
      *out_id = t->slots[i].id_plus1 - 1;
      return 0;
    }
    i = (i + 1) & (t->cap - 1);
  }
  HPCDB_TRY(add_context(t, key, proto, hidden, out_id));
  t->slots[i] = (unify_slot){key, *out_id + 1};
  t->count++;
  return 0;
}

int unify_add_unlooked(unified_tree *t, unify_key key, const hpcdb_context *proto, int hidden, uint32_t *out_id) {
  return add_context(t, key, proto, hidden, out_id);
}

/* The id under key, if any (no insertion). */
static inline int table_find(const unified_tree *t, unify_key key, uint32_t *out_id) {
  if (!t->cap) return 0;
  for (uint64_t i = key_hash(key) & (t->cap - 1); t->slots[i].id_plus1; i = (i + 1) & (t->cap - 1))
    if (key_eq(t->slots[i].key, key)) {
      *out_id = t->slots[i].id_plus1 - 1;
      return 1;
    }
  return 0;
}

int unify_find(const unified_tree *t, unify_key key, uint32_t *out_id) { return table_find(t, key, out_id); }

/* Makes key lead to id too, unless it leads somewhere already. */
int unify_table_put(unified_tree *t, unify_key key, uint32_t id) {
  if ((t->count + 1) * 4 > t->cap * 3) HPCDB_TRY(table_grow(t));
  uint64_t i = key_hash(key) & (t->cap - 1);
  for (; t->slots[i].id_plus1; i = (i + 1) & (t->cap - 1))
    if (key_eq(t->slots[i].key, key)) return 0;
  t->slots[i] = (unify_slot){key, id + 1};
  t->count++;
  return 0;
}

static const char *const entry_names[] = {"unknown entry", "main thread", "application thread"};

static int entry_point(unified_tree *t, uint16_t kind, uint32_t *out_id) {
  hpcdb_context c = {0};
  c.kind = HPCDB_CTX_ENTRY;
  c.entry_point = kind;
  c.name = entry_names[kind < 3 ? kind : 0];
  c.function = c.file = c.module = HPCDB_NONE;
  return unify_find_or_add(t, (unify_key){0, KEY_ENTRY, kind}, &c, 0, out_id);
}

static hpcdb_context frame_proto(void) {
  hpcdb_context c = {0};
  c.kind = HPCDB_CTX_NORMAL;
  c.relation = HPCDB_REL_CALL;
  c.lexical_type = HPCDB_LEX_INSTRUCTION;
  c.function = c.file = c.module = HPCDB_NONE;
  return c;
}

/* The symbols of a module whose binary is inside the measurement directory
 * (its load-map path is relative to it), or of the kernel from the
 * measurement's kernel_symbols/; none for every other module. */
static int module_symbols(unified_tree *t, uint32_t module, const symbol_table **out) {
  *out = NULL;
  if (module >= t->cap_symbols) {
    uint64_t old = t->cap_symbols;
    HPCDB_TRY(VEC_RESERVE(&t->symbols, &t->cap_symbols, (uint64_t)module + 1));
    memset(t->symbols + old, 0, (t->cap_symbols - old) * sizeof *t->symbols);
  }
  if (!t->symbols[module]) {
    symbol_table *st = calloc(1, sizeof *st);
    if (!st) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    t->symbols[module] = st;
    const char *path = t->exp->modules[module].path;
    char kernel[256];
    int style = t->measurements ? kernel_module_name(path, kernel, sizeof kernel) : 0;
    if (style) {
      int rc = kernel_symbols_load(st, t->measurements, kernel, style);
      if (rc == HPCDB_ENOMEM) return rc;
      if (rc < 0) { /* a damaged symbols file: the kernel's frames stay addresses, as without one */
        char why[1024];
        snprintf(why, sizeof why, "%s (the kernel's frames stay addresses)", hpcdb_last_error());
        HPCDB_TRY(hpcdb_add_warning(t->exp, why));
      }
    } else if (path[0] != '/' && t->measurements) {
      char full[4096];
      if ((size_t)snprintf(full, sizeof full, "%s/%s", t->measurements, path) < sizeof full)
        HPCDB_TRY(symbols_load(st, full));
    }
  }
  *out = t->symbols[module];
  return 0;
}

static int function_index(unified_tree *t, uint32_t module, const symbol_table *st, const symbol *s, uint32_t *out) {
  uint64_t key = (uint64_t)module << 32 | (uint64_t)(s - st->syms), idx;
  if (u64map_get(&t->functions, key, &idx)) {
    *out = (uint32_t)idx;
    return 0;
  }
  hpcdb_function fn = {s->name, module, s->start, HPCDB_NONE, 0, 0};
  HPCDB_TRY(hpcdb_add_function(t->exp, &fn, out));
  if (u64map_put(&t->functions, key, *out) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  return 0;
}

/* A frame not met before: its context, made as needed. */
static int new_frame(unified_tree *t, uint32_t parent, uint32_t module, uint64_t ip, uint32_t *out_id) {
  if (t->structure) {
    int described = structure_frame(t, parent, module, ip, out_id);
    if (described != 0) return described < 0 ? described : 0;
  }
  const symbol_table *st;
  HPCDB_TRY(module_symbols(t, module, &st));
  const symbol *s = symbols_find(st, ip);
  hpcdb_context c = frame_proto();
  if (!s) {
    c.module = module;
    c.offset = ip;
    return unify_find_or_add(t, (unify_key){parent, module, ip}, &c, 0, out_id);
  }
  uint32_t fn, fn_ctx;
  HPCDB_TRY(function_index(t, module, st, s, &fn));
  c.lexical_type = HPCDB_LEX_FUNCTION;
  c.function = fn;
  HPCDB_TRY(unify_find_or_add(t, (unify_key){parent, KEY_FUNCTION, fn}, &c, 0, &fn_ctx));
  hpcdb_context insn = frame_proto();
  insn.relation = HPCDB_REL_LEXICAL;
  insn.propagation = 1;
  insn.module = module;
  insn.offset = ip;
  return unify_find_or_add(t, (unify_key){fn_ctx, module, ip}, &insn, 1, out_id);
}

/* The context a frame (module + ip) called from parent stands for. A frame
 * met before is one probe: (parent, module, ip) leads to its context however
 * it was made (through a structure file, a function symbol, or as itself). */
static int frame(unified_tree *t, uint32_t parent, uint32_t module, uint64_t ip, uint32_t *out_id) {
  unify_key key = {parent, module, ip};
  if (table_find(t, key, out_id)) return 0;
  HPCDB_TRY(new_frame(t, parent, module, ip, out_id));
  return unify_table_put(t, key, *out_id);
}

/* The function a placeholder frame stands for: one per placeholder code, in
 * no module (hpcprof writes one function entry per code, so "GPUKernl" and
 * "GPUTrace" are two functions both named <gpu kernel>). */
static int placeholder_function(unified_tree *t, uint64_t ip, uint32_t *out) {
  uint64_t idx;
  if (u64map_get(&t->placeholders, ip, &idx)) {
    *out = (uint32_t)idx;
    return 0;
  }
  char buf[33];
  hpcdb_function fn = {hpcrun_placeholder_name(ip, buf), HPCDB_NONE, 0, HPCDB_NONE, 0, 0};
  HPCDB_TRY(hpcdb_add_function(t->exp, &fn, out));
  if (u64map_put(&t->placeholders, ip, *out) != 0) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  return 0;
}

static int placeholder_frame(unified_tree *t, uint32_t parent, uint64_t ip, uint32_t *out_id) {
  hpcdb_context c = frame_proto();
  c.lexical_type = HPCDB_LEX_FUNCTION;
  HPCDB_TRY(placeholder_function(t, ip, &c.function));
  return unify_find_or_add(t, (unify_key){parent, KEY_PLACEHOLDER, ip}, &c, 0, out_id);
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

void mapped_profile_free(mapped_profile *m) {
  free(m->node_ids);
  free(m->node_ctx);
  free(m->node_rel);
  free(m->file_keys);
  free(m->by_id);
  memset(m, 0, sizeof *m);
}

/* One file's load map: the tree's load module ids to the experiment's modules
 * (resolved on first use). */
typedef struct file_modules {
  uint32_t *lm_map; /* load module id -> index in tab->lm + 1; 0 = not in the load map */
  uint32_t *module; /* index in tab->lm -> module index, HPCDB_NONE until used */
} file_modules;

static int node_module(hpcdb_experiment *exp, const hpcrun_tables *tab, file_modules *fm, uint16_t lm_id,
                       uint32_t *out) {
  uint32_t k = fm->lm_map[lm_id] - 1;
  if (fm->module[k] == HPCDB_NONE) HPCDB_TRY(module_index(exp, &tab->lm[k].name, &fm->module[k]));
  *out = fm->module[k];
  return 0;
}

/* The context one node stands for, given its parent's. */
/* hpcrun's GPU range profiling writes nodes in load modules 65531-65533
 * (context, range, root of an outlined range tree), which only structure
 * files' control-flow graphs can place. */
#define HPCRUN_LM_GPU_CONTEXT 65531
#define HPCRUN_LM_GPU_ROOT 65533

/* The unknown function under parent (a function context with no function):
 * where an address hpcrun could not normalize goes, and the caller of a frame
 * hpcrun did not unwind to (a GPU instruction sample: its calling context
 * inside the kernel is unknown without the kernel's control-flow graph), as
 * hpcprof places them without such graphs. */
static int unknown_function(unified_tree *t, uint32_t parent, uint32_t *out_id) {
  hpcdb_context c = frame_proto();
  c.lexical_type = HPCDB_LEX_FUNCTION;
  return unify_find_or_add(t, (unify_key){parent, KEY_UNKNOWN, 0}, &c, 0, out_id);
}

/* The context of a frame hpcprof calls its relation to the caller: the
 * outermost of those the frame made under frame_parent (the function a
 * structure file or symbol puts the address in; the instruction itself
 * otherwise). Metrics hpcrun marks "move to procedure" (GPU kernels' time,
 * counts and characteristics) and call-trace samples go there. */
static uint32_t relation_context(const unified_tree *t, uint32_t frame_parent, uint32_t ctx) {
  uint32_t c = ctx;
  while (c != 0 && t->info[c].parent != frame_parent) c = t->info[c].parent;
  return c != 0 ? c : ctx;
}

/* The context one node stands for, given its parent's; *frame_parent is
 * where a frame's contexts were made (HPCDB_NONE for a placeholder). */
static int map_node(unified_tree *t, const char *path, const hpcrun_tables *tab, file_modules *fm,
                    const hpcrun_cct_node *node, int unwound, uint32_t parent, uint32_t *out, uint32_t *frame_parent) {
  *frame_parent = HPCDB_NONE;
  if (node->lm_id >= HPCRUN_LM_GPU_CONTEXT && node->lm_id <= HPCRUN_LM_GPU_ROOT)
    return hpcdb_fail(HPCDB_EUNSUPPORTED,
                      "%s: node %u is a GPU range-profiling node (load module %u), which analyze cannot place "
                      "without the kernels' control-flow graphs",
                      path, node->id, node->lm_id);
  if (node->lm_id == HPCRUN_LM_PLACEHOLDER && !unwound)
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: placeholder node %u is marked as not unwound", path, node->id);
  if (node->lm_id == HPCRUN_LM_PLACEHOLDER) {
    placeholder_role ph = hpcrun_placeholder_role(node->ip);
    if (ph == PH_ROOT && node->parent != 0)
      return hpcdb_fail(HPCDB_ECORRUPT, "%s: placeholder node %u (^Primary) has a parent; it is only a root", path,
                        node->id);
    if ((ph == PH_IDLE || ph == PH_PARTIAL) && parent != 0)
      return hpcdb_fail(HPCDB_ECORRUPT,
                        "%s: placeholder node %u (%s) is below a frame; hpcrun puts it only "
                        "below the ^Primary root",
                        path, node->id, ph == PH_IDLE ? "NoActvty" : "^Partial");
    if (ph == PH_IDLE || ph == PH_ROOT) { /* not running: the global context */
      *out = 0;
      return 0;
    }
    if (parent == 0 && ph != PH_FRAME)
      return entry_point(t,
                         ph == PH_MAIN     ? HPCDB_ENTRY_MAIN
                         : ph == PH_THREAD ? HPCDB_ENTRY_THREAD
                                           : HPCDB_ENTRY_UNKNOWN,
                         out);
    if (ph == PH_UNNORM) return unknown_function(t, parent, out);
    if (parent == 0) HPCDB_TRY(entry_point(t, HPCDB_ENTRY_UNKNOWN, &parent));
    return placeholder_frame(t, parent, node->ip, out);
  }
  if (!fm->lm_map[node->lm_id])
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: node %u refers to load module %u, not in the load map", path, node->id,
                      node->lm_id);
  uint32_t module;
  HPCDB_TRY(node_module(t->exp, tab, fm, node->lm_id, &module));
  if (parent == 0) HPCDB_TRY(entry_point(t, HPCDB_ENTRY_UNKNOWN, &parent)); /* no entry placeholder */
  if (!unwound) HPCDB_TRY(unknown_function(t, parent, &parent));
  *frame_parent = parent;
  return frame(t, parent, module, node->ip, out);
}

static int cmp_pair(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Sorts the node ids (pos[i]: where file node i went). Node ids are usually
 * small (hpcrun numbers nodes as it makes them): then a direct index, at most
 * a few words per node, sorts them and replaces the binary search later. */
static int sort_ids(mapped_profile *out, const char *path, uint32_t *pairs, uint32_t *pos) {
  uint32_t n = out->n_nodes, max = 0;
  for (uint32_t i = 0; i < n; i++) max = out->file_keys[i] > max ? out->file_keys[i] : max;
  if (n > 0 && max < UINT32_MAX && (uint64_t)max <= 4 * (uint64_t)n + 1024 &&
      (out->by_id = malloc(((size_t)max + 1) * sizeof *out->by_id)) != NULL) {
    memset(out->by_id, 0xff, ((size_t)max + 1) * sizeof *out->by_id);
    out->n_by_id = max + 1;
    for (uint32_t i = 0; i < n; i++) {
      if (out->by_id[out->file_keys[i]] != HPCDB_NONE)
        return hpcdb_fail(HPCDB_ECORRUPT, "%s: node id %u is used twice", path, out->file_keys[i]);
      out->by_id[out->file_keys[i]] = i;
    }
    uint32_t k = 0;
    for (uint32_t id = 0; id <= max; id++) {
      uint32_t i = out->by_id[id];
      if (i == HPCDB_NONE) continue;
      out->node_ids[k] = id;
      pos[i] = k;
      out->by_id[id] = k++;
    }
    return 0;
  }
  for (uint32_t i = 0; i < n; i++) {
    pairs[2 * i] = out->file_keys[i];
    pairs[2 * i + 1] = i;
  }
  qsort(pairs, n, 2 * sizeof *pairs, cmp_pair);
  for (uint32_t k = 0; k < n; k++) {
    if (k > 0 && pairs[2 * k] == pairs[2 * k - 2])
      return hpcdb_fail(HPCDB_ECORRUPT, "%s: node id %u is used twice", path, pairs[2 * k]);
    out->node_ids[k] = pairs[2 * k];
    pos[pairs[2 * k + 1]] = k;
  }
  return 0;
}

/* How many nodes ahead the table slot of a plain frame is fetched. */
#define PREFETCH_AHEAD 8

static void prefetch_node(const unified_tree *t, const mapped_profile *out, const hpcrun_tables *tab,
                          const file_modules *fm, const hpcrun_cct_node *node) {
  if (node->lm_id == HPCRUN_LM_PLACEHOLDER || !fm->lm_map[node->lm_id]) return;
  uint32_t module = fm->module[fm->lm_map[node->lm_id] - 1];
  uint32_t parent = node->parent ? mapped_profile_ctx(out, node->parent) : HPCDB_NONE;
  if (module != HPCDB_NONE && parent != HPCDB_NONE) unify_prefetch(t, (unify_key){parent, module, node->ip});
}

/* Nodes are mapped parents first. The file's order is not trusted: nodes
 * whose parent is not mapped yet wait for a later pass; a pass that maps
 * nothing means the rest have no path to a root (corrupt). */
int unify_file(unified_tree *t, const char *path, const hpcrun_file *f, const hpcrun_tables *tab, int all_stats,
               mapped_profile *out, uint32_t *metric_map) {
  memset(out, 0, sizeof *out);
  if (tab->n_nodes > UINT32_MAX - 1) return hpcdb_fail(HPCDB_EUNSUPPORTED, "%s: too many nodes", path);
  uint32_t n = (uint32_t)tab->n_nodes;
  uint32_t *pairs = malloc(((size_t)n + 1) * 2 * sizeof *pairs);
  uint32_t *pos = malloc(((size_t)n + 1) * sizeof *pos);
  file_modules fm = {calloc((size_t)UINT16_MAX + 1, sizeof *fm.lm_map),
                     malloc(((size_t)tab->n_lm + 1) * sizeof *fm.module)};
  out->node_ids = malloc(((size_t)n + 1) * sizeof *out->node_ids);
  out->node_ctx = malloc(((size_t)n + 1) * sizeof *out->node_ctx);
  out->node_rel = malloc(((size_t)n + 1) * sizeof *out->node_rel);
  out->file_keys = malloc(((size_t)n + 1) * sizeof *out->file_keys);
  int rc = 0;
  if (!pairs || !pos || !fm.lm_map || !fm.module || !out->node_ids || !out->node_ctx || !out->node_rel ||
      !out->file_keys) {
    rc = hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory mapping %u nodes", path, n);
    goto done;
  }
  for (uint32_t i = 0; i < tab->n_lm; i++) {
    fm.lm_map[tab->lm[i].id] = i + 1;
    fm.module[i] = HPCDB_NONE;
  }
  if ((rc = unify_metrics(t->exp, tab, all_stats, metric_map)) < 0) goto done;
  for (uint32_t i = 0; i < n; i++) {
    out->file_keys[i] = hpcrun_stored_key(f, tab->nodes[i].id); /* 02.00 negates leaf ids */
    out->node_ctx[i] = HPCDB_NONE;
  }
  out->n_nodes = n;
  if ((rc = sort_ids(out, path, pairs, pos)) < 0) goto done;
  for (uint32_t left = n; left > 0;) {
    uint32_t before = left;
    for (uint32_t i = 0; i < n; i++) {
      const hpcrun_cct_node *node = &tab->nodes[i];
      if (i + PREFETCH_AHEAD < n) prefetch_node(t, out, tab, &fm, &tab->nodes[i + PREFETCH_AHEAD]);
      if (out->node_ctx[pos[i]] != HPCDB_NONE) continue;
      uint32_t parent = 0;
      if (node->parent != 0 && (parent = mapped_profile_ctx(out, node->parent)) == HPCDB_NONE) continue;
      int unwound = f->major != 4 || (node->flags & HPCRUN_NODE_UNWOUND); /* the flag is 04.00's */
      uint32_t *ctx = &out->node_ctx[pos[i]], frame_parent;
      if ((rc = map_node(t, path, tab, &fm, node, unwound, parent, ctx, &frame_parent)) < 0) goto done;
      out->node_rel[pos[i]] = frame_parent == HPCDB_NONE ? *ctx : relation_context(t, frame_parent, *ctx);
      left--;
    }
    if (left == before) {
      rc = hpcdb_fail(HPCDB_ECORRUPT, "%s: %u nodes have no path to a root (missing parent or cycle)", path, left);
      goto done;
    }
  }
done:
  free(pairs);
  free(pos);
  free(fm.lm_map);
  free(fm.module);
  if (rc < 0) mapped_profile_free(out);
  return rc;
}
