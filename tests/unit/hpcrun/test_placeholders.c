/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcrun's placeholder codes: the roles analyze gives them and the names
 * hpcprof gives placeholder frames (GPU operations, OpenMP states, fences),
 * with its fallback for unknown codes (the 8 characters, unprintable ones as
 * a backslash and two space-padded hex digits). */
#include <string.h>

#include "hpcrun/hpcrun_placeholders.h"
#include "testlib.h"

static uint64_t code(const char c[8]) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | (uint8_t)c[i];
  return v;
}

int main(void) {
  char buf[33];
  static const struct {
    const char *code, *name;
  } names[] = {
      {"GPUKernl", "<gpu kernel>"},       {"GPUTrace", "<gpu kernel>"},     {"GPUCpH2D", "<gpu copyin>"},
      {"GPUCpD2H", "<gpu copyout>"},      {"GPUCp?2?", "<gpu copy>"},       {"GPUAlloc", "<gpu alloc>"},
      {"GPUDelte", "<gpu delete>"},       {"GPUMemst", "<gpu memset>"},     {"GPU Sync", "<gpu sync>"},
      {"OMPBarrW", "<omp barrier wait>"}, {"OMTKernl", "<omp tgt kernel>"}, {"| Thread", "<thread root>"},
      {"XYZW1234", "XYZW1234"},
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const char *got = hpcrun_placeholder_name(code(names[i].code), buf);
    CHECK(strcmp(got, names[i].name) == 0);
    if (strcmp(got, names[i].name)) fprintf(stderr, "%s: %s, expected %s\n", names[i].code, got, names[i].name);
  }
  CHECK(strcmp(hpcrun_placeholder_name(code("AB\x01"
                                            "CDE\xff"
                                            "G"),
                                       buf),
               "AB\\ 1CDE\\ffG") == 0);
  CHECK(hpcrun_placeholder_role(code("^Primary")) == PH_ROOT);
  CHECK(hpcrun_placeholder_role(code("NoActvty")) == PH_IDLE);
  CHECK(hpcrun_placeholder_role(code("^Partial")) == PH_PARTIAL);
  CHECK(hpcrun_placeholder_role(code("*Unnorm ")) == PH_UNNORM);
  CHECK(hpcrun_placeholder_role(code("| Main  ")) == PH_MAIN);
  CHECK(hpcrun_placeholder_role(code("| Thread")) == PH_THREAD);
  CHECK(hpcrun_placeholder_role(code("GPUKernl")) == PH_FRAME);
  CHECK(hpcrun_placeholder_role(0) == PH_FRAME);
  return TEST_END();
}
