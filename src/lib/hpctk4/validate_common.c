/* SPDX-License-Identifier: BSD-3-Clause */
/* The validator's reporting and the checks every v4.0 file shares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/utf8.h"
#include "common/hashmap.h"
#include "hpctk4/validate.h"

void vdiag(validator *v, const vfile *f, hpcdb_severity sev, uint64_t off, const char *rule, const char *fmt, ...) {
  char detail[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  if (!v->quiet) vreport(v, sev, f->path, off, rule, detail);
}

void vreport(validator *v, hpcdb_severity sev, const char *path, uint64_t off, const char *rule, const char *detail) {
  if (sev == HPCDB_SEV_ERROR) v->result->errors++;
  else v->result->notes++;
  if (v->fn) {
    hpcdb_diagnostic d = {sev, path, off, rule, detail};
    v->fn(v->user, &d);
  }
}

int vknown_ctx(const validator *v, uint32_t id) {
  uint64_t dummy;
  if (v->ctx_bits) return id <= v->max_ctx_id && (v->ctx_bits[id >> 3] >> (id & 7)) & 1;
  return u64map_get(&v->ctx_ids, id, &dummy);
}

int vin_section(validator *v, const vfile *f, unsigned s, uint64_t off, uint64_t size, const char *rule,
                const char *what) {
  if (off >= f->sec_off[s] && in_bounds(f->sec_size[s], off - f->sec_off[s], size)) return 1;
  VERR(v, f, off, rule, "%s (%llu bytes at 0x%llx) is not fully inside section %u [0x%llx, +%llu)", what,
       (unsigned long long)size, (unsigned long long)off, s + 1, (unsigned long long)f->sec_off[s],
       (unsigned long long)f->sec_size[s]);
  return 0;
}

int varray(validator *v, const vfile *f, unsigned s, uint64_t off, uint64_t count, uint64_t stride, const char *what) {
  uint64_t total;
  if (!mul_ok(count, stride, &total)) {
    VERR(v, f, off, "count-overflow", "%s: %llu × %llu bytes overflows", what, (unsigned long long)count,
         (unsigned long long)stride);
    return 0;
  }
  if (count == 0) return 1;
  if (off % 8 != 0) {
    VERR(v, f, off, "alignment", "%s at 0x%llx is not 8-byte aligned", what, (unsigned long long)off);
    return 0;
  }
  return vin_section(v, f, s, off, total, "section-bounds", what);
}

int vstring(validator *v, const vfile *f, unsigned s, uint64_t off, const char *what) {
  uint64_t lo = f->sec_off[s], hi = lo + f->sec_size[s];
  if (off < lo || off >= hi) {
    VERR(v, f, off, "string-bounds", "%s at 0x%llx is not inside section %u", what, (unsigned long long)off, s + 1);
    return 0;
  }
  const uint8_t *nul = memchr(f->d + off, 0, (size_t)(hi - off));
  if (!nul) {
    VERR(v, f, off, "string-bounds", "%s is not NUL-terminated inside section %u", what, s + 1);
    return 0;
  }
  /* "char* ... a null-terminated UTF-8 string" (Formats legend) */
  size_t len = (size_t)(nul - (f->d + off)), bad = utf8_invalid_at(f->d + off, len);
  if (bad < len) {
    VERR(v, f, off + bad, "utf-8", "%s is not valid UTF-8 (byte 0x%02x at 0x%llx)", what, f->d[off + bad],
         (unsigned long long)(off + bad));
    return 0;
  }
  return 1;
}

int voutside_sections(validator *v, const vfile *f, uint64_t off, uint64_t size, const char *what) {
  for (unsigned s = 0; s < f->n_sections; s++) {
    uint64_t a = f->sec_off[s], b = a + f->sec_size[s];
    if (size && f->sec_size[s] && off < b && a < off + size) {
      VERR(v, f, off, "pointer-target", "%s overlaps section %u", what, s + 1);
      return 0;
    }
  }
  if (off < 16 + 16 * (uint64_t)f->n_sections && size) {
    VERR(v, f, off, "pointer-target", "%s overlaps the file header", what);
    return 0;
  }
  return 1;
}

static int by_offset(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

void vcheck_header(validator *v, vfile *f, const char format[4], const char footer[8], unsigned n_sections,
                   unsigned unaligned) {
  f->usable = 0;
  f->n_sections = n_sections;
  uint64_t header = 16 + 16 * (uint64_t)n_sections;
  if (f->len < 10 || memcmp(f->d, "HPCTOOLKIT", 10) != 0) {
    VERR(v, f, 0, "magic", "the file does not start with \"HPCTOOLKIT\"");
    return;
  }
  if (f->len < 16 || memcmp(f->d + 10, format, 4) != 0) {
    VERR(v, f, 10, "format", "format id is not \"%.4s\"", format);
    return;
  }
  if (f->d[14] != 4) {
    VERR(v, f, 14, "version", "major version %u (4 expected)", f->d[14]);
    return;
  }
  if (f->d[15] != 0)
    VNOTE(v, f, 15, "version", "minor version %u is newer than 4.0: fields added later are not checked", f->d[15]);
  if (f->len < header + 8) {
    VERR(v, f, f->len, "header-size", "the file (%llu bytes) ends before its header and footer",
         (unsigned long long)f->len);
    return;
  }
  int ok = 1;
  if (memcmp(f->d + f->len - 8, footer, 8) != 0) {
    VERR(v, f, f->len - 8, "footer", "the file does not end in \"%.8s\"", footer);
    ok = 0;
  }
  uint64_t spans[8][2];
  unsigned n = 0;
  for (unsigned s = 0; s < n_sections; s++) {
    f->sec_size[s] = rd_le64(f->d + 16 + 16 * s);
    f->sec_off[s] = rd_le64(f->d + 24 + 16 * s);
    if (!in_bounds(f->len - 8, f->sec_off[s], f->sec_size[s]) || (f->sec_size[s] && f->sec_off[s] < header)) {
      VERR(v, f, 16 + 16 * s, "section-bounds",
           "section %u (0x%llx, %llu bytes) is not between the header and the footer", s + 1,
           (unsigned long long)f->sec_off[s], (unsigned long long)f->sec_size[s]);
      ok = 0;
      continue;
    }
    if (f->sec_off[s] % 8 != 0 && !(unaligned & (1u << s))) {
      VERR(v, f, 24 + 16 * s, "alignment", "section %u starts at 0x%llx, not 8-byte aligned", s + 1,
           (unsigned long long)f->sec_off[s]);
      ok = 0;
    }
    if (f->sec_size[s]) {
      spans[n][0] = f->sec_off[s];
      spans[n++][1] = f->sec_off[s] + f->sec_size[s];
    }
  }
  qsort(spans, n, sizeof spans[0], by_offset);
  for (unsigned i = 1; i < n; i++)
    if (spans[i][0] < spans[i - 1][1]) {
      VERR(v, f, spans[i][0], "section-overlap", "two sections overlap at 0x%llx", (unsigned long long)spans[i][0]);
      ok = 0;
    }
  f->usable = ok;
}
