/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb_dump_json: canonical JSON. No raw ids: strings and references are
 * resolved, children are sorted by what they are (their label), profiles by
 * identity, metrics by name; each context carries its values per profile.
 * Two experiments that are the same give the same text, whatever ids their
 * writers chose. Values at ids no tree lists go, per profile and metric, into
 * "outside_tree" totals (their ids are not stable either).
 * From a database with cct.db (hpcdb_dump_json_db) the thread profiles'
 * values are read per context from cct.db, which holds them in the order this
 * text wants (by context), instead of from the model: the same text without
 * all values in memory. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "core/cct_values.h"
#include "core/json_out.h"
#include "core/paths.h"
#include "hpcdb/common.h"
#include "hpcdb/formats.h"
#include "hpcdb/hpctk4.h"
#include "hpcdb/model.h"
#include "model/model_build.h"

typedef struct vref { /* one context's values in one profile */
  uint32_t profile;
  uint64_t lo, hi;
} vref;

typedef struct jdump {
  textout *o;
  const hpcdb_experiment *exp;
  char **metric_key; /* per metric id: "name|scope" or "name|scope|combine(formula)"; per kind */
  char **stat_key;
  uint32_t *key_rank;   /* per metric id, then per stat id (+ 65536): the key's place in sorted order */
  char **key_json;      /* the same: the key as a JSON string and a colon, made once */
  uint32_t *key_len;    /* their lengths */
  char **identity;      /* per profile */
  char **identity_json; /* per profile: the identity as a JSON string and a colon */
  uint32_t *identity_len;
  uint32_t *profile_order;
  uint32_t *place;     /* per profile: its place in profile_order */
  const hpcdb_db *db;  /* the thread profiles' values from cct.db, or NULL: all from the model */
  cct_values *cct;     /* with db: the values of the context being written */
  vref *refs;          /* grouped by context index (with db: the summary profiles' only) */
  uint64_t *ref_start; /* per context index + 1 */
  char **labels;       /* per context index */
  uint8_t *kinds[2];   /* integer metrics' value ids (thread, summary profiles): exact integer literals */
} jdump;

static const jdump *sort_ctx;

static int by_label(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  int c = strcmp(sort_ctx->labels[x], sort_ctx->labels[y]);
  return c ? c : (x > y) - (x < y);
}

static int by_identity(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  int c = strcmp(sort_ctx->identity[x], sort_ctx->identity[y]);
  return c ? c : (x > y) - (x < y);
}

