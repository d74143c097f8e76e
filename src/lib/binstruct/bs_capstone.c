/* Capstone, opened on first use. Linking it would make every process that
 * loads hpcdb pay for it: its tables carry ~77k relative relocations, which
 * cost ~7 ms at start-up (an empty program linked against it) and ~3 MB of
 * resident memory (its share of a Python process with hpcdb imported), while
 * only `hpcdb struct` and analyses that read binaries decode machine code. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "binstruct/bs_capstone.h"
#include "common/lazy_lib.h"

static bs_capstone capstone;
static const bs_capstone *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Capstone's cs_NAME into capstone.NAME */
#define SYM(name) lazy_lib_resolve(lib, "cs_" #name, &capstone.name)

static void load(void) {
  void *lib = dlopen(HPCDB_CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
  int ok = SYM(open) && SYM(option) && SYM(malloc) && SYM(free) && SYM(close) && SYM(insn_group) && SYM(disasm_iter);
  if (!ok) {
    dlclose(lib);
    return;
  }
  loaded = &capstone; /* stays open for the process's life, like a linked library */
}

const bs_capstone *bs_capstone_get(void) {
  pthread_once(&once, load);
  return loaded;
}
