/* Recognising a format from its bytes, not its name. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "core/formats.h"
#include "hpcdb/hpcdb.h"

/* The first n bytes of a file (fewer when it is shorter); 0 when unreadable. */
static size_t head_of(const char *path, uint8_t *buf, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t got = fread(buf, 1, n, f);
  fclose(f);
  return got;
}

static int contains(const uint8_t *buf, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (memcmp(buf + i, needle, k) == 0) return 1;
  return 0;
}

static hpcdb_format classify_xml(const uint8_t *head, size_t n) {
  if (contains(head, n, "HPCToolkitStructure")) return HPCDB_FORMAT_HPCSTRUCT;
  if (!contains(head, n, "HPCToolkitExperiment")) return HPCDB_FORMAT_UNKNOWN;
  return contains(head, n, "version=\"4.0\"") ? HPCDB_FORMAT_DRAFT_A : HPCDB_FORMAT_LEGACY_XML;
}

static hpcdb_format classify_file(const char *path) {
  uint8_t head[4096];
  size_t n = head_of(path, head, sizeof head);
  if (n >= 16 && memcmp(head, "HPCTOOLKIT_expmt", 16) == 0) return HPCDB_FORMAT_DRAFT_B;
  if (n >= 14 && memcmp(head, "HPCTOOLKIT", 10) == 0) {
    static const struct { const char *id; hpcdb_format f; } kinds[] = {
        {"meta", HPCDB_FORMAT_HPCTK4_META}, {"prof", HPCDB_FORMAT_HPCTK4_PROFILE},
        {"ctxt", HPCDB_FORMAT_HPCTK4_CCT}, {"trce", HPCDB_FORMAT_HPCTK4_TRACE}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
      if (memcmp(head + 10, kinds[i].id, 4) == 0) return kinds[i].f;
    return HPCDB_FORMAT_UNKNOWN;
  }
  hpcdb_format f = hpcdb_hpcrun_sniff(head, n);
  if (f != HPCDB_FORMAT_UNKNOWN) return f;
  if ((n > 262 && memcmp(head + 257, "ustar", 5) == 0) || (n >= 2 && head[0] == 0x1f && head[1] == 0x8b))
    return HPCDB_FORMAT_CUBE;
  return classify_xml(head, n);
}

static int exists(const char *dir, const char *name, char *path, size_t size) {
  struct stat st;
  return (size_t)snprintf(path, size, "%s/%s", dir, name) < size && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int hpcdb_detect(hpcdb_format *out, const char *path) {
  *out = HPCDB_FORMAT_UNKNOWN;
  struct stat st;
  if (stat(path, &st) != 0) return hpcdb_fail(HPCDB_EIO, "%s: no such file or directory", path);
  if (!S_ISDIR(st.st_mode)) {
    *out = classify_file(path);
  } else {
    char inner[4096];
    if (exists(path, "meta.db", inner, sizeof inner)) {
      /* a meta.db that is not the draft's is taken as v4.0 even when damaged,
       * so that validation can say what is wrong with it */
      *out = classify_file(inner) == HPCDB_FORMAT_DRAFT_B ? HPCDB_FORMAT_DRAFT_B : HPCDB_FORMAT_HPCTK4_DIR;
    } else if (exists(path, "experiment.xml", inner, sizeof inner)) {
      *out = classify_file(inner);
    } else {
      hpcdb_format f;
      if (hpcdb_hpcrun_detect(&f, path) == 0) *out = f;
    }
  }
  if (*out == HPCDB_FORMAT_UNKNOWN)
    return hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not a format hpcdb reads (no known magic bytes)", path);
  return 0;
}

const char *hpcdb_format_name(hpcdb_format format) {
  const format_entry *e = format_lookup(format);
  return e ? e->name : "unknown";
}
