/* SPDX-License-Identifier: BSD-3-Clause */
/* Serializing a unified tree and merging one into another (tree_merge.h). */
#include <stdlib.h>
#include <string.h>

#include "distributed/tree_merge.h"
#include "distributed/tree_wire.h"
#include "analysis/structure_map.h"
#include "common/bytes.h"
#include "common/error.h"
#include "common/vec.h"

#define TREE_MAGIC 0x52544448u /* "HDTR" */

#define HEAD_RESERVE ((uint32_t)1 << 22) /* contexts reserved on the head's word alone */

static void put_ident(dist_msg *m, const fn_ident *id) {
  dist_msg_u32(m, id->kind);
  dist_msg_u32(m, id->module);
  dist_msg_u64(m, id->id);
}

#define TREE_PART ((uint64_t)4 << 20) /* bytes of contexts in a part (about) */

/* The metrics by name and scopes, as a tree's head and the view's both carry them. */
static void put_metrics(const hpcdb_experiment *exp, dist_msg *m) {
  dist_msg_u32(m, exp->n_metrics);
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    dist_msg_str(m, exp->metrics[i].name);
    dist_msg_u32(m, analysis_metric_scopes(&exp->metrics[i]));
  }
}

static void put_head(const unified_tree *t, const fn_ident *idents, dist_msg *m) {
  const hpcdb_experiment *exp = t->exp;
  dist_msg_u32(m, TREE_MAGIC);
  put_metrics(exp, m);
  dist_msg_u32(m, exp->n_modules);
  for (uint32_t i = 0; i < exp->n_modules; i++) {
    dist_msg_str(m, exp->modules[i].path);
    dist_msg_u32(m, exp->modules[i].flags);
  }
  dist_msg_u32(m, exp->n_files);
  for (uint32_t i = 0; i < exp->n_files; i++) {
    dist_msg_str(m, exp->files[i].path);
    dist_msg_u32(m, exp->files[i].flags);
  }
  dist_msg_u32(m, exp->n_functions);
  for (uint32_t i = 0; i < exp->n_functions; i++) {
    const hpcdb_function *f = &exp->functions[i];
    put_ident(m, &idents[i]);
    dist_msg_str(m, f->name);
    dist_msg_u32(m, f->module);
    dist_msg_u64(m, f->offset);
    dist_msg_u32(m, f->file);
    dist_msg_u32(m, f->line);
    dist_msg_u32(m, f->flags);
  }
  dist_msg_u32(m, t->n_ids);
}

/* Contexts from *next on, until the part is full; the count first. */
static void put_contexts(const unified_tree *t, const unify_key *keys, uint32_t *next, dist_msg *m) {
  uint64_t at = m->len;
  dist_msg_u32(m, 0);
  uint32_t n = 0;
  for (; *next < t->n_ids && m->len - at < TREE_PART && !m->failed; ++*next, n++) {
    uint32_t id = *next;
    const ctx_info *info = &t->info[id];
    int hidden = info->model_index == HPCDB_NONE;
    uint8_t bits =
        (uint8_t)((hidden ? SENT_HIDDEN : 0) | (info->lexical ? SENT_LEXICAL : 0) | (info->loop ? SENT_LOOP : 0));
    wire_put_context(m, id, keys[id].parent, keys[id], bits, hidden ? NULL : &t->exp->contexts[info->model_index]);
  }
  if (!m->failed) wr_le32(m->data + at, n);
}

int tree_send(const merged_tree *mt, int (*put)(void *user, const dist_msg *part), void *user) {
  const unified_tree *t = &mt->t;
  dist_msg m = {0};
  int rc = t->keys ? 0 : hpcdb_fail(HPCDB_EINVAL, "a tree that does not keep its contexts' own keys");
  uint32_t next = 1; /* the global context is every tree's */
  int ended = 0;     /* the last part sent, or a send failed: nothing more goes */
  for (int head = 1; rc == 0 && !ended; head = 0) {
    m.len = 0;
    dist_msg_u8(&m, 1); /* more parts follow (made 0 below for the last) */
    if (head) put_head(t, mt->idents, &m);
    else put_contexts(t, t->keys, &next, &m);
    int last = !head && next >= t->n_ids;
    if ((rc = dist_msg_status(&m)) < 0) break;
    m.data[0] = (uint8_t)!last;
    if ((rc = put(user, &m)) < 0) {
      ended = 1;
      break;
    }
    ended = last;
  }
  if (!ended) { /* the receiver stops at an empty part */
    dist_msg empty = {0};
    put(user, &empty);
  }
  dist_msg_free(&m);
  return rc;
}

