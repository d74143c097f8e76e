/* SPDX-License-Identifier: BSD-3-Clause */
/* A file's identity as the cache and the change check see it: size, mtime,
 * ctime and inode. A database rewritten in place (even to the same size)
 * changes its mtime and ctime; one replaced by a rename changes its inode. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "query/trace_internal.h"

int trace_file_key_of(trace_file_key *k, int fd, const char *path) {
  struct stat st;
  if ((fd >= 0 ? fstat(fd, &st) : stat(path, &st)) != 0)
    return hpcdb_fail(HPCDB_EIO, "%s: cannot stat: %s", path, strerror(errno));
  *k = (trace_file_key){(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec,
                        (uint64_t)st.st_ino,  (uint64_t)st.st_ctim.tv_sec, (uint64_t)st.st_ctim.tv_nsec};
  return 0;
}

/* Called before every query on a set read in place: a trace.db truncated or
 * rewritten under an open set must give an error, not a fault in the mapping
 * or a picture of bytes that changed. */
int trace_check_unchanged(const hpcdb_trace_set *t) {
  if (t->fd < 0) return 0;
  trace_file_key now;
  struct stat st;
  if (fstat(t->fd, &st) != 0 || (uint64_t)st.st_size != t->trace_key.size)
    return hpcdb_fail_at(HPCDB_ECORRUPT, t->trace_path, "file", 0, "changed-after-open",
                         "the file changed size since it was opened (%llu bytes then); open it again",
                         (unsigned long long)t->trace_key.size);
  HPCDB_TRY(trace_file_key_of(&now, t->fd, t->trace_path));
  if (memcmp(&now, &t->trace_key, sizeof now) != 0)
    return hpcdb_fail_at(HPCDB_ECORRUPT, t->trace_path, "file", 0, "changed-after-open",
                         "the file was rewritten since it was opened; open it again");
  return 0;
}
