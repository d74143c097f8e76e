/* SPDX-License-Identifier: BSD-3-Clause */
/* meta.db draft b: the header (7 or 8 sections), the footer, and the
 * General Properties, identifier, metric, binary, file and function sections. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "older/draftb/draftb.h"

static const char *const section_names[DB_N_SECTIONS] = {
    "General Properties",        "Identifier Table",   "Performance Metric", "Context Tree",
    "Context Attribute Strings", "Application Binary", "Source File",        "Function"};

int draftb_fail(draftb_meta *m, int status, const char *section, uint64_t off, const char *rule, const char *fmt, ...) {
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  m->rule = rule;
  m->offset = off;
  return hpcdb_fail_at(status, m->path, section, off, rule, "%s", detail);
}

/* A cursor failure (a read past a section) recorded as the "bounds" rule. */
static int cursor_failed(draftb_meta *m, const hpcdb_cursor *c, int rc) {
  if (!m->rule) {
    m->rule = "bounds";
    m->offset = c->pos;
  }
  return rc;
}
#define CTRY(m, c, expr)                          \
  do {                                            \
    int rc_ = (expr);                             \
    if (rc_ < 0) return cursor_failed(m, c, rc_); \
  } while (0)

static int open_section(draftb_meta *m, hpcdb_cursor *c, unsigned s) {
  cursor_init(c, m->d, m->len, m->path);
  CTRY(m, c, cursor_section(c, section_names[s], m->sec_off[s], m->sec_size[s]));
  return 0;
}

/* A NUL-terminated string at the cursor, inside its section; the cursor moves past the NUL. */
static int inline_string(draftb_meta *m, hpcdb_cursor *c, const char *what, const char **out) {
  const char *s;
  size_t n;
  int rc = cursor_cstring_at(c, c->pos, c->pos, c->limit, &s, &n, what);
  if (rc < 0 && !m->rule) {
    m->rule = "string-bounds";
    m->offset = c->pos;
  }
  HPCDB_TRY(rc);
  c->pos += n + 1;
  *out = hpcdb_intern_n(m->exp, s, n);
  return *out ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
}

int draftb_string(draftb_meta *m, uint64_t ptr, uint64_t where, const char *what, const char **out) {
  uint64_t lo = m->sec_off[DB_STRINGS], hi = lo + m->sec_size[DB_STRINGS];
  if (ptr < lo || ptr >= hi)
    return draftb_fail(m, HPCDB_ECORRUPT, "strings", where, "string-bounds",
                       "%s 0x%llx is not inside the Context Attribute Strings section", what, (unsigned long long)ptr);
  const uint8_t *nul = memchr(m->d + ptr, 0, (size_t)(hi - ptr));
  if (!nul)
    return draftb_fail(m, HPCDB_ECORRUPT, "strings", ptr, "string-bounds",
                       "%s is not NUL-terminated inside its section", what);
  *out = hpcdb_intern_n(m->exp, (const char *)m->d + ptr, (size_t)(nul - (m->d + ptr)));
  return *out ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
}

int draftb_entry_index(draftb_meta *m, unsigned sec, uint64_t ptr, uint64_t where, const char *what, uint32_t *out) {
  uint64_t first = m->sec_off[sec] + 6, size = m->spec_size[sec];
  if (ptr < first || size == 0 || (ptr - first) % size != 0 || (ptr - first) / size >= m->spec_count[sec])
    return draftb_fail(m, HPCDB_ECORRUPT, section_names[sec], where, "pointer-target",
                       "%s 0x%llx does not point at an entry of the %s section", what, (unsigned long long)ptr,
                       section_names[sec]);
  *out = (uint32_t)((ptr - first) / size);
  return 0;
}

