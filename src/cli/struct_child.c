/* SPDX-License-Identifier: BSD-3-Clause */
/* struct_in_child (struct_child.h). The child sends its result through a
 * pipe and exits with exit() (the crash campaign's count of crash points is
 * written at exit); it dies with this process (PR_SET_PDEATHSIG), so that a
 * killed command leaves no child writing behind it. */
#define _GNU_SOURCE
#include "struct_child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"

typedef struct child_result {
  int rc, from_cache;
  char message[2048];
  hpcdb_binstruct_stats stats; /* what the child found, for the caller's opt->stats */
} child_result;

static int write_structure(const char *bin, const char *out, const char *cache, const hpcdb_binstruct_options *opt,
                           int *from_cache, char *why, size_t why_len) {
  int rc;
  if (!strcmp(out, "-")) {
    rc = hpcdb_binstruct_write(bin, stdout, opt);
    if (rc == 0 && fflush(stdout) != 0) {
      snprintf(why, why_len, "writing standard output failed: %s", strerror(errno));
      return HPCDB_EIO;
    }
  } else {
    rc = hpcdb_binstruct_write_file(bin, out, cache, opt, from_cache);
  }
  if (rc < 0) snprintf(why, why_len, "%s", hpcdb_last_error());
  return rc;
}

static void child(int fd, pid_t parent, const char *bin, const char *out, const char *cache,
                  const hpcdb_binstruct_options *opt) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(1); /* the parent died before the line above */
  child_result res;
  memset(&res, 0, sizeof res);
  res.rc = write_structure(bin, out, cache, opt, &res.from_cache, res.message, sizeof res.message);
  if (opt->stats) res.stats = *opt->stats;
  size_t done = 0;
  while (done < sizeof res) {
    ssize_t n = write(fd, (const char *)&res + done, sizeof res - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(1);
    done += (size_t)n;
  }
  exit(0);
}

int struct_in_child(const char *bin, const char *out, const char *cache, const hpcdb_binstruct_options *opt,
                    int *from_cache, char *why, size_t why_len) {
  int fds[2];
  *from_cache = 0;
  fflush(NULL); /* nothing buffered twice */
  pid_t parent = getpid(), pid = -1;
  if (pipe2(fds, O_CLOEXEC) == 0 && (pid = fork()) < 0) {
    close(fds[0]);
    close(fds[1]);
  }
  if (pid < 0) /* no child to be had: the work in this process */
    return write_structure(bin, out, cache, opt, from_cache, why, why_len);
  if (pid == 0) {
    close(fds[0]);
    child(fds[1], parent, bin, out, cache, opt);
  }
  close(fds[1]);
  child_result res;
  size_t got = 0;
  while (got < sizeof res) {
    ssize_t n = read(fds[0], (char *)&res + got, sizeof res - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (got == sizeof res && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    *from_cache = res.from_cache;
    if (opt->stats && res.rc == 0 && !res.from_cache) *opt->stats = res.stats;
    snprintf(why, why_len, "%s", res.message);
    return res.rc;
  }
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (sig == SIGKILL || sig == SIGPIPE || sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
    signal(sig, SIG_DFL); /* ended from outside (a reader gone, a kill): so is the command */
    kill(getpid(), sig);
  }
  if (strcmp(out, "-") != 0) hpcdb_remove_leftovers(out); /* the child's temporary */
  if (WIFSIGNALED(status))
    snprintf(why, why_len,
             "%s: out of memory, or debug information the DWARF reader (libdw) cannot read: reading it ended "
             "with signal %d (%s) inside a library; nothing written",
             bin, WTERMSIG(status), strsignal(WTERMSIG(status)));
  else
    snprintf(why, why_len,
             "%s: out of memory: the DWARF reader (libdw) ended the work itself (exit status %d); nothing written", bin,
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return HPCDB_ENOMEM;
}
