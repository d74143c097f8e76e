/* SPDX-License-Identifier: BSD-3-Clause */
/* Header, section table and footer of the HPCPROF-* files. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "older/hpcprof1/hp1_file.h"

const hpcprof1_kind hpcprof1_profile_kind = {"profile.db", "HPCPROF-profdb__",        {"tfBDFORP", "PROFDBft"}, 1, 2,
                                             56,           HPCPROF1_PROFILE_INFO_SIZE};
const hpcprof1_kind hpcprof1_cct_kind = {"cct.db", "HPCPROF-cctdb___",    {"rtfBDTCC", "CCTDBftr"}, 1, 1,
                                         40,       HPCPROF1_CCT_INFO_SIZE};
/* trace.db: real files have no footer; draft a's document gives one */
const hpcprof1_kind hpcprof1_trace_kind = {"trace.db", "HPCPROF-tracedb_",        {"tfBDCART", "TRACDBft"}, 0, 1,
                                           40,         HPCPROF1_TRACE_HEADER_SIZE};

int hpcprof1_problem_set(hpcprof1_problem *pb, uint64_t offset, const char *rule, const char *fmt, ...) {
  va_list ap;
  pb->offset = offset;
  pb->rule = rule;
  va_start(ap, fmt);
  vsnprintf(pb->detail, sizeof pb->detail, fmt, ap);
  va_end(ap);
  return -1;
}

int hpcprof1_open(hpcprof1_file *f, const hpcprof1_kind *k, const uint8_t *data, uint64_t len, const char *path,
                  hpcprof1_problem *pb) {
  memset(f, 0, sizeof *f);
  f->path = path;
  f->d = data;
  f->len = f->body = len;
  if (len < 16 || memcmp(data, k->magic, 16) != 0)
    return hpcprof1_problem_set(pb, 0, "magic", "the file does not start with \"%s\"", k->magic);
  if (len < k->header_size)
    return hpcprof1_problem_set(pb, len, "header-size", "the file (%llu bytes) ends inside its %llu-byte header",
                                (unsigned long long)len, (unsigned long long)k->header_size);
  f->major = data[16];
  f->minor = data[17];
  if (f->major != 1 && f->major != 4)
    return hpcprof1_problem_set(pb, 16, "version", "version %u.%u (1.0 expected)", f->major, f->minor);
  f->count = rd_be32(data + 18);
  f->n_sections = rd_be16(data + 22);
  if (f->n_sections < k->n_sections)
    return hpcprof1_problem_set(pb, 22, "section-count", "%u sections, %u expected", f->n_sections, k->n_sections);
  int footed = 0;
  for (int i = 0; i < 2 && len >= k->header_size + 8; i++)
    if (memcmp(data + len - 8, k->footers[i], 8) == 0) footed = 1;
  if (footed) f->body = len - 8;
  else if (k->footer_required)
    return hpcprof1_problem_set(pb, len >= 8 ? len - 8 : 0, "footer", "the file does not end in \"%s\" (or \"%s\")",
                                k->footers[0], k->footers[1]);
  uint64_t table_end = 24 + 16 * (uint64_t)k->n_sections;
  for (unsigned s = 0; s < k->n_sections; s++) {
    f->sec_size[s] = rd_be64(data + 24 + 16 * s);
    f->sec_off[s] = rd_be64(data + 32 + 16 * s);
    if (!in_bounds(f->body, f->sec_off[s], f->sec_size[s]) || f->sec_off[s] < table_end)
      return hpcprof1_problem_set(pb, 24 + 16 * s, "section-bounds",
                                  "section %u (%llu bytes at 0x%llx) is not between the header and the end", s + 1,
                                  (unsigned long long)f->sec_size[s], (unsigned long long)f->sec_off[s]);
  }
  if (f->sec_size[0] / k->entry_size < f->count)
    return hpcprof1_problem_set(pb, 18, "entry-count", "%u entries of %llu bytes do not fit the %llu-byte section",
                                f->count, (unsigned long long)k->entry_size, (unsigned long long)f->sec_size[0]);
  return 0;
}

int hpcprof1_claim(const hpcprof1_file *f, uint64_t *used, uint64_t n, uint64_t where, hpcprof1_problem *pb) {
  if (n > f->body || *used > f->body - n)
    return hpcprof1_problem_set(pb, where, "block-overlap",
                                "value blocks or trace lines add up to more than the file: they overlap");
  *used += n;
  return 0;
}