static char *dup_text(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int build_keys(jdump *j) {
  const hpcdb_experiment *e = j->exp;
  j->metric_key = calloc(65536, sizeof *j->metric_key);
  j->stat_key = calloc(65536, sizeof *j->stat_key);
  if (!j->metric_key || !j->stat_key) return HPCDB_ENOMEM;
  char buf[1024];
  for (uint32_t m = 0; m < e->n_metrics; m++) {
    const hpcdb_metric *mt = &e->metrics[m];
    for (uint32_t k = 0; k < mt->n_instances; k++) {
      snprintf(buf, sizeof buf, "%s|%s", mt->name ? mt->name : "", e->scopes[mt->instances[k].scope].name);
      free(j->metric_key[mt->instances[k].prop_metric_id]);
      if (!(j->metric_key[mt->instances[k].prop_metric_id] = dup_text(buf))) return HPCDB_ENOMEM;
    }
    for (uint32_t k = 0; k < mt->n_summaries; k++) {
      const hpcdb_summary *s = &mt->summaries[k];
      snprintf(buf, sizeof buf, "%s|%s|%s(%s)", mt->name ? mt->name : "", e->scopes[s->scope].name,
               s->combine == 0   ? "sum"
               : s->combine == 1 ? "min"
               : s->combine == 2 ? "max"
                                 : "combine?",
               s->formula ? s->formula : "");
      free(j->stat_key[s->stat_metric_id]);
      if (!(j->stat_key[s->stat_metric_id] = dup_text(buf))) return HPCDB_ENOMEM;
    }
  }
  return 0;
}

static const jdump *rank_ctx;

static int by_key(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  const char *kx = x < 65536 ? rank_ctx->metric_key[x] : rank_ctx->stat_key[x - 65536];
  const char *ky = y < 65536 ? rank_ctx->metric_key[y] : rank_ctx->stat_key[y - 65536];
  int c = strcmp(kx ? kx : "?", ky ? ky : "?");
  return c ? c : (x > y) - (x < y);
}

/* s as a JSON string and a colon, in a new string; its length in *len. */
static int json_key(const char *s, char **out, uint32_t *len) {
  size_t n = 0;
  FILE *m = open_memstream(out, &n);
  if (!m) return HPCDB_ENOMEM;
  json_string(m, s);
  fputc(':', m);
  if (fclose(m) != 0) return HPCDB_ENOMEM;
  *len = (uint32_t)n;
  return 0;
}

/* Value keys compare by rank: one sort of all keys instead of strcmp per value. */
static int build_ranks(jdump *j) {
  uint32_t *ids = malloc(2 * 65536 * sizeof *ids);
  j->key_rank = malloc(2 * 65536 * sizeof *j->key_rank);
  if (!ids || !j->key_rank) {
    free(ids);
    return HPCDB_ENOMEM;
  }
  for (uint32_t i = 0; i < 2 * 65536; i++) ids[i] = i;
  rank_ctx = j;
  qsort(ids, 2 * 65536, sizeof *ids, by_key);
  for (uint32_t r = 0; r < 2 * 65536; r++) j->key_rank[ids[r]] = r;
  free(ids);
  j->key_json = calloc(2 * 65536, sizeof *j->key_json);
  j->key_len = calloc(2 * 65536, sizeof *j->key_len);
  if (!j->key_json || !j->key_len) return HPCDB_ENOMEM;
  for (uint32_t i = 0; i < 2 * 65536; i++) {
    const char *k = i < 65536 ? j->metric_key[i] : j->stat_key[i - 65536];
    if (k) HPCDB_TRY(json_key(k, &j->key_json[i], &j->key_len[i]));
  }
  return 0;
}

/* Whether profile p's values are the model's (else cct.db's). */
static int from_model(const jdump *j, uint32_t p) {
  return !j->db || (j->exp->profiles[p].flags & HPCDB_PROFILE_SUMMARY);
}

/* A profile's entry for a context with no values says nothing, and cct.db
 * cannot hold one: the text leaves it out, whichever file the values come
 * from. */
static int empty_slice(const hpcdb_profile *p, uint32_t k) { return p->ctx_starts[k] == p->ctx_starts[k + 1]; }

static int build_profiles(jdump *j) {
  const hpcdb_experiment *e = j->exp;
  if (profile_identities(e, &j->identity) < 0) return HPCDB_ENOMEM;
  j->identity_json = calloc(e->n_profiles + 1, sizeof *j->identity_json);
  j->identity_len = calloc(e->n_profiles + 1, sizeof *j->identity_len);
  if (!j->identity_json || !j->identity_len) return HPCDB_ENOMEM;
  for (uint32_t p = 0; p < e->n_profiles; p++)
    HPCDB_TRY(json_key(j->identity[p], &j->identity_json[p], &j->identity_len[p]));
  j->profile_order = malloc((e->n_profiles + 1) * sizeof *j->profile_order);
  if (!j->profile_order) return HPCDB_ENOMEM;
  for (uint32_t p = 0; p < e->n_profiles; p++) j->profile_order[p] = p;
  sort_ctx = j;
  qsort(j->profile_order, e->n_profiles, sizeof *j->profile_order, by_identity);
  j->place = malloc((e->n_profiles + 1) * sizeof *j->place);
  if (!j->place) return HPCDB_ENOMEM;
  for (uint32_t i = 0; i < e->n_profiles; i++) j->place[j->profile_order[i]] = i;
  /* the values of each context, grouped by context index */
  uint64_t n = 0;
  j->ref_start = calloc((size_t)e->n_contexts + 2, sizeof *j->ref_start);
  if (!j->ref_start) return HPCDB_ENOMEM;
  for (uint32_t p = 0; p < e->n_profiles; p++)
    for (uint32_t k = 0; k < e->profiles[p].n_ctxs && from_model(j, p); k++) {
      uint32_t c = hpcdb_find_context(e, e->profiles[p].ctx_ids[k]);
      if (c != HPCDB_NONE && !empty_slice(&e->profiles[p], k)) {
        j->ref_start[c + 1]++;
        n++;
      }
    }
  for (uint32_t c = 0; c < e->n_contexts; c++) j->ref_start[c + 1] += j->ref_start[c];
  j->refs = malloc((n ? n : 1) * sizeof *j->refs);
  uint64_t *fill = malloc(((size_t)e->n_contexts + 1) * sizeof *fill);
  if (!j->refs || !fill) {
    free(fill);
    return HPCDB_ENOMEM;
  }
  memcpy(fill, j->ref_start, (size_t)e->n_contexts * sizeof *fill);
  for (uint32_t i = 0; i < e->n_profiles; i++) { /* in identity order, so refs are sorted too */
    uint32_t p = j->profile_order[i];
    const hpcdb_profile *pr = &e->profiles[p];
    for (uint32_t k = 0; k < pr->n_ctxs && from_model(j, p); k++) {
      uint32_t c = hpcdb_find_context(e, pr->ctx_ids[k]);
      if (c != HPCDB_NONE && !empty_slice(pr, k))
        j->refs[fill[c]++] = (vref){p, pr->ctx_starts[k], pr->ctx_starts[k + 1]};
    }
  }
  free(fill);
  return 0;
}

static const char *value_key(const jdump *j, const hpcdb_profile *p, uint16_t id) {
  const char *k = (p->flags & HPCDB_PROFILE_SUMMARY) ? j->stat_key[id] : j->metric_key[id];
  return k ? k : "?";
}

/* "metric key":value, for the key at index key of key_json. */
static void write_keyed(const jdump *j, uint32_t key, double value) {
  if (j->key_json[key]) textout_put(j->o, j->key_json[key], j->key_len[key]);
  else textout_put(j->o, "\"?\":", 4);
  json_text_number(j->o, value);
}

/* The same for value v of profile p, an integer metric's as its exact
 * integer (a JSON number literal of all its digits). */
static void write_keyed_value(const jdump *j, uint32_t key, uint32_t p, uint64_t v) {
  const hpcdb_profile *pr = &j->exp->profiles[p];
  uint8_t kind = j->kinds[key >= 65536][key & 0xffff];
  if (!kind) return write_keyed(j, key, pr->values[v]);
  if (j->key_json[key]) textout_put(j->o, j->key_json[key], j->key_len[key]);
  else textout_put(j->o, "\"?\":", 4);
  j->o->len += model_value_text(textout_room(j->o, DTOA_BUF), model_integers(j->exp, p), pr->values[v], v, kind);
}

/* The values of one slice as {"metric key": value}, keys sorted. */
static void write_slice(const jdump *j, uint32_t profile, uint64_t lo, uint64_t hi) {
  const hpcdb_profile *p = &j->exp->profiles[profile];
  typedef struct item {
    uint32_t rank;
    uint64_t v;
  } item;
  uint64_t n = hi - lo;
  item small[64], *it = n <= 64 ? small : malloc(n * sizeof *it);
  if (!it) return;
  uint32_t base = (p->flags & HPCDB_PROFILE_SUMMARY) ? 65536u : 0;
  for (uint64_t i = 0; i < n; i++) it[i] = (item){j->key_rank[base + p->metric_ids[lo + i]], lo + i};
  for (uint64_t i = 1; i < n; i++) /* slices are short (and mostly in order): insertion sort by the keys' ranks */
    for (uint64_t k = i; k > 0 && it[k - 1].rank > it[k].rank; k--) {
      item t = it[k];
      it[k] = it[k - 1];
      it[k - 1] = t;
    }
  textout_char(j->o, '{');
  for (uint64_t i = 0; i < n; i++) {
    if (i) textout_char(j->o, ',');
    write_keyed_value(j, base + p->metric_ids[it[i].v], profile, it[i].v);
  }
  textout_char(j->o, '}');
  if (it != small) free(it);
}

static int write_context(const jdump *j, uint32_t c, unsigned depth);

static int write_children(const jdump *j, uint32_t c, unsigned depth) {
  const hpcdb_experiment *e = j->exp;
  uint32_t n = 0;
  for (uint32_t k = e->contexts[c].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) n++;
  uint32_t *kids = malloc((n ? n : 1) * sizeof *kids);
  if (!kids) return hpcdb_fail(HPCDB_ENOMEM, "out of memory dumping JSON");
  n = 0;
  for (uint32_t k = e->contexts[c].first_child; k != HPCDB_NONE; k = e->contexts[k].next_sibling) kids[n++] = k;
  sort_ctx = j;
  qsort(kids, n, sizeof *kids, by_label);
  textout_str(j->o, "\"children\":[");
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    if (i) textout_char(j->o, ',');
    rc = write_context(j, kids[i], depth + 1);
  }
  textout_char(j->o, ']');
  free(kids);
  return rc;
}

