/* SPDX-License-Identifier: BSD-3-Clause */
/* The SIGBUS guard (bus_guard.h). The handler uses only async-signal-safe
 * calls: it finds the mapping holding the faulting address in
 * /proc/self/maps (read with read(2) into a static buffer), writes one line
 * and ends the process with _exit(2). The CLI's own output temporary is
 * removed; a library writer's hidden temporary (convert, analyze) is left to
 * the next run writing that output, which removes it (docs/outputs.md). */
#define _GNU_SOURCE
#include "bus_guard.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static const char *guard_cmd = "";
static const char *volatile guard_temp;
static char maps[1 << 16];

static void put(const char *s) {
  size_t n = strlen(s);
  while (n > 0) {
    ssize_t w = write(2, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static uint64_t hex(const char **p) {
  uint64_t v = 0;
  for (;; (*p)++) {
    char c = **p;
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return v;
    v = v * 16 + (uint64_t)d;
  }
}

static void put_number(uint64_t v) {
  char digits[24];
  int i = (int)sizeof digits - 1;
  digits[i] = '\0';
  do digits[--i] = (char)('0' + v % 10);
  while ((v /= 10) && i > 0);
  put(digits + i);
}

/* The line of /proc/self/maps "START-END PERMS OFFSET DEV INODE PATH" whose range holds addr: writes
 * "PATH: cut short while it was read (its byte OFFSET)"; 0 when not found. */
static int name_mapping(uintptr_t addr) {
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  size_t have = 0;
  int found = 0;
  for (;;) {
    ssize_t n = read(fd, maps + have, sizeof maps - 1 - have);
    if (n <= 0) break;
    have += (size_t)n;
    maps[have] = '\0';
    char *line = maps, *nl;
    while (!found && (nl = strchr(line, '\n')) != NULL) {
      *nl = '\0';
      const char *p = line;
      uint64_t start = hex(&p);
      p += *p == '-';
      uint64_t end = hex(&p);
      const char *path = strchr(p, '/');
      if (addr >= start && addr < end && path) {
        p = strchr(p, ' ');
        p = p ? strchr(p + 1, ' ') : NULL; /* past the permissions: the offset */
        uint64_t off = p ? hex(&(const char *){p + 1}) : 0;
        put(path);
        put(": cut short while it was read (at its byte ");
        put_number(off + (addr - start));
        put(")");
        found = 1;
      }
      line = nl + 1;
    }
    if (found) break;
    have = (size_t)(maps + have - line); /* the unfinished line to the front */
    memmove(maps, line, have);
    if (have >= sizeof maps - 1) have = 0;
  }
  close(fd);
  return found;
}

static void on_sigbus(int sig, siginfo_t *info, void *context) {
  (void)sig;
  (void)context;
  put("hpcdb ");
  put(guard_cmd);
  put(": ");
  if (!name_mapping((uintptr_t)info->si_addr)) put("an input file was cut short while it was read");
  put(": the file changed under the command; stopped\n");
  if (guard_temp) unlink(guard_temp);
  _exit(2);
}

void bus_guard_install(const char *cmd) {
  guard_cmd = cmd;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGBUS, &sa, NULL);
}

void bus_guard_temporary(const char *path) { guard_temp = path; }
