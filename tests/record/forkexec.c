/* SPDX-License-Identifier: BSD-3-Clause */
/* fork + exec: the parent runs parent_work(); the child runs child_work(),
 * then execs this program again, which runs exec_work(). Three measurements:
 * the parent, the child before the exec, the child after it (generation 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "work.h"

static void run_for(void (*fn)(void), double secs) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < secs) fn();
}

__attribute__((noinline)) void parent_work(void) { spin(100000); }
__attribute__((noinline)) void child_work(void) { spin(100000); }
__attribute__((noinline)) void exec_work(void) { spin(100000); }

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "exec")) {
    run_for(exec_work, 0.3);
    return 0;
  }
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    run_for(child_work, 0.3);
    execl("/proc/self/exe", argv[0], "exec", (char *)NULL);
    _exit(127);
  }
  run_for(parent_work, 0.3);
  int status;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) return 1;
  printf("child exited with %d\n", WEXITSTATUS(status));
  return WEXITSTATUS(status);
}