static void scope_function(void *user, uint32_t module, uint32_t scope, uint32_t function) {
  ((fn_ident *)user)[function] = (fn_ident){FN_SCOPE, module, scope};
}

/* A unified tree's functions' identities, from its lookups (NULL: out of memory). */
static fn_ident *function_idents(const unified_tree *t) {
  uint32_t n = t->exp->n_functions;
  fn_ident *idents = malloc((n ? n : 1) * sizeof *idents);
  if (!idents) return NULL;
  for (uint32_t i = 0; i < n; i++) idents[i] = (fn_ident){FN_OTHER, HPCDB_NONE, i};
  for (uint64_t i = 0; i < t->functions.cap; i++)
    if (t->functions.used[i] && t->functions.vals[i] < n)
      idents[t->functions.vals[i]] =
          (fn_ident){FN_SYMBOL, (uint32_t)(t->functions.keys[i] >> 32), t->functions.keys[i] & 0xffffffffu};
  for (uint64_t i = 0; i < t->placeholders.cap; i++)
    if (t->placeholders.used[i] && t->placeholders.vals[i] < n)
      idents[t->placeholders.vals[i]] = (fn_ident){FN_PLACEHOLDER, HPCDB_NONE, t->placeholders.keys[i]};
  structure_map_functions(t->structure, scope_function, idents);
  return idents;
}

int merged_tree_init(merged_tree *m, const char *measurements) {
  memset(m, 0, sizeof *m);
  HPCDB_TRY(hpcdb_experiment_new(&m->exp));
  HPCDB_TRY(unified_tree_init(&m->t, m->exp, measurements));
  HPCDB_TRY(hpcdb_set_format(m->exp, "hpctoolkit-v4", 4, 0));
  HPCDB_TRY(analysis_add_scopes(m->exp));
  return hpcdb_add_profile(m->exp, HPCDB_PROFILE_SUMMARY, 0, NULL, 0, NULL);
}

void merged_tree_free(merged_tree *m) {
  unified_tree_free(&m->t);
  hpcdb_experiment_free(m->exp);
  free(m->idents);
  u64map_free(&m->by_ident);
  memset(m, 0, sizeof *m);
}

void tree_map_free(tree_map *map) {
  free(map->ids);
  free(map->metrics);
  memset(map, 0, sizeof *map);
}

static uint64_t ident_hash(const fn_ident *id) {
  return hash_u64(((uint64_t)id->kind << 32 | id->module) * 0x9e3779b97f4a7c15ull ^ hash_u64(id->id));
}

/* The tree as merging it into an empty one would make it: the same ids, the
 * functions found by identity (merge_functions). Its lookup table keeps the
 * aliases unification made (a frame met before, from another parent) beside
 * each context's own key: a merged context is looked up by its own key, and
 * no rank's own key can be another's alias (a frame is resolved, by symbols
 * or structure files, the same way on every rank). */
int merged_tree_adopt(merged_tree *m, unified_tree *t, int index) {
  memset(m, 0, sizeof *m);
  uint32_t n = t->exp->n_functions;
  if (!(m->idents = function_idents(t))) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  m->cap_idents = n ? n : 1;
  for (uint32_t i = 0; i < n && index; i++) {
    uint64_t h = ident_hash(&m->idents[i]), idx;
    if (m->idents[i].kind != FN_OTHER && !u64map_get(&m->by_ident, h, &idx) && u64map_put(&m->by_ident, h, i) != 0)
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  unified_tree_drop_sources(t);
  m->exp = t->exp;
  m->t = *t;
  memset(t, 0, sizeof *t);
  return 0;
}

void merged_tree_unindex(merged_tree *m) {
  free(m->t.slots);
  m->t.slots = NULL;
  m->t.cap = m->t.count = 0;
  free(m->idents);
  m->idents = NULL;
  m->cap_idents = 0;
  u64map_free(&m->by_ident);
}

static int same_ident(const fn_ident *a, const fn_ident *b) {
  return a->kind == b->kind && a->module == b->module && a->id == b->id;
}

/* Index maps from the sender's tables to the receiver's. */
typedef struct merge_maps {
  uint32_t *modules, *files, *functions, *ids, *metrics;
  uint32_t n_modules, n_files, n_functions, n_ids, n_metrics;
  uint32_t cap_ids;   /* ids allocated: grown as parts arrive, not taken from the head's promise */
  int last;           /* no key is looked up in the tree after this merge: new contexts' keys are not entered */
  uint32_t first_new; /* the receiver's first context this merge makes */
} merge_maps;

static void maps_free(merge_maps *mm) {
  free(mm->metrics);
  free(mm->modules);
  free(mm->files);
  free(mm->functions);
  free(mm->ids);
}

static int bad(hpcdb_cursor *c, const char *what) {
  return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, c->pos, what, "index out of range");
}

