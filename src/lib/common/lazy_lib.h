/* Libraries opened on first use (dlopen) rather than linked, so that a
 * process pays for loading them only when it needs them. */
#ifndef HPCDB_COMMON_LAZY_LIB_H
#define HPCDB_COMMON_LAZY_LIB_H

/* Resolves symbol `name` of the dlopen'ed `handle` into *slot, the storage
 * of a function pointer (dlsym returns an object pointer, which POSIX lets
 * us store this way): 1, or 0 when the library lacks it. */
int lazy_lib_resolve(void *handle, const char *name, void *slot);

#endif
