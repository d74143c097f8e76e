/* SPDX-License-Identifier: BSD-3-Clause */
/* Four threads running worker() while main waits: five measurement files. */
#include <pthread.h>
#include <stdlib.h>

#include "work.h"

static double secs = 0.4;

__attribute__((noinline)) void *worker(void *arg) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < secs) spin(100000);
  return arg;
}

int main(int argc, char **argv) {
  if (argc > 1) secs = atof(argv[1]);
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    if (pthread_create(&t[i], NULL, worker, NULL)) return 1;
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  return 0;
}