/* An index of the sender's table n entries long, mapped (HPCDB_NONE stays). */
static int map_index(hpcdb_cursor *c, const uint32_t *map, uint32_t n, uint32_t *v, const char *what) {
  if (*v == HPCDB_NONE) return 0;
  if (*v >= n) return bad(c, what);
  *v = map[*v];
  return 0;
}

/* A count of entries of at least min_size bytes each must fit in what is left. */
static int check_count(hpcdb_cursor *c, uint32_t n, uint64_t min_size, const char *what) {
  if ((uint64_t)n > (c->len - c->pos) / min_size)
    return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, c->pos, what, "%u entries do not fit", n);
  return 0;
}

static int alloc_map(uint32_t **map, uint32_t n) {
  *map = malloc((n ? n : 1) * sizeof **map);
  return *map ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory merging calling-context trees");
}

/* Modules and files by path (interned: equal paths are one pointer). */
static int merge_paths(hpcdb_cursor *c, hpcdb_experiment *exp, int files, uint32_t **map, uint32_t *n) {
  HPCDB_TRY(cursor_le32(c, n, "count"));
  HPCDB_TRY(check_count(c, *n, 8, "count"));
  HPCDB_TRY(alloc_map(map, *n));
  for (uint32_t i = 0; i < *n; i++) {
    const char *path;
    uint32_t flags;
    HPCDB_TRY(dist_msg_read_str(c, &path));
    HPCDB_TRY(cursor_le32(c, &flags, "flags"));
    if (!path || !(path = hpcdb_intern(exp, path))) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    uint32_t found = HPCDB_NONE, count = files ? exp->n_files : exp->n_modules;
    for (uint32_t k = 0; k < count && found == HPCDB_NONE; k++)
      if ((files ? exp->files[k].path : exp->modules[k].path) == path) found = k;
    if (found == HPCDB_NONE)
      HPCDB_TRY(files ? hpcdb_add_file(exp, path, flags, &found) : hpcdb_add_module(exp, path, flags, &found));
    (*map)[i] = found;
  }
  return 0;
}