/* One profile's values at a context from cct.db (run[0, n), all of one
 * place, in cct.db's metric order) as write_slice writes a slice. */
static int write_run(const jdump *j, cct_value *run, uint64_t n, uint32_t c) {
  for (uint64_t i = 1; i < n; i++) /* as write_slice: insertion sort by the keys' ranks */
    for (uint64_t k = i; k > 0 && j->key_rank[run[k - 1].metric] >= j->key_rank[run[k].metric]; k--) {
      if (run[k - 1].metric == run[k].metric)
        return hpcdb_fail(HPCDB_ECORRUPT, "%s: values of context %u: sorted-profile: profIndex %u twice for metric %u",
                          j->cct->path, j->exp->contexts[c].id, j->profile_order[run[k].place], run[k].metric);
      cct_value t = run[k];
      run[k] = run[k - 1];
      run[k - 1] = t;
    }
  textout_char(j->o, '{');
  for (uint64_t i = 0; i < n; i++) {
    if (i) textout_char(j->o, ',');
    write_keyed(j, run[i].metric, run[i].value);
  }
  textout_char(j->o, '}');
  return 0;
}

/* Context c's values with db: the summary profiles' slices from the model and
 * the others' from cct.db, merged in profile order. */
static int write_streamed_values(const jdump *j, uint32_t c) {
  const hpcdb_experiment *e = j->exp;
  cct_values *cv = j->cct;
  cv->n = 0;
  if (hpcdb_find_context(e, e->contexts[c].id) == c) /* as the model: values at an id go to its first context */
    HPCDB_TRY(cct_values_read(cv, e->contexts[c].id));
  uint64_t r = j->ref_start[c], i = 0;
  while (r < j->ref_start[c + 1] || i < cv->n) {
    if (r > j->ref_start[c] || i > 0) textout_char(j->o, ',');
    uint32_t model_place = r < j->ref_start[c + 1] ? j->place[j->refs[r].profile] : UINT32_MAX;
    if (i < cv->n && cv->v[i].place < model_place) {
      uint64_t end = i + 1;
      while (end < cv->n && cv->v[end].place == cv->v[i].place) end++;
      uint32_t p = j->profile_order[cv->v[i].place];
      textout_put(j->o, j->identity_json[p], j->identity_len[p]);
      HPCDB_TRY(write_run(j, cv->v + i, end - i, c));
      i = end;
    } else {
      textout_put(j->o, j->identity_json[j->refs[r].profile], j->identity_len[j->refs[r].profile]);
      write_slice(j, j->refs[r].profile, j->refs[r].lo, j->refs[r].hi);
      r++;
    }
  }
  return 0;
}

