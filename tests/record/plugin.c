/* SPDX-License-Identifier: BSD-3-Clause */
/* The library record_dlopen loads with dlopen. */
#include "work.h"

__attribute__((noinline)) void plugin_work(double secs) {
  double start = cpu_seconds();
  while (cpu_seconds() - start < secs) spin(100000);
}
