/* SPDX-License-Identifier: BSD-3-Clause */
/* Display names of procedures as the toolchains' own tools print them:
 * - C++ (Itanium ABI, _Z...) through GCC's demangler (libiberty: the code
 *   and the options of c++filt; "kernmain()" as in hpcstruct's files),
 *   clone suffixes included: "relax(Grid&, int) [clone ._omp_fn.0]",
 *   "f(int) [clone .constprop.0] [clone .isra.0]", "g() [clone .cold]";
 * - Rust, v0 (_R...) and legacy (_ZN...17h<hash>E), as rustfilt prints them
 *   (no hash, no crate disambiguator), also through libiberty;
 * - gfortran's module procedures (__mod_MOD_proc) as gfortran and gdb name
 *   them: "mod::proc", a clone suffix written as c++filt writes one;
 * - a PLT stub of any of these: "std::runtime_error::runtime_error(char const*)@plt".
 * The callback interfaces allocate nothing but the name being built. */
#include <libiberty/demangle.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_internal.h"

static atomic_uint failures; /* names left mangled for want of memory */

unsigned bs_demangle_failures(void) { return atomic_load(&failures); }

typedef struct text {
  char *s;
  size_t n, cap;
  int nomem;
} text;

static void append(const char *s, size_t len, void *user) {
  text *t = user;
  if (t->nomem) return;
  if (t->n + len + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->n + len + 1) cap *= 2;
    char *grown = realloc(t->s, cap);
    if (!grown) {
      t->nomem = 1;
      return;
    }
    t->s = grown;
    t->cap = cap;
  }
  memcpy(t->s + t->n, s, len);
  t->n += len;
  t->s[t->n] = '\0';
}

static void append_str(text *t, const char *s) { append(s, strlen(s), t); }

/* gfortran: __MODULE_MOD_PROC[.suffix...]; 0 when link is not such a name. */
static int fortran_module_proc(const char *link, text *t) {
  if (strncmp(link, "__", 2) != 0) return 0;
  const char *mod = link + 2, *sep = strstr(mod, "_MOD_");
  if (!sep || sep == mod || !sep[5]) return 0;
  const char *proc = sep + 5, *dot = strchr(proc, '.');
  size_t proc_len = dot ? (size_t)(dot - proc) : strlen(proc);
  if (proc_len == 0) return 0;
  append(mod, (size_t)(sep - mod), t);
  append_str(t, "::");
  append(proc, proc_len, t);
  while (dot) { /* each clone suffix as c++filt writes one: ".constprop.0" is one clone */
    const char *next = strchr(dot + 1, '.');
    while (next && next[1] >= '0' && next[1] <= '9') next = strchr(next + 1, '.');
    append_str(t, " [clone ");
    append(dot, next ? (size_t)(next - dot) : strlen(dot), t);
    append_str(t, "]");
    dot = next;
  }
  return 1;
}

static int demangle(const char *link, text *t) {
  /* Rust's legacy names are C++-shaped: libiberty tells them by their hash */
  if ((!strncmp(link, "_R", 2) || !strncmp(link, "_ZN", 3)) && rust_demangle_callback(link, DMGL_PARAMS, append, t))
    return 1;
  t->n = 0;
  t->nomem = 0;
  if (!strncmp(link, "_Z", 2))
    return cplus_demangle_v3_callback(link, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE, append, t);
  return fortran_module_proc(link, t);
}

const char *bs_demangled(bs_unit *u, const char *link) {
  if (!link || (link[0] != '_')) return NULL;
  text t = {0};
  size_t len = strlen(link);
  int ok, plt = len > 4 && !strcmp(link + len - 4, "@plt"); /* a PLT stub: NAME@plt */
  if (plt) {
    text bare = {0};
    append(link, len - 4, &bare);
    ok = !bare.nomem && demangle(bare.s, &t);
    t.nomem |= bare.nomem;
    free(bare.s);
    if (ok) append_str(&t, "@plt");
  } else {
    ok = demangle(link, &t);
  }
  const char *s = ok && !t.nomem && t.n ? bs_intern(u, t.s) : NULL;
  if (t.nomem || (ok && t.n && !s)) atomic_fetch_add(&failures, 1);
  free(t.s);
  return s;
}
