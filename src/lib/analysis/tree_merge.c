/* Serializing a unified tree and merging one into another (tree_merge.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/tree_merge.h"
#include "analysis/structure_map.h"
#include "common/error.h"
#include "common/vec.h"

#define TREE_MAGIC 0x52544448u /* "HDTR" */

static void put_context(dist_msg *m, const hpcdb_context *c) {
  msg_u8(m, c->kind);
  msg_u8(m, c->relation);
  msg_u8(m, c->lexical_type);
  msg_u8(m, c->flags);
  msg_u16(m, c->propagation);
  msg_u16(m, c->entry_point);
  msg_str(m, c->name);
  msg_u32(m, c->function);
  msg_u32(m, c->file);
  msg_u32(m, c->line);
  msg_u32(m, c->module);
  msg_u64(m, c->offset);
}

static void put_ident(dist_msg *m, const fn_ident *id) {
  msg_u32(m, id->kind);
  msg_u32(m, id->module);
  msg_u64(m, id->id);
}

static int serialize(const unified_tree *t, const fn_ident *idents, dist_msg *m) {
  const hpcdb_experiment *exp = t->exp;
  unify_key *keys = calloc(t->n_ids ? t->n_ids : 1, sizeof *keys);
  if (!keys) return hpcdb_fail(HPCDB_ENOMEM, "out of memory serializing the calling-context tree");
  for (uint64_t i = 0; i < t->cap; i++) { /* each id's own key: aliases (a frame met before) have another parent */
    const unify_slot *sl = &t->slots[i];
    if (sl->id_plus1 && sl->key.parent == t->info[sl->id_plus1 - 1].parent) keys[sl->id_plus1 - 1] = sl->key;
  }
  msg_u32(m, TREE_MAGIC);
  msg_u32(m, exp->n_metrics);
  for (uint32_t i = 0; i < exp->n_metrics; i++) {
    msg_str(m, exp->metrics[i].name);
    msg_u32(m, analysis_metric_scopes(&exp->metrics[i]));
  }
  msg_u32(m, exp->n_modules);
  for (uint32_t i = 0; i < exp->n_modules; i++) {
    msg_str(m, exp->modules[i].path);
    msg_u32(m, exp->modules[i].flags);
  }
  msg_u32(m, exp->n_files);
  for (uint32_t i = 0; i < exp->n_files; i++) {
    msg_str(m, exp->files[i].path);
    msg_u32(m, exp->files[i].flags);
  }
  msg_u32(m, exp->n_functions);
  for (uint32_t i = 0; i < exp->n_functions; i++) {
    const hpcdb_function *f = &exp->functions[i];
    put_ident(m, &idents[i]);
    msg_str(m, f->name);
    msg_u32(m, f->module);
    msg_u64(m, f->offset);
    msg_u32(m, f->file);
    msg_u32(m, f->line);
    msg_u32(m, f->flags);
  }
  msg_u32(m, t->n_ids);
  for (uint32_t id = 1; id < t->n_ids; id++) {
    const ctx_info *info = &t->info[id];
    int hidden = info->model_index == HPCDB_NONE;
    msg_u32(m, keys[id].parent);
    msg_u32(m, keys[id].module);
    msg_u64(m, keys[id].offset);
    msg_u8(m, (uint8_t)hidden);
    msg_u8(m, info->lexical);
    msg_u8(m, info->loop);
    if (!hidden) put_context(m, &exp->contexts[info->model_index]);
  }
  free(keys);
  return msg_status(m);
}

static void scope_function(void *user, uint32_t module, uint32_t scope, uint32_t function) {
  ((fn_ident *)user)[function] = (fn_ident){FN_SCOPE, module, scope};
}

/* A unified tree's functions' identities, from its lookups. */
int tree_serialize_unified(const unified_tree *t, dist_msg *out) {
  uint32_t n = t->exp->n_functions;
  fn_ident *idents = malloc((n ? n : 1) * sizeof *idents);
  if (!idents) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < n; i++) idents[i] = (fn_ident){FN_OTHER, HPCDB_NONE, i};
  for (uint64_t i = 0; i < t->functions.cap; i++)
    if (t->functions.used[i] && t->functions.vals[i] < n)
      idents[t->functions.vals[i]] = (fn_ident){FN_SYMBOL, (uint32_t)(t->functions.keys[i] >> 32),
                                                t->functions.keys[i] & 0xffffffffu};
  for (uint64_t i = 0; i < t->placeholders.cap; i++)
    if (t->placeholders.used[i] && t->placeholders.vals[i] < n)
      idents[t->placeholders.vals[i]] = (fn_ident){FN_PLACEHOLDER, HPCDB_NONE, t->placeholders.keys[i]};
  structure_map_functions(t->structure, scope_function, idents);
  int rc = serialize(t, idents, out);
  free(idents);
  return rc;
}

int tree_serialize_merged(const merged_tree *m, dist_msg *out) { return serialize(&m->t, m->idents, out); }

