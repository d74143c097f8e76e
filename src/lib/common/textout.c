#include "common/textout.h"

#include <stdlib.h>

#include "common/error.h"

int textout_open(textout *t, FILE *f) {
  t->f = f;
  t->len = 0;
  t->failed = 0;
  t->buf = malloc(TEXTOUT_BLOCK);
  return t->buf ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory for the output buffer");
}

void textout_flush(textout *t) {
  if (t->len && fwrite(t->buf, 1, t->len, t->f) != t->len) t->failed = 1;
  t->len = 0;
}

void textout_put_slow(textout *t, const char *s, size_t n) {
  textout_flush(t);
  if (n < TEXTOUT_BLOCK) {
    memcpy(t->buf, s, n);
    t->len = n;
  } else if (fwrite(s, 1, n, t->f) != n) {
    t->failed = 1;
  }
}

int textout_close(textout *t) {
  textout_flush(t);
  if (fflush(t->f) != 0 || ferror(t->f)) t->failed = 1;
  free(t->buf);
  t->buf = NULL;
  return t->failed ? hpcdb_fail(HPCDB_EIO, "error writing the output") : 0;
}