/* Slices asked for from memory before they are written. */
enum { PREFETCH_AHEAD = 4 };

/* Recursion depth is the tree's depth; the model was built from a file whose
 * reader bounded it, and dumps are for people, so this stays simple. */
static int write_context(const jdump *j, uint32_t c, unsigned depth) {
  const hpcdb_experiment *e = j->exp;
  textout_str(j->o, "\n{\"context\":");
  json_text_string(j->o, j->labels[c]);
  textout_str(j->o, ",\"values\":{");
  if (j->db) HPCDB_TRY(write_streamed_values(j, c));
  for (uint64_t r = j->ref_start[c]; r < j->ref_start[c + 1] && !j->db; r++) {
    if (r + PREFETCH_AHEAD < j->ref_start[c + 1]) { /* each slice is in another profile's arrays: cache misses */
      const vref *next = &j->refs[r + PREFETCH_AHEAD];
      __builtin_prefetch(&e->profiles[next->profile].metric_ids[next->lo]);
      __builtin_prefetch(&e->profiles[next->profile].values[next->lo]);
    }
    if (r > j->ref_start[c]) textout_char(j->o, ',');
    textout_put(j->o, j->identity_json[j->refs[r].profile], j->identity_len[j->refs[r].profile]);
    write_slice(j, j->refs[r].profile, j->refs[r].lo, j->refs[r].hi);
  }
  textout_str(j->o, "},");
  HPCDB_TRY(write_children(j, c, depth));
  textout_char(j->o, '}');
  return 0;
}