int merged_tree_init(merged_tree *m, const char *measurements) {
  memset(m, 0, sizeof *m);
  HPCDB_TRY(hpcdb_experiment_new(&m->exp));
  HPCDB_TRY(unified_tree_init(&m->t, m->exp, measurements));
  m->exp->format = "hpctoolkit-v4";
  m->exp->version_major = 4;
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

static int same_ident(const fn_ident *a, const fn_ident *b) {
  return a->kind == b->kind && a->module == b->module && a->id == b->id;
}

/* Index maps from the sender's tables to the receiver's. */
typedef struct merge_maps {
  uint32_t *modules, *files, *functions, *ids, *metrics;
  uint32_t n_modules, n_files, n_functions, n_ids, n_metrics;
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
    HPCDB_TRY(msg_read_str(c, &path));
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
    HPCDB_TRY(msg_read_str(c, &f.name));
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
    if (id.kind != FN_OTHER && !u64map_get(&mt->by_ident, h, &idx) && u64map_put(&mt->by_ident, h, mm->functions[i]) != 0)
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  return 0;
}

static int read_context(hpcdb_cursor *c, const merge_maps *mm, hpcdb_context *p) {
  HPCDB_TRY(cursor_u8(c, &p->kind, "kind"));
  HPCDB_TRY(cursor_u8(c, &p->relation, "relation"));
  HPCDB_TRY(cursor_u8(c, &p->lexical_type, "lexical type"));
  HPCDB_TRY(cursor_u8(c, &p->flags, "flags"));
  HPCDB_TRY(cursor_le16(c, &p->propagation, "propagation"));
  HPCDB_TRY(cursor_le16(c, &p->entry_point, "entry point"));
  HPCDB_TRY(msg_read_str(c, &p->name));
  HPCDB_TRY(cursor_le32(c, &p->function, "function"));
  HPCDB_TRY(cursor_le32(c, &p->file, "file"));
  HPCDB_TRY(cursor_le32(c, &p->line, "line"));
  HPCDB_TRY(cursor_le32(c, &p->module, "module"));
  HPCDB_TRY(cursor_le64(c, &p->offset, "offset"));
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
  case KEY_UNKNOWN:
    return 0;
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
  default:
    return map_index(c, mm->modules, mm->n_modules, &key->module, "key module");
  }
}

/* Contexts in the sender's id order (a parent before its children). */
static int merge_contexts(hpcdb_cursor *c, unified_tree *t, merge_maps *mm) {
  HPCDB_TRY(cursor_le32(c, &mm->n_ids, "context count"));
  if (mm->n_ids == 0) return bad(c, "context count");
  HPCDB_TRY(check_count(c, mm->n_ids - 1, 19, "context count"));
  HPCDB_TRY(alloc_map(&mm->ids, mm->n_ids));
  mm->ids[0] = 0;
  for (uint32_t id = 1; id < mm->n_ids; id++) {
    unify_key key;
    uint8_t hidden, lexical, loop;
    HPCDB_TRY(cursor_le32(c, &key.parent, "parent"));
    HPCDB_TRY(cursor_le32(c, &key.module, "key module"));
    HPCDB_TRY(cursor_le64(c, &key.offset, "key offset"));
    HPCDB_TRY(cursor_u8(c, &hidden, "hidden"));
    HPCDB_TRY(cursor_u8(c, &lexical, "lexical"));
    HPCDB_TRY(cursor_u8(c, &loop, "loop"));
    if (key.parent >= id) return bad(c, "parent");
    key.parent = mm->ids[key.parent];
    HPCDB_TRY(map_key(c, mm, &key));
    hpcdb_context proto = {0};
    if (hidden) {
      proto.propagation = lexical;
      proto.lexical_type = loop ? HPCDB_LEX_LOOP : HPCDB_LEX_INSTRUCTION;
    } else {
      HPCDB_TRY(read_context(c, mm, &proto));
    }
    HPCDB_TRY(unify_find_or_add(t, key, &proto, hidden, &mm->ids[id]));
  }
  return 0;
}

static int merge(hpcdb_cursor *c, merged_tree *mt, int all_stats, merge_maps *mm) {
  uint32_t magic;
  HPCDB_TRY(cursor_le32(c, &magic, "magic"));
  if (magic != TREE_MAGIC) return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, 0, "magic", "not a tree");
  HPCDB_TRY(cursor_le32(c, &mm->n_metrics, "metric count"));
  HPCDB_TRY(check_count(c, mm->n_metrics, 8, "metric count"));
  HPCDB_TRY(alloc_map(&mm->metrics, mm->n_metrics));
  for (uint32_t i = 0; i < mm->n_metrics; i++) {
    const char *name;
    uint32_t scopes;
    HPCDB_TRY(msg_read_str(c, &name));
    HPCDB_TRY(cursor_le32(c, &scopes, "metric scopes"));
    if (!name) return bad(c, "metric name");
    HPCDB_TRY(analysis_metric_by_name(mt->exp, name, all_stats, scopes, &mm->metrics[i]));
  }
  HPCDB_TRY(merge_paths(c, mt->exp, 0, &mm->modules, &mm->n_modules));
  HPCDB_TRY(merge_paths(c, mt->exp, 1, &mm->files, &mm->n_files));
  HPCDB_TRY(merge_functions(c, mt, mm));
  HPCDB_TRY(merge_contexts(c, &mt->t, mm));
  if (c->pos != c->len) return hpcdb_fail_at(HPCDB_ECORRUPT, c->path, c->section, c->pos, "end", "bytes left over");
  return 0;
}

int tree_merge(merged_tree *mt, const uint8_t *data, uint64_t len, int all_stats, const char *what, tree_map *map) {
  hpcdb_cursor c;
  cursor_init(&c, data, len, what);
  c.section = "calling-context tree";
  merge_maps mm = {0};
  int rc = merge(&c, mt, all_stats, &mm);
  if (rc == 0 && map) {
    *map = (tree_map){mm.ids, mm.metrics, mm.n_ids, mm.n_metrics};
    mm.ids = mm.metrics = NULL;
  }
  maps_free(&mm);
  return rc;
}
