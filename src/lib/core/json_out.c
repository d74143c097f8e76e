/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/json_out.h"

#include <math.h>

static const char *escape(unsigned char c, char *tmp) {
  switch (c) {
  case '"': return "\\\"";
  case '\\': return "\\\\";
  case '\n': return "\\n";
  case '\r': return "\\r";
  case '\t': return "\\t";
  default: {
    static const char hex[] = "0123456789abcdef";
    memcpy(tmp, "\\u00", 4);
    tmp[4] = hex[c >> 4], tmp[5] = hex[c & 15], tmp[6] = '\0';
    return tmp;
  }
  }
}

static int plain(unsigned char c) { return c >= 0x20 && c != '"' && c != '\\'; }

void json_string(FILE *out, const char *s) {
  char tmp[8];
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (plain(*p)) fputc(*p, out);
    else fputs(escape(*p, tmp), out);
  }
  fputc('"', out);
}

void json_script_string(FILE *out, const char *s) {
  char tmp[8];
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (plain(*p) && *p != '<' && *p != '>' && *p != '&') fputc(*p, out);
    else fputs(escape(*p, tmp), out);
  }
  fputc('"', out);
}

void json_number(FILE *out, double v) {
  char buf[DTOA_BUF];
  if (!isfinite(v)) fputs("null", out);
  else fwrite(buf, 1, fmt_double(buf, v), out);
}

void json_text_string(textout *t, const char *s) {
  char tmp[8];
  const unsigned char *p = (const unsigned char *)(s ? s : ""), *run = p;
  textout_char(t, '"');
  for (;; p++) {
    if (*p && plain(*p)) continue;
    textout_put(t, (const char *)run, (size_t)(p - run)); /* the run of characters written as they are */
    if (!*p) break;
    textout_str(t, escape(*p, tmp));
    run = p + 1;
  }
  textout_char(t, '"');
}

void json_text_number(textout *t, double v) {
  if (!isfinite(v)) textout_put(t, "null", 4);
  else textout_double(t, v);
}