static void write_metrics(const jdump *j) {
  const hpcdb_experiment *e = j->exp;
  textout_str(j->o, ",\n\"metrics\":[");
  int first = 1;
  for (int stat = 0; stat < 2; stat++)
    for (uint32_t id = 0; id < 65536; id++) {
      const char *k = stat ? j->stat_key[id] : j->metric_key[id];
      if (!k) continue;
      if (!first) textout_char(j->o, ',');
      first = 0;
      json_text_string(j->o, k);
    }
  textout_char(j->o, ']');
  (void)e;
}

/* With db: the thread profiles' values at ids no tree lists, from cct.db, into
 * j->cct (by place; a profile's in ascending id order, as profile.db's). */
static int read_outside_tree(const jdump *j) {
  const hpcdb_experiment *e = j->exp;
  j->cct->n = 0;
  for (uint32_t id = 0; id < hpcdb_db_context_count(j->db); id++)
    if (hpcdb_find_context(e, id) == HPCDB_NONE) HPCDB_TRY(cct_values_add(j->cct, id));
  return cct_values_sort(j->cct);
}

static int write_outside_tree(const jdump *j) {
  const hpcdb_experiment *e = j->exp;
  if (j->db) HPCDB_TRY(read_outside_tree(j));
  textout_str(j->o, ",\n\"outside_tree\":{");
  int first_p = 1;
  uint64_t next = 0; /* with db: the next value in j->cct */
  for (uint32_t i = 0; i < e->n_profiles; i++) {
    uint32_t p = j->profile_order[i];
    const hpcdb_profile *pr = &e->profiles[p];
    double *tot = calloc(65536, sizeof *tot);
    uint8_t *seen = calloc(65536, 1);
    if (!tot || !seen) {
      free(tot);
      free(seen);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory dumping JSON");
    }
    int any = 0;
    for (uint32_t k = 0; k < pr->n_ctxs && from_model(j, p); k++)
      if (hpcdb_find_context(e, pr->ctx_ids[k]) == HPCDB_NONE)
        for (uint64_t v = pr->ctx_starts[k]; v < pr->ctx_starts[k + 1]; v++) {
          tot[pr->metric_ids[v]] += pr->values[v];
          seen[pr->metric_ids[v]] = 1;
          any = 1;
        }
    for (; j->db && next < j->cct->n && j->cct->v[next].place == i; next++) {
      tot[j->cct->v[next].metric] += j->cct->v[next].value;
      seen[j->cct->v[next].metric] = 1;
      any = 1;
    }
    if (any) {
      if (!first_p) textout_char(j->o, ',');
      first_p = 0;
      json_text_string(j->o, j->identity[p]);
      textout_str(j->o, ":{");
      int first = 1;
      for (uint32_t id = 0; id < 65536; id++)
        if (seen[id]) {
          if (!first) textout_char(j->o, ',');
          first = 0;
          json_text_string(j->o, value_key(j, pr, (uint16_t)id));
          textout_char(j->o, ':');
          json_text_number(j->o, tot[id]);
        }
      textout_char(j->o, '}');
    }
    free(tot);
    free(seen);
  }
  textout_char(j->o, '}');
  return 0;
}

static void write_traces(const jdump *j) {
  const hpcdb_experiment *e = j->exp;
  textout_str(j->o, ",\n\"traces\":{");
  int first = 1;
  for (uint32_t i = 0; i < e->n_profiles; i++) {
    uint32_t p = j->profile_order[i];
    for (uint32_t t = 0; t < e->n_traces; t++) {
      const hpcdb_trace *tr = &e->traces[t];
      if (tr->profile != p) continue;
      if (!first) textout_char(j->o, ',');
      first = 0;
      json_text_string(j->o, j->identity[p]);
      textout_str(j->o, ":[");
      char path[2048];
      for (uint64_t k = 0; k < tr->n; k++) {
        uint32_t c = hpcdb_find_context(e, tr->ctx_ids[k]);
        if (c == HPCDB_NONE) snprintf(path, sizeof path, "<outside the tree>");
        else context_path(e, c, path, sizeof path);
        textout_str(j->o, k ? ",\n[" : "\n[");
        textout_u64(j->o, tr->timestamps[k]);
        textout_char(j->o, ',');
        json_text_string(j->o, c == 0 ? "<global>" : path);
        textout_char(j->o, ']');
      }
      textout_char(j->o, ']');
    }
  }
  textout_char(j->o, '}');
}

