/* Capstone, opened on first use. Linking it would make every process that
 * loads hpcdb pay for it: its tables carry ~77k relative relocations, which
 * cost ~7 ms at start-up (an empty program linked against it) and ~3 MB of
 * resident memory (its share of a Python process with hpcdb imported), while
 * only `hpcdb struct` and analyses that read binaries decode machine code. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "binstruct/bs_capstone.h"

static bs_capstone capstone;
static const bs_capstone *loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Resolves one symbol into *slot (a function pointer's storage: dlsym
 * returns an object pointer, which POSIX lets us store this way). */
static int resolve(void *lib, const char *name, void *slot) {
  void *f = dlsym(lib, name);
  if (!f) return 0;
  *(void **)slot = f;
  return 1;
}

static void load(void) {
  void *lib = dlopen(HPCDB_CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
  int ok = resolve(lib, "cs_open", &capstone.open) && resolve(lib, "cs_option", &capstone.option) &&
           resolve(lib, "cs_malloc", &capstone.malloc) && resolve(lib, "cs_free", &capstone.free) &&
           resolve(lib, "cs_close", &capstone.close) && resolve(lib, "cs_insn_group", &capstone.insn_group) &&
           resolve(lib, "cs_disasm_iter", &capstone.disasm_iter);
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
