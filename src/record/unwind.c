/* SPDX-License-Identifier: BSD-3-Clause */
/* Unwinding from the signal context. libunwind (loaded with RTLD_LOCAL, so
 * its _Unwind_* symbols never replace the program's C++ exception runtime)
 * walks the stack with DWARF CFI; where it fails, the frame-pointer chain
 * continues, bounded by the thread's stack. The walk ends at the thread's
 * root frame (the profiler's main or thread-start wrapper); a stack that
 * ends elsewhere, or is deeper than REC_MAX_DEPTH, is partial.
 * HPCDB_RECORD_UNWIND=fp: frame pointers only. */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <string.h>
#include <ucontext.h>

#include "record.h"

typedef int (*init_fn)(unw_cursor_t *, unw_context_t *, int);
typedef int (*step_fn)(unw_cursor_t *);
typedef int (*reg_fn)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
typedef int (*cache_fn)(unw_addr_space_t, unw_caching_policy_t);
typedef int (*sigframe_fn)(unw_cursor_t *);

static struct {
  init_fn init;
  step_fn step;
  reg_fn get_reg;
  sigframe_fn is_signal_frame;
  unw_addr_space_t *as;
} unw;

void rec_unwind_init(void) {
  if (rec_proc.cfg.frame_pointers_only) return;
  void *(*real_dlopen)(const char *, int) = (void *(*)(const char *, int))rec_real("dlopen");
  void *h = real_dlopen ? real_dlopen(REC_LIBUNWIND_SONAME, RTLD_NOW | RTLD_LOCAL) : NULL;
  if (!h) return; /* frame pointers only */
  unw.init = (init_fn)dlsym(h, "_ULx86_64_init_local2");
  unw.step = (step_fn)dlsym(h, "_ULx86_64_step");
  unw.get_reg = (reg_fn)dlsym(h, "_ULx86_64_get_reg");
  unw.as = (unw_addr_space_t *)dlsym(h, "_ULx86_64_local_addr_space");
  unw.is_signal_frame = (sigframe_fn)dlsym(h, "_ULx86_64_is_signal_frame");
  cache_fn cache = (cache_fn)dlsym(h, "_ULx86_64_set_caching_policy");
  if (!unw.init || !unw.step || !unw.get_reg || !unw.as) {
    memset(&unw, 0, sizeof unw);
    return;
  }
  if (cache) cache(*unw.as, UNW_CACHE_PER_THREAD);
}

/* One unwind outside the handler, so libunwind's caches exist before a
 * signal needs them. */
void rec_unwind_warm(void) {
  if (!unw.init) return;
  ucontext_t ctx; /* libunwind's context on x86-64 */
  unw_cursor_t cur;
  if (getcontext(&ctx) < 0 || unw.init(&cur, (unw_context_t *)&ctx, 0) < 0) return;
  for (int i = 0; i < 64 && unw.step(&cur) > 0; i++) {}
}

static int on_stack(const rec_thread *t, uintptr_t p) {
  return p >= t->stack_lo && p + 16 <= t->stack_hi && (p & 7) == 0;
}

/* The frame-pointer chain from fp: returns 1 when it reached the root. */
static int walk_frame_pointers(rec_thread *t, uintptr_t fp, int *n) {
  while (on_stack(t, fp) && *n < REC_MAX_DEPTH) {
    uintptr_t next = ((uintptr_t *)fp)[0], ra = ((uintptr_t *)fp)[1];
    if (rec_is_root_frame(ra)) return 1;
    uint64_t off;
    if (!ra || !rec_loadmap_lookup(ra, &off)) return 0;
    t->frames[(*n)++] = ra;
    if (next <= fp) return 0;
    fp = next;
  }
  return 0;
}

rec_unwind_status rec_unwind(rec_thread *t, void *ucv, int *n) {
  ucontext_t *uc = ucv;
  *n = 0;
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
  if (rec_is_root_frame(pc)) return REC_UNW_ROOT;
  t->frames[(*n)++] = pc;
  if (unw.init) {
    unw_cursor_t cur;
    if (unw.init(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) == 0) {
      for (;;) {
        int r = unw.step(&cur);
        unw_word_t ip = 0, bp = 0;
        if (r > 0 && unw.get_reg(&cur, UNW_REG_IP, &ip) == 0) {
          /* the frame a signal interrupted (libunwind marks it after stepping
           * through the trampoline): its ip is the instruction, not a return
           * address; + 1 undoes the callers' - 1 (sample.c) */
          int interrupted = unw.is_signal_frame && unw.is_signal_frame(&cur) > 0;
          if (rec_is_root_frame(ip)) return REC_UNW_ROOT;
          if (*n == REC_MAX_DEPTH) break;
          t->frames[(*n)++] = ip + (interrupted ? 1 : 0);
          continue;
        }
        if (r == 0) break; /* the outermost frame, but not the root */
        t->unwind_failed++;
        unw.get_reg(&cur, UNW_X86_64_RBP, &bp);
        if (walk_frame_pointers(t, bp, n)) {
          t->fp_recovered++;
          return REC_UNW_ROOT;
        }
        break;
      }
      return REC_UNW_PARTIAL;
    }
  }
  return walk_frame_pointers(t, fp, n) ? REC_UNW_ROOT : REC_UNW_PARTIAL;
}