static void jdump_free(jdump *j) {
  for (uint32_t i = 0; j->metric_key && i < 65536; i++) {
    free(j->metric_key[i]);
    free(j->stat_key[i]);
  }
  free(j->metric_key);
  free(j->stat_key);
  free(j->key_rank);
  free(j->kinds[0]);
  free(j->kinds[1]);
  for (uint32_t i = 0; j->key_json && i < 2 * 65536; i++) free(j->key_json[i]);
  free(j->key_json);
  free(j->key_len);
  for (uint32_t p = 0; j->identity_json && p < j->exp->n_profiles; p++) free(j->identity_json[p]);
  free(j->identity_json);
  free(j->identity_len);
  identities_free(j->identity, j->exp->n_profiles);
  free(j->profile_order);
  free(j->place);
  free(j->refs);
  free(j->ref_start);
  for (uint32_t c = 0; j->labels && c < j->exp->n_contexts; c++) free(j->labels[c]);
  free(j->labels);
}

/* The thread profiles' places for cct_values (cct.db names no summary profile). */
static uint32_t *thread_places(const jdump *j) {
  uint32_t *place = malloc((j->exp->n_profiles + 1) * sizeof *place);
  for (uint32_t p = 0; place && p < j->exp->n_profiles; p++) place[p] = from_model(j, p) ? CCT_NOT_HERE : j->place[p];
  return place;
}

static int dump(FILE *out, const hpcdb_experiment *exp, const hpcdb_db *db) {
  textout o;
  HPCDB_TRY(textout_open(&o, out));
  jdump j = {0};
  j.o = &o;
  j.exp = exp;
  j.db = db;
  cct_values cct;
  uint32_t *cct_place = NULL;
  char cct_path[4096];
  snprintf(cct_path, sizeof cct_path, "%s/cct.db", exp->origin ? exp->origin : ".");
  int rc = build_keys(&j);
  if (rc == 0) rc = build_ranks(&j);
  if (rc == 0 && (!(j.kinds[0] = model_integer_kinds(exp, 0)) || !(j.kinds[1] = model_integer_kinds(exp, 1))))
    rc = HPCDB_ENOMEM;
  if (rc == 0) rc = build_profiles(&j);
  if (rc == 0 && !(j.labels = calloc(exp->n_contexts, sizeof *j.labels))) rc = HPCDB_ENOMEM;
  char label[2048];
  for (uint32_t c = 0; rc == 0 && c < exp->n_contexts; c++) {
    context_label(exp, &exp->contexts[c], label, sizeof label);
    if (!(j.labels[c] = dup_text(label))) rc = HPCDB_ENOMEM;
  }
  if (rc == 0 && db && !(cct_place = thread_places(&j))) rc = HPCDB_ENOMEM;
  if (rc < 0) {
    jdump_free(&j);
    textout_close(&o);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory dumping JSON");
  }
  cct_values_init(&cct, db, cct_path, cct_place, exp->n_profiles);
  j.cct = &cct;
  textout_str(&o, "{\"format\":");
  json_text_string(&o, exp->format);
  textout_str(&o, ",\"version\":\"");
  textout_u64(&o, exp->version_major);
  textout_char(&o, '.');
  textout_u64(&o, exp->version_minor);
  textout_str(&o, "\",\"title\":");
  json_text_string(&o, exp->title);
  write_metrics(&j);
  textout_str(&o, ",\n\"profiles\":[");
  for (uint32_t i = 0; i < exp->n_profiles; i++) {
    if (i) textout_char(&o, ',');
    json_text_string(&o, j.identity[j.profile_order[i]]);
  }
  textout_str(&o, "],\n\"tree\":");
  rc = write_context(&j, 0, 0);
  if (rc == 0) rc = write_outside_tree(&j);
  if (rc == 0) write_traces(&j);
  textout_str(&o, "}\n");
  cct_values_free(&cct);
  free(cct_place);
  jdump_free(&j);
  int rc_close = textout_close(&o);
  return rc < 0 ? rc : rc_close;
}

int hpcdb_dump_json(FILE *out, const hpcdb_experiment *exp) { return dump(out, exp, NULL); }

int hpcdb_dump_json_db(FILE *out, const hpcdb_experiment *exp, const hpcdb_db *db) {
  if (!db) return hpcdb_fail(HPCDB_EINVAL, "hpcdb_dump_json_db: no database");
  return dump(out, exp, db);
}