/* Functions by identity; one of no known identity is always new. */
static int merge_functions(hpcdb_cursor *c, merged_tree *mt, merge_maps *mm) {
  HPCDB_TRY(cursor_le32(c, &mm->n_functions, "function count"));
  HPCDB_TRY(check_count(c, mm->n_functions, 40, "function count"));
  HPCDB_TRY(alloc_map(&mm->functions, mm->n_functions));
  for (uint32_t i = 0; i < mm->n_functions; i++) {
    fn_ident id;
    hpcdb_function f;
    HPCDB_TRY(cursor_le32(c, &id.kind, "function kind"));
    HPCDB_TRY(cursor_le32(c, &id.module, "function identity module"));
    HPCDB_TRY(cursor_le64(c, &id.id, "function identity"));
    HPCDB_TRY(dist_msg_read_str(c, &f.name));
    HPCDB_TRY(cursor_le32(c, &f.module, "function module"));
    HPCDB_TRY(cursor_le64(c, &f.offset, "function offset"));
    HPCDB_TRY(cursor_le32(c, &f.file, "function file"));
    HPCDB_TRY(cursor_le32(c, &f.line, "function line"));
    HPCDB_TRY(cursor_le32(c, &f.flags, "function flags"));
    HPCDB_TRY(map_index(c, mm->modules, mm->n_modules, &id.module, "function identity module"));
    HPCDB_TRY(map_index(c, mm->modules, mm->n_modules, &f.module, "function module"));
    HPCDB_TRY(map_index(c, mm->files, mm->n_files, &f.file, "function file"));
    uint64_t h = ident_hash(&id), idx;
    if (id.kind != FN_OTHER && u64map_get(&mt->by_ident, h, &idx) && same_ident(&mt->idents[idx], &id)) {
      mm->functions[i] = (uint32_t)idx;
      continue;
    }
    HPCDB_TRY(hpcdb_add_function(mt->exp, &f, &mm->functions[i]));
    HPCDB_TRY(VEC_RESERVE(&mt->idents, &mt->cap_idents, (uint64_t)mm->functions[i] + 1));
    mt->idents[mm->functions[i]] = id;
    if (id.kind != FN_OTHER && !u64map_get(&mt->by_ident, h, &idx) &&
        u64map_put(&mt->by_ident, h, mm->functions[i]) != 0)
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  return 0;
}

/* A prototype's indices into the sender's tables, mapped. */
static int map_proto(hpcdb_cursor *c, const merge_maps *mm, hpcdb_context *p) {
  HPCDB_TRY(map_index(c, mm->functions, mm->n_functions, &p->function, "context function"));
  HPCDB_TRY(map_index(c, mm->files, mm->n_files, &p->file, "context file"));
  return map_index(c, mm->modules, mm->n_modules, &p->module, "context module");
}

/* A key's indices into the sender's tables, mapped. The kinds carry: an
 * entry point kind, a function, a placeholder code, file << 32 | line,
 * module << 32 | structure scope, nothing (unknown), or a module (+ offset). */
static int map_key(hpcdb_cursor *c, const merge_maps *mm, unify_key *key) {
  uint32_t hi = (uint32_t)(key->offset >> 32), lo = (uint32_t)key->offset;
  switch (key->module) {
  case KEY_ENTRY:
  case KEY_PLACEHOLDER:
  case KEY_UNKNOWN: return 0;
  case KEY_FUNCTION:
    if (key->offset >= mm->n_functions) return bad(c, "key function");
    key->offset = mm->functions[key->offset];
    return 0;
  case KEY_LINE:
    HPCDB_TRY(map_index(c, mm->files, mm->n_files, &hi, "key file"));
    key->offset = (uint64_t)hi << 32 | lo;
    return 0;
  case KEY_LOOP:
    HPCDB_TRY(map_index(c, mm->modules, mm->n_modules, &hi, "key module"));
    key->offset = (uint64_t)hi << 32 | lo;
    return 0;
  default: return map_index(c, mm->modules, mm->n_modules, &key->module, "key module");
  }
}

/* Room for the ids up to `need` and for n more contexts in the table. The
 * head's count is only a promise (a damaged or hostile message may promise
 * billions), so memory follows the contexts that arrive, each part's count
 * bounded by its bytes. */
static int room_for_contexts(unified_tree *t, merge_maps *mm, uint32_t need, uint32_t n) {
  if (need > mm->cap_ids) {
    uint64_t cap = (uint64_t)mm->cap_ids * 2;
    if (cap < need) cap = need;
    if (cap > mm->n_ids) cap = mm->n_ids;
    uint32_t *ids = realloc(mm->ids, cap * sizeof *ids);
    if (!ids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory merging calling-context trees");
    mm->ids = ids;
    mm->cap_ids = (uint32_t)cap;
  }
  return mm->last ? 0 : unify_table_reserve(t, t->count + n);
}

/* A context as sent, its key's and prototype's indices mapped. */
static int read_sent(hpcdb_cursor *c, const merge_maps *mm, uint32_t id, wire_context *s) {
  HPCDB_TRY(wire_read_context(c, id, s));
  HPCDB_TRY(map_key(c, mm, &s->key));
  return s->bits & SENT_HIDDEN ? 0 : map_proto(c, mm, &s->proto);
}

/* Contexts are read this many ahead of the one merged: the table slot of
 * one whose parent is merged already is fetched meanwhile (most lookups
 * miss, in a table much larger than the caches). */
#define READ_AHEAD 8

/* A part's contexts, in the sender's id order (a parent before its children), from *next on. */
static int merge_contexts(hpcdb_cursor *c, unified_tree *t, merge_maps *mm, uint32_t *next) {
  uint32_t n;
  HPCDB_TRY(cursor_le32(c, &n, "context count"));
  if (n > mm->n_ids - *next) return bad(c, "context count");
  HPCDB_TRY(check_count(c, n, CONTEXT_MIN, "context count"));
  HPCDB_TRY(room_for_contexts(t, mm, *next + n, n));
  uint32_t end = *next + n;
  wire_context ahead[READ_AHEAD];
  for (uint32_t id = *next; id < end && id - *next < READ_AHEAD; id++)
    HPCDB_TRY(read_sent(c, mm, id, &ahead[id % READ_AHEAD]));
  for (uint32_t id = *next; id < end; id++) {
    wire_context s = ahead[id % READ_AHEAD];
    if (id + READ_AHEAD < end) {
      wire_context *a = &ahead[(id + READ_AHEAD) % READ_AHEAD];
      HPCDB_TRY(read_sent(c, mm, id + READ_AHEAD, a));
      if (a->parent < id && (!mm->last || mm->ids[a->parent] < mm->first_new))
        unify_prefetch(t, (unify_key){mm->ids[a->parent], a->key.module, a->key.offset});
    }
    s.key.parent = mm->ids[s.parent];
    if (!mm->last) {
      HPCDB_TRY(unify_find_or_add(t, s.key, &s.proto, s.bits & SENT_HIDDEN, &mm->ids[id]));
    } else if (s.key.parent >= mm->first_new || !unify_find(t, s.key, &mm->ids[id])) {
      /* under a context this merge made, a context is new too: no key of the receiver's has that parent */
      HPCDB_TRY(unify_add_unlooked(t, s.key, &s.proto, s.bits & SENT_HIDDEN, &mm->ids[id]));
    }
  }
  *next = end;
  return 0;
}

/* The head: metrics, modules, files and functions merged, the context count. */
static int merge_head(hpcdb_cursor *c, merged_tree *mt, int all_stats, merge_maps *mm) {
  uint32_t magic;
  HPCDB_TRY(cursor_le32(c, &magic, "magic"));
  if (magic != TREE_MAGIC) return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, 0, "magic", "not a tree");
  HPCDB_TRY(cursor_le32(c, &mm->n_metrics, "metric count"));
  HPCDB_TRY(check_count(c, mm->n_metrics, 8, "metric count"));
  HPCDB_TRY(alloc_map(&mm->metrics, mm->n_metrics));
  for (uint32_t i = 0; i < mm->n_metrics; i++) {
    const char *name;
    uint32_t scopes;
    HPCDB_TRY(dist_msg_read_str(c, &name));
    HPCDB_TRY(cursor_le32(c, &scopes, "metric scopes"));
    if (!name) return bad(c, "metric name");
    HPCDB_TRY(analysis_metric_by_name(mt->exp, name, all_stats, scopes, &mm->metrics[i]));
  }
  HPCDB_TRY(merge_paths(c, mt->exp, 0, &mm->modules, &mm->n_modules));
  HPCDB_TRY(merge_paths(c, mt->exp, 1, &mm->files, &mm->n_files));
  HPCDB_TRY(merge_functions(c, mt, mm));
  HPCDB_TRY(cursor_le32(c, &mm->n_ids, "context count"));
  if (mm->n_ids == 0) return bad(c, "context count");
  /* room for the promised contexts at once where that is plausible, so that the table does not double
   * (two tables alive) as the tree grows; past that, memory follows what arrives (room_for_contexts) */
  uint32_t first = mm->n_ids < HEAD_RESERVE ? mm->n_ids : HEAD_RESERVE;
  HPCDB_TRY(alloc_map(&mm->ids, first));
  mm->cap_ids = first;
  mm->ids[0] = 0;
  mm->first_new = mt->t.n_ids;
  return mm->last ? 0 : unify_table_reserve(&mt->t, mt->t.count + first);
}

int tree_merge_parts(merged_tree *mt, int (*get)(void *user, void **data, uint64_t *len), void *user, int all_stats,
                     int last, const char *what, tree_map *map) {
  merge_maps mm = {0};
  mm.last = last;
  uint32_t next = 1;
  int rc = 0, failed_above = 0;
  for (int head = 1;; head = 0) { /* every part is taken, also after a failure, so that the sender ends */
    void *data = NULL;
    uint64_t len = 0;
    int grc = get(user, &data, &len);
    if (grc < 0) {
      free(data);
      return grc;
    }
    if (len == 0) { /* the sender failed and sends nothing more */
      free(data);
      failed_above = 1;
      break;
    }
    int more = ((const uint8_t *)data)[0] != 0;
    if (rc == 0 && mt) {
      hpcdb_cursor c;
      cursor_init(&c, (const uint8_t *)data + 1, len - 1, what);
      c.section = "calling-context tree";
      rc = head ? merge_head(&c, mt, all_stats, &mm) : merge_contexts(&c, &mt->t, &mm, &next);
      if (rc == 0 && c.pos != c.len)
        rc = hpcdb_fail_at(HPCDB_ECORRUPT, c.path, c.section, c.pos, "end", "bytes left over");
      if (rc == 0 && !more && (head || next != mm.n_ids)) rc = hpcdb_fail(HPCDB_EIO, "%s: contexts missing", what);
    }
    free(data);
    if (!more) break;
  }
  if (rc == 0 && !failed_above && mt && map) {
    *map = (tree_map){mm.ids, mm.metrics, mm.n_ids, mm.n_metrics};
    mm.ids = mm.metrics = NULL;
  }
  maps_free(&mm);
  return rc < 0 ? rc : failed_above;
}

/* ---- the run's tree as the ranks but the root need it: no lookups, no experiment tree ---- */

#define VIEW_MAGIC 0x57564448u /* "HDVW" */
enum { VIEW_LEXICAL = 1, VIEW_LOOP = 2, VIEW_HIDDEN = 4 };

int tree_serialize_view(const merged_tree *m, uint32_t cct_contexts, dist_msg *out) {
  const hpcdb_experiment *exp = m->exp;
  dist_msg_u32(out, VIEW_MAGIC);
  put_metrics(exp, out);
  dist_msg_u32(out, exp->n_contexts);
  dist_msg_u32(out, cct_contexts);
  dist_msg_u32(out, m->t.n_ids);
  for (uint32_t id = 1; id < m->t.n_ids && !out->failed; id++) { /* the distance to the parent, the bits */
    const ctx_info *info = &m->t.info[id];
    dist_msg_varint(out, id - info->parent);
    dist_msg_u8(out, (uint8_t)((info->lexical ? VIEW_LEXICAL : 0) | (info->loop ? VIEW_LOOP : 0) |
                               (info->model_index == HPCDB_NONE ? VIEW_HIDDEN : 0)));
  }
  return dist_msg_status(out);
}

int tree_view_read(merged_tree *m, const char *measurements, const uint8_t *data, uint64_t len, int all_stats,
                   uint32_t *n_contexts, uint32_t *cct_contexts) {
  HPCDB_TRY(merged_tree_init(m, measurements));
  hpcdb_cursor c;
  cursor_init(&c, data, len, "the run's tree");
  c.section = "calling-context tree";
  uint32_t magic, n_metrics, n_ids;
  HPCDB_TRY(cursor_le32(&c, &magic, "magic"));
  if (magic != VIEW_MAGIC) return hpcdb_fail_at(HPCDB_ECORRUPT, c.path, c.section, 0, "magic", "not a tree");
  HPCDB_TRY(cursor_le32(&c, &n_metrics, "metric count"));
  HPCDB_TRY(check_count(&c, n_metrics, 8, "metric count"));
  for (uint32_t i = 0; i < n_metrics; i++) {
    const char *name;
    uint32_t scopes, index;
    HPCDB_TRY(dist_msg_read_str(&c, &name));
    HPCDB_TRY(cursor_le32(&c, &scopes, "metric scopes"));
    if (!name) return bad(&c, "metric name");
    HPCDB_TRY(analysis_metric_by_name(m->exp, name, all_stats, scopes, &index));
    if (index != i) return bad(&c, "metric name");
  }
  HPCDB_TRY(cursor_le32(&c, n_contexts, "contexts"));
  HPCDB_TRY(cursor_le32(&c, cct_contexts, "cct.db contexts"));
  HPCDB_TRY(cursor_le32(&c, &n_ids, "context count"));
  if (n_ids == 0) return bad(&c, "context count");
  HPCDB_TRY(check_count(&c, n_ids - 1, 2, "context count"));
  HPCDB_TRY(VEC_RESERVE(&m->t.info, &m->t.cap_ids, n_ids));
  for (uint32_t id = 1; id < n_ids; id++) {
    uint64_t up;
    uint8_t flags;
    HPCDB_TRY(wire_read_number(&c, id, &up, "context parent"));
    HPCDB_TRY(cursor_u8(&c, &flags, "context bits"));
    if (up == 0) return bad(&c, "parent");
    uint32_t parent = id - (uint32_t)up;
    m->t.info[id] = (ctx_info){parent, HPCDB_NONE, flags & VIEW_HIDDEN ? m->t.info[parent].visible : id,
                               (uint8_t)(flags & VIEW_LEXICAL ? 1 : 0), (uint8_t)(flags & VIEW_LOOP ? 1 : 0)};
  }
  m->t.n_ids = n_ids;
  if (c.pos != c.len) return hpcdb_fail_at(HPCDB_ECORRUPT, c.path, c.section, c.pos, "end", "bytes left over");
  return 0;
}