static int parse_header(draftb_meta *m) {
  static const unsigned doc_order[7] = {DB_GENERAL,  DB_METRICS, DB_TREE,     DB_STRINGS,
                                        DB_BINARIES, DB_FILES,   DB_FUNCTIONS};
  if (m->len < 24 || memcmp(m->d, "HPCTOOLKIT_expmt", 16) != 0)
    return draftb_fail(m, HPCDB_ENOTFORMAT, "header", 0, "magic", "the file does not start with \"HPCTOOLKIT_expmt\"");
  m->major = m->d[16];
  m->minor = m->d[17];
  if (m->major != 4 && m->major != 1)
    return draftb_fail(m, HPCDB_EVERSION, "header", 16, "version", "version %u.%u (4.0 expected)", m->major, m->minor);
  m->n_sections = rd_be16(m->d + 18);
  if (m->n_sections != 7 && m->n_sections != 8)
    return draftb_fail(m, HPCDB_ECORRUPT, "header", 18, "section-count", "%u sections (7 or 8 expected)",
                       m->n_sections);
  uint64_t header = 24 + 16 * (uint64_t)m->n_sections;
  if (m->len < header + 8)
    return draftb_fail(m, HPCDB_ETRUNCATED, "header", m->len, "header-size",
                       "the file (%llu bytes) ends before its header and footer", (unsigned long long)m->len);
  if (memcmp(m->d + m->len - 8, "nmBDFORP", 8) != 0 && memcmp(m->d + m->len - 8, "PROFDBmn", 8) != 0)
    return draftb_fail(m, HPCDB_ECORRUPT, "footer", m->len - 8, "footer",
                       "the file does not end in \"nmBDFORP\" (or \"PROFDBmn\")");
  m->body = m->len - 8;
  for (unsigned i = 0; i < m->n_sections; i++) {
    unsigned s = m->n_sections == 8 ? i : doc_order[i];
    m->sec_size[s] = rd_be64(m->d + 24 + 16 * i);
    m->sec_off[s] = rd_be64(m->d + 32 + 16 * i);
    if (!in_bounds(m->body, m->sec_off[s], m->sec_size[s]) || m->sec_off[s] < header)
      return draftb_fail(m, HPCDB_ECORRUPT, "header", 24 + 16 * i, "section-bounds",
                         "the %s section (%llu bytes at 0x%llx) is not between the header and the footer",
                         section_names[s], (unsigned long long)m->sec_size[s], (unsigned long long)m->sec_off[s]);
  }
  return 0;
}

static int parse_identifiers(draftb_meta *m, hpcdb_cursor *c) {
  uint16_t n;
  CTRY(m, c, cursor_be16(c, &n, "number of identifier kinds"));
  for (uint16_t i = 0; i < n; i++) {
    const char *name;
    HPCDB_TRY(inline_string(m, c, "identifier kind name", &name));
    HPCDB_TRY(hpcdb_add_kind_name(m->exp, name, NULL));
  }
  return 0;
}

static int parse_general(draftb_meta *m) {
  hpcdb_cursor c;
  const char *title, *description = NULL;
  HPCDB_TRY(open_section(m, &c, DB_GENERAL));
  HPCDB_TRY(inline_string(m, &c, "title", &title));
  if (m->n_sections == 8) HPCDB_TRY(inline_string(m, &c, "description", &description));
  HPCDB_TRY(hpcdb_set_title(m->exp, title, description));
  if (m->n_sections == 7) return parse_identifiers(m, &c);
  HPCDB_TRY(open_section(m, &c, DB_IDTABLE));
  return parse_identifiers(m, &c);
}

/* The scope table is built from the names, in order of first use; the type
 * and propagation index follow what hpcprof means by the name. */
static int scope_index(draftb_meta *m, const char *name, uint32_t *out) {
  uint64_t found;
  if (u64map_get(&m->scopes, (uint64_t)(uintptr_t)name, &found)) /* interned: same text, same pointer */
    return (*out = (uint32_t)found), 0;
  hpcdb_scope s = {name, HPCDB_SCOPE_CUSTOM, 255};
  if (!strcmp(name, "point")) s.type = HPCDB_SCOPE_POINT;
  else if (!strcmp(name, "execution")) s.type = HPCDB_SCOPE_EXECUTION;
  else if (!strcmp(name, "function")) s = (hpcdb_scope){name, HPCDB_SCOPE_TRANSITIVE, 0};
  HPCDB_TRY(hpcdb_add_scope(m->exp, &s, out));
  return u64map_put(&m->scopes, (uint64_t)(uintptr_t)name, *out);
}

static int parse_metric(draftb_meta *m, hpcdb_cursor *c) {
  uint16_t n_scopes;
  const char *name;
  uint32_t metric;
  CTRY(m, c, cursor_be16(c, &n_scopes, "number of propagation scopes"));
  HPCDB_TRY(inline_string(m, c, "metric name", &name));
  HPCDB_TRY(hpcdb_add_metric(m->exp, name, &metric));
  for (uint16_t k = 0; k < n_scopes; k++) {
    uint16_t raw_mid, n_summaries;
    const char *scope_name;
    uint32_t scope;
    CTRY(m, c, cursor_be16(c, &raw_mid, "raw_mid"));
    CTRY(m, c, cursor_be16(c, &n_summaries, "num_summaries"));
    HPCDB_TRY(inline_string(m, c, "propagation scope", &scope_name));
    HPCDB_TRY(scope_index(m, scope_name, &scope));
    HPCDB_TRY(hpcdb_metric_add_instance(m->exp, metric, scope, raw_mid));
    for (uint16_t j = 0; j < n_summaries; j++) {
      hpcdb_summary su = {scope, NULL, 0, 0};
      CTRY(m, c, cursor_be16(c, &su.stat_metric_id, "summary_mid"));
      CTRY(m, c, cursor_u8(c, &su.combine, "combine"));
      HPCDB_TRY(inline_string(m, c, "summary formula", &su.formula));
      HPCDB_TRY(hpcdb_metric_add_summary(m->exp, metric, &su));
    }
  }
  return 0;
}

