/* SPDX-License-Identifier: BSD-3-Clause */
/* Structure files on disk: written atomically, and cached by the binary's
 * identity (build id + content hash), as hpcstruct's -C cache. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/hashmap.h"
#include "common/mapped_file.h"
#include "hpcdb/binstruct.h"

static int mkdirs(const char *dir) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
    return hpcdb_fail(HPCDB_EINVAL, "%s: path too long", dir);
  for (char *p = path + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return hpcdb_fail(HPCDB_EIO, "%s: cannot create directory: %s", path, strerror(errno));
      *p = c;
      if (!c) break;
    }
  }
  return 0;
}

static int copy_atomic(const char *from, const char *to) {
  hpcdb_mapped_file m;
  HPCDB_TRY(mapped_file_open(&m, from));
  hpcdb_atomic_file f;
  int rc = atomic_file_open_output(&f, to, 1);
  if (rc == 0) rc = atomic_file_finish(&f, atomic_file_write(&f, m.data, (size_t)m.len));
  mapped_file_close(&m);
  return rc;
}

static int write_fresh(const char *binary_path, const char *out_path, const hpcdb_binstruct_options *opt) {
  hpcdb_atomic_file f;
  HPCDB_TRY(atomic_file_open_output(&f, out_path, 1));
  return atomic_file_finish(&f, hpcdb_binstruct_write(binary_path, f.fp, opt));
}

int hpcdb_binstruct_write_file(const char *binary_path, const char *out_path, const char *cache_dir,
                               const hpcdb_binstruct_options *opt, int *from_cache) {
  HPCDB_CHECK_OPTIONS(opt, HPCDB_BINSTRUCT_OPTIONS_VERSION, "hpcdb_binstruct_options");
  hpcdb_binstruct_options defaults = HPCDB_BINSTRUCT_OPTIONS_INIT;
  if (!opt) opt = &defaults;
  if (from_cache) *from_cache = 0;
  if (!binary_path || !out_path) return hpcdb_fail(HPCDB_EINVAL, "no binary or output path");
  if (!cache_dir) return write_fresh(binary_path, out_path, opt);
  char id[160], cached[4096];
  HPCDB_TRY(hpcdb_binstruct_identity(binary_path, id, sizeof id));
  /* what else shapes the file: the LM name and whether loops were looked for */
  const char *lm = opt->lm_name ? opt->lm_name : binary_path;
  uint64_t h = hash_bytes(lm, strlen(lm)) ^ (opt->no_loops ? 0x9e3779b97f4a7c15ULL : 0);
  if (snprintf(cached, sizeof cached, "%s/%s-%016" PRIx64 ".hpcstruct", cache_dir, id, h) >= (int)sizeof cached)
    return hpcdb_fail(HPCDB_EINVAL, "%s: cache path too long", cache_dir);
  struct stat st;
  if (stat(cached, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    HPCDB_TRY(copy_atomic(cached, out_path));
    if (from_cache) *from_cache = 1;
    return 0;
  }
  HPCDB_TRY(write_fresh(binary_path, out_path, opt));
  /* a cache that cannot be written costs time later, not correctness now */
  if (mkdirs(cache_dir) == 0) copy_atomic(out_path, cached);
  return 0;
}
