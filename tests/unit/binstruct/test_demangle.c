/* SPDX-License-Identifier: BSD-3-Clause */
/* Names as the toolchains' own tools print them: c++filt for C++ (clone
 * suffixes of GCC and clang, chains of them, lambdas, PLT stubs), rustfilt
 * for Rust (v0 and legacy), gfortran/gdb for Fortran module procedures; C
 * names (clones too) left as they are, as c++filt leaves them. */
#include <string.h>

#include "binstruct/bs_internal.h"
#include "testlib.h"

static bs_unit u;

static void expect(const char *mangled, const char *want) {
  const char *got = bs_demangled(&u, mangled);
  if (!want) {
    CHECK(got == NULL);
    if (got) fprintf(stderr, "  %s: demangled to \"%s\", expected it left as it is\n", mangled, got);
    return;
  }
  CHECK(got && !strcmp(got, want));
  if (!got || strcmp(got, want))
    fprintf(stderr, "  %s:\n    got  %s\n    want %s\n", mangled, got ? got : "(null)", want);
}

int main(void) {
  /* C++, as c++filt prints it */
  expect("_Z8kernmainv", "kernmain()");
  expect("_ZL9relax_allR4GridPdi._omp_fn.0", "relax_all(Grid&, double*, int) [clone ._omp_fn.0]");
  expect("_Z3fooi.constprop.0", "foo(int) [clone .constprop.0]");
  expect("_Z3fooi.isra.0", "foo(int) [clone .isra.0]");
  expect("_Z3fooi.part.0", "foo(int) [clone .part.0]");
  expect("_ZN1A3barEv.cold", "A::bar() [clone .cold]");
  expect("_Z3fooi.lto_priv.0", "foo(int) [clone .lto_priv.0]");
  expect("_Z3fooi.constprop.0.isra.0", "foo(int) [clone .constprop.0] [clone .isra.0]");
  expect("_Z3fooi.part.0.cold", "foo(int) [clone .part.0] [clone .cold]");
  expect("_Z3bazv.llvm.4711", "baz() [clone .llvm.4711]");
  expect("_ZZ4mainENKUliE_clEi", "main::{lambda(int)#1}::operator()(int) const");
  expect("_Z1fSs", "f(std::basic_string<char, std::char_traits<char>, std::allocator<char> >)");
  expect("_ZNSt13runtime_errorC1EPKc@plt", "std::runtime_error::runtime_error(char const*)@plt");
  /* Rust, as rustfilt prints it */
  expect("_RNvCs1234_7mycrate3foo", "mycrate::foo");
  expect("_RNvNtCs9ltgdHTiPiY_4core3fmt5write", "core::fmt::write");
  expect("_RINvNtCs9ltgdHTiPiY_4core3ptr13drop_in_placeINtNtCsaNcM7VzQEzN_5alloc3vec3VecmEEB4_",
         "core::ptr::drop_in_place::<alloc::vec::Vec<u32>>");
  expect("_ZN4core3fmt9Formatter3pad17h1234567890abcdefE", "core::fmt::Formatter::pad");
  expect("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h5fb4ab5a6b4ff4e0E",
         "std::rt::lang_start::{{closure}}");
  expect("_ZN4core3fmt9Formatter3pad17h1234567890abcdefE.llvm.12345", "core::fmt::Formatter::pad");
  /* Fortran module procedures, as gfortran and gdb name them */
  expect("__heat_MOD_relax", "heat::relax");
  expect("__grid_utils_MOD_init_grid", "grid_utils::init_grid");
  expect("__heat_MOD_relax._omp_fn.0", "heat::relax [clone ._omp_fn.0]");
  expect("__heat_MOD_relax.constprop.0.isra.0", "heat::relax [clone .constprop.0] [clone .isra.0]");
  /* C and everything else: as it is */
  expect("main", NULL);
  expect("main._omp_fn.0", NULL);
  expect("foo.constprop.0", NULL);
  expect("_start", NULL);
  expect("__libc_start_main", NULL);
  expect("_MOD_", NULL);
  expect("_Z", NULL);
  expect("_R", NULL);
  bs_unit_free(&u);
  return testlib_end();
}