static int parse_metrics(draftb_meta *m) {
  hpcdb_cursor c;
  uint32_t n;
  HPCDB_TRY(open_section(m, &c, DB_METRICS));
  CTRY(m, &c, cursor_be32(&c, &n, "number of metrics"));
  for (uint32_t i = 0; i < n; i++) HPCDB_TRY(parse_metric(m, &c));
  return 0;
}

/* A table section's count and entry size; the entries must fit. */
static int table_header(draftb_meta *m, unsigned s, uint16_t min_size) {
  hpcdb_cursor c;
  uint64_t total;
  HPCDB_TRY(open_section(m, &c, s));
  CTRY(m, &c, cursor_be32(&c, &m->spec_count[s], "number of entries"));
  CTRY(m, &c, cursor_be16(&c, &m->spec_size[s], "entry size"));
  if (m->spec_size[s] < min_size)
    return draftb_fail(m, HPCDB_ECORRUPT, section_names[s], m->sec_off[s] + 4, "entry-size",
                       "entries of %u bytes are smaller than the %u the document gives", m->spec_size[s], min_size);
  if (!mul_ok(m->spec_count[s], m->spec_size[s], &total) || total > m->sec_size[s] - 6)
    return draftb_fail(m, HPCDB_ECORRUPT, section_names[s], m->sec_off[s], "section-bounds",
                       "%u entries of %u bytes do not fit the section", m->spec_count[s], m->spec_size[s]);
  return 0;
}

static int parse_paths(draftb_meta *m, unsigned s) {
  HPCDB_TRY(table_header(m, s, 12));
  for (uint32_t i = 0; i < m->spec_count[s]; i++) {
    uint64_t e = m->sec_off[s] + 6 + (uint64_t)m->spec_size[s] * i;
    const char *path;
    HPCDB_TRY(draftb_string(m, rd_be64(m->d + e + 4), e + 4, "path_ptr", &path));
    if (s == DB_BINARIES) HPCDB_TRY(hpcdb_add_module(m->exp, path, rd_be32(m->d + e), NULL));
    else HPCDB_TRY(hpcdb_add_file(m->exp, path, rd_be32(m->d + e), NULL));
  }
  return 0;
}

static int parse_functions(draftb_meta *m) {
  HPCDB_TRY(table_header(m, DB_FUNCTIONS, 40));
  for (uint32_t i = 0; i < m->spec_count[DB_FUNCTIONS]; i++) {
    uint64_t e = m->sec_off[DB_FUNCTIONS] + 6 + (uint64_t)m->spec_size[DB_FUNCTIONS] * i;
    const uint8_t *p = m->d + e;
    hpcdb_function f = {NULL, HPCDB_NONE, 0, HPCDB_NONE, 0, rd_be32(p)};
    if (rd_be64(p + 4)) HPCDB_TRY(draftb_string(m, rd_be64(p + 4), e + 4, "name_ptr", &f.name));
    if (rd_be64(p + 12)) {
      HPCDB_TRY(draftb_entry_index(m, DB_BINARIES, rd_be64(p + 12), e + 12, "binary_ptr", &f.module));
      f.offset = rd_be64(p + 20);
    }
    if (rd_be64(p + 28)) {
      HPCDB_TRY(draftb_entry_index(m, DB_FILES, rd_be64(p + 28), e + 28, "def_fileptr", &f.file));
      f.line = rd_be32(p + 36);
    }
    HPCDB_TRY(hpcdb_add_function(m->exp, &f, NULL));
  }
  return 0;
}

int draftb_parse_tables(draftb_meta *m) {
  HPCDB_TRY(parse_general(m));
  HPCDB_TRY(parse_metrics(m));
  HPCDB_TRY(parse_paths(m, DB_BINARIES));
  HPCDB_TRY(parse_paths(m, DB_FILES));
  return parse_functions(m);
}

int draftb_parse_meta(draftb_meta *m, hpcdb_experiment *exp, const uint8_t *data, uint64_t len, const char *path) {
  memset(m, 0, sizeof *m);
  m->path = path;
  m->d = data;
  m->len = len;
  m->exp = exp;
  int rc = parse_header(m);
  if (rc == 0) rc = draftb_parse_tables(m);
  u64map_free(&m->scopes);
  if (rc == 0) rc = draftb_parse_tree(m);
  return rc;
}
