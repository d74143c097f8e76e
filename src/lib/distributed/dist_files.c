/* SPDX-License-Identifier: BSD-3-Clause */
/* The measurement files spread over the ranks: rank 0 lists them (in name
 * order, as hpcdb_analyze takes them) and cuts the list into one run of
 * consecutive files per rank, of about equal bytes (the .hpcrun file and its
 * .hpctrace); each rank receives only its own paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distributed/dist.h"
#include "common/error.h"

static uint64_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static uint64_t measurement_size(const char *path) {
  uint64_t n = file_size(path);
  char *trace = hpcrun_swap_suffix(path, ".hpcrun", ".hpctrace");
  if (trace) n += file_size(trace);
  free(trace);
  return n;
}

/* Rank 0: the paths of each rank, NUL-terminated, one run after another. */
static int pack_paths(dist_run *d, const hpcrun_path_list *all, dist_msg *m, uint64_t *counts) {
  uint64_t *size = malloc((all->n ? all->n : 1) * sizeof *size), total = 0;
  if (!size) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (size_t i = 0; i < all->n; i++) total += size[i] = measurement_size(all->paths[i]);
  size_t i = 0;
  uint64_t done = 0;
  for (int r = 0; r < d->size; r++) {
    /* rank r takes files until the bytes so far reach (r + 1) / size of the total */
    uint64_t goal = (uint64_t)((unsigned __int128)total * (unsigned)(r + 1) / (unsigned)d->size);
    uint64_t start = m->len;
    while (i < all->n && (r == d->size - 1 || done < goal)) {
      dist_msg_bytes(m, all->paths[i], strlen(all->paths[i]) + 1);
      done += size[i++];
    }
    counts[r] = m->len - start;
  }
  free(size);
  return dist_msg_status(m);
}

static int unpack_paths(dist_run *d, const char *p, uint64_t n) {
  uint64_t count = 0;
  for (uint64_t i = 0; i < n; i++) count += p[i] == '\0';
  d->files.paths = calloc(count ? count : 1, sizeof *d->files.paths);
  if (!d->files.paths) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  for (uint64_t i = 0; i < n;) {
    size_t len = strnlen(p + i, (size_t)(n - i));
    if (i + len >= n) return hpcdb_fail(HPCDB_EIO, "a measurement path arrived cut short");
    if (!(d->files.paths[d->files.n++] = strdup(p + i))) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    i += len + 1;
  }
  return 0;
}

/* Every rank must see the measurements at the path rank 0 listed them under:
 * on a cluster, a file system mounted on some hosts only would otherwise
 * make their files look unreadable, skipped with a warning, and the database
 * silently short of them. Checked before any work starts. */
static int check_visible(const dist_run *d) {
  char host[256] = "?";
  for (size_t i = 0; i <= d->files.n; i++) {
    const char *path = i < d->files.n ? d->files.paths[i] : d->measurements;
    if (access(path, R_OK) == 0) continue;
    int err = errno;
    gethostname(host, sizeof host - 1);
    return hpcdb_fail(HPCDB_EIO,
                      "%s: not visible on %s (rank %d): %s; every host must see the measurements at the path rank 0 "
                      "lists them under",
                      path, host, d->rank, strerror(err));
  }
  return 0;
}

int dist_spread_files(dist_run *d) {
  hpcrun_path_list all = {0};
  dist_msg m = {0};
  uint64_t *counts = calloc(2 * (size_t)d->size, sizeof *counts);
  int rc = counts ? 0 : hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  if (rc == 0 && d->rank == 0) {
    rc = hpcrun_list_profiles(&all, d->measurements);
    if (rc == 0 && all.n == 0) rc = hpcdb_fail(HPCDB_ENOTFORMAT, "%s: no .hpcrun measurement files", d->measurements);
    if (rc == 0) rc = pack_paths(d, &all, &m, counts);
    d->n_files_total = all.n;
  }
  hpcrun_path_list_free(&all);
  rc = dist_agree(d, rc);
  void *mine = NULL;
  if (rc == 0) rc = dist_alltoallv(d, m.data, counts, &mine, counts + d->size);
  if (rc == 0) rc = unpack_paths(d, mine, counts[d->size]);
  if (rc == 0) rc = check_visible(d);
  free(mine);
  free(counts);
  dist_msg_free(&m);
  return dist_agree(d, rc);
}
