/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb struct against the conventions HPCToolkit's own hpcstruct tests
 * state (check_conventions.py; the markers name the lines it checks): a
 * plain function, an inlined call, an inlined function with a loop, loops
 * nested three deep, loops around inlined calls; library calls through the
 * PLT, one of them also address-taken (bound through .plt.got). */
#include <stdlib.h>
#include <string.h>

volatile int rounds_a = 3, rounds_b = 3, rounds_c = 2, total = 1;

static inline __attribute__((always_inline)) void add_once(void) { /* INLINE add_once */
  total += rounds_c;
}

static inline __attribute__((always_inline)) void add_loop(void) { /* INLINE add_loop */
  for (volatile int k = 0; k < rounds_c; k++) /* LOOP add_loop */
    total += rounds_c;
}

void conv_plain(void) { /* PROC conv_plain */
  total += rounds_c;
} /* END conv_plain */

void conv_inlined(void) { /* PROC conv_inlined */
  total += rounds_c;
  add_once();
} /* END conv_inlined */

void conv_nested(void) { /* PROC conv_nested */
  for (volatile int i = 0; i < rounds_a; i++) /* LOOP conv_nested */
    for (volatile int j = 0; j < rounds_b; j++) /* LOOP conv_nested */
      for (volatile int k = 0; k < rounds_c; k++) /* LOOP conv_nested */
        total += rounds_c;
} /* END conv_nested */

void conv_loop_call(void) { /* PROC conv_loop_call */
  for (volatile int i = 0; i < rounds_a; i++) /* LOOP conv_loop_call */
    add_once();
} /* END conv_loop_call */

void conv_loop_loop(void) { /* PROC conv_loop_loop */
  for (volatile int i = 0; i < rounds_a; i++) /* LOOP conv_loop_loop */
    for (volatile int j = 0; j < rounds_b; j++) /* LOOP conv_loop_loop */
      add_loop();
} /* END conv_loop_loop */

void (*conv_releaser)(void *) = free;

size_t conv_library(const char *s) { /* PROC conv_library */
  char *copy = malloc(strlen(s) + 1);
  if (!copy) return 0;
  strcpy(copy, s);
  size_t n = strlen(copy);
  free(copy);
  return n;
} /* END conv_library */
