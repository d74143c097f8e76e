/* SPDX-License-Identifier: BSD-3-Clause */
/* Procedures of code DWARF does not describe: what the symbol tables name,
 * then every function the unwind tables describe (a stripped binary keeps
 * them: the unwinder needs them), so that each address of a function
 * without a symbol maps to one procedure rather than one per address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_code_procs.h"
#include "common/error.h"
#include "common/hashmap.h"
#include "common/vec.h"

void bs_unknown_proc_names(uint64_t addr, char name[64], char link[64]) {
  snprintf(name, 64, "<unknown procedure> 0x%llx", (unsigned long long)addr);
  snprintf(link, 64, "targ%llx", (unsigned long long)addr);
}

typedef struct draft {
  uint64_t lo, hi;
  const char *name, *link;
  int64_t owner; /* a fragment joined to: the draft index; -1: a procedure itself */
} draft;

static int draft_cmp(const void *a, const void *b) {
  const draft *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The draft whose range holds addr (drafts sorted, not overlapping), or -1. */
static int64_t draft_at(const draft *d, size_t n, uint64_t addr) {
  size_t lo = 0, hi = n; /* first with lo > addr */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (d[mid].lo <= addr) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && addr < d[lo - 1].hi ? (int64_t)lo - 1 : -1;
}

/* Does [lo, hi) overlap a symbol? (sorted, not overlapping) */
static int overlaps_symbol(const bs_symbol *s, size_t n, uint64_t lo, uint64_t hi) {
  size_t a = 0, b = n; /* first symbol starting at or after hi */
  while (a < b) {
    size_t mid = a + (b - a) / 2;
    if (s[mid].addr < hi) a = mid + 1;
    else b = mid;
  }
  return a > 0 && s[a - 1].addr + s[a - 1].size > lo;
}

/* Decodes [lo, hi) and calls fn with each direct jump's target outside it;
 * fn returns nonzero to stop. */
static int each_jump_out(const bs_binary *b, bs_decoder *d, uint64_t lo, uint64_t hi,
                         int (*fn)(void *user, uint64_t target), void *user) {
  uint64_t len = hi - lo;
  const uint8_t *bytes = bs_binary_code_at(b, lo, &len);
  if (!bytes) return 0;
  bs_insn *in = NULL;
  uint64_t count = 0, cap = 0;
  int rc = bs_decode(d, bytes, len, lo, &in, &count, &cap);
  for (uint64_t i = 0; rc == 0 && i < count; i++)
    if ((in[i].flow == BS_FLOW_JUMP || in[i].flow == BS_FLOW_COND) && in[i].target &&
        (in[i].target < lo || in[i].target >= hi) && fn(user, in[i].target))
      break;
  free(in);
  return rc;
}

typedef struct joining {
  draft *d;
  size_t n;
  int64_t self;    /* the draft whose code is decoded */
  uint64_t joined; /* fragments given an owner */
} joining;

/* A fragment jumping back into the middle of a procedure (not to its entry:
 * a tail call) is part of it. */
static int join_back(void *user, uint64_t target) {
  joining *j = user;
  int64_t k = draft_at(j->d, j->n, target);
  if (k < 0 || j->d[k].owner != -1 || j->d[k].lo == target) return 0;
  j->d[j->self].owner = k;
  j->joined++;
  return 1;
}

/* A procedure jumping into a fragment (still without owner) owns it. */
static int join_into(void *user, uint64_t target) {
  joining *j = user;
  int64_t k = draft_at(j->d, j->n, target);
  if (k >= 0 && j->d[k].owner == -2) j->d[k].owner = j->self, j->joined++;
  return 0;
}

/* Whether x86-64 code at [lo, hi) may hold a jump (jmp rel32/rel8, jcc
 * rel32/rel8) to one of the fragment starts in starts: a scan of the bytes
 * at every offset, so that only the procedures it finds are decoded (a
 * byte that merely looks like one costs a decode, never a wrong answer). */
static int may_jump_to(const bs_binary *b, uint64_t lo, uint64_t hi, const hpcdb_u64map *starts) {
  uint64_t len = hi - lo, v;
  const uint8_t *c = bs_binary_code_at(b, lo, &len);
  for (uint64_t i = 0; c && i + 2 <= len; i++) {
    int64_t rel;
    uint64_t next;
    if (c[i] == 0xe9 && i + 5 <= len)
      rel =
          (int32_t)((uint32_t)c[i + 1] | (uint32_t)c[i + 2] << 8 | (uint32_t)c[i + 3] << 16 | (uint32_t)c[i + 4] << 24),
      next = i + 5;
    else if (c[i] == 0x0f && (c[i + 1] & 0xf0) == 0x80 && i + 6 <= len)
      rel =
          (int32_t)((uint32_t)c[i + 2] | (uint32_t)c[i + 3] << 8 | (uint32_t)c[i + 4] << 16 | (uint32_t)c[i + 5] << 24),
      next = i + 6;
    else if (c[i] == 0xeb || (c[i] & 0xf0) == 0x70) rel = (int8_t)c[i + 1], next = i + 2;
    else continue;
    if (u64map_get(starts, lo + next + (uint64_t)rel, &v)) return 1;
  }
  return 0;
}

/* Each fragment to the procedure it jumps back into, else to one that jumps
 * into it (a fragment ending in a throw or an abort never jumps back);
 * fragments no procedure reaches are procedures of their own. On x86-64
 * only the procedures whose bytes may jump to a fragment's start are
 * decoded for the second. */
static int join_fragments(const bs_binary *b, bs_decoder *dec, draft *d, size_t n, uint64_t *joined) {
  joining j = {d, n, 0, 0};
  size_t pending = 0;
  for (size_t i = 0; i < n; i++)
    if (d[i].owner == -2 && dec) {
      j.self = (int64_t)i;
      HPCDB_TRY(each_jump_out(b, dec, d[i].lo, d[i].hi, join_back, &j));
      pending += d[i].owner == -2;
    }
  hpcdb_u64map starts = {0};
  for (size_t i = 0; i < n && pending > 0 && b->machine == EM_X86_64; i++)
    if (d[i].owner == -2 && u64map_put(&starts, d[i].lo, i) < 0) {
      u64map_free(&starts);
      return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    }
  for (size_t i = 0; i < n && pending > 0 && dec; i++) {
    if (d[i].owner != -1 || (b->machine == EM_X86_64 && !may_jump_to(b, d[i].lo, d[i].hi, &starts))) continue;
    uint64_t before = j.joined;
    j.self = (int64_t)i;
    int rc = each_jump_out(b, dec, d[i].lo, d[i].hi, join_into, &j);
    if (rc < 0) {
      u64map_free(&starts);
      return rc;
    }
    pending -= j.joined - before;
  }
  u64map_free(&starts);
  for (size_t i = 0; i < n; i++)
    if (d[i].owner == -2) d[i].owner = -1;
  *joined = j.joined;
  return 0;
}

/* Whether [lo, hi) overlaps a PLT section: its FDE covers the lazy-binding
 * header and stubs, which are procedures of their own or none (bs_symbols.c). */
static int in_plt(const bs_binary *b, uint64_t lo, uint64_t hi) {
  size_t shstrndx;
  if (elf_getshdrstrndx(b->elf, &shstrndx) != 0) return 0;
  for (Elf_Scn *scn = elf_nextscn(b->elf, NULL); scn; scn = elf_nextscn(b->elf, scn)) {
    GElf_Shdr sh;
    const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(b->elf, shstrndx, sh.sh_name) : NULL;
    if (name && !strncmp(name, ".plt", 4) && sh.sh_addr < hi && lo < sh.sh_addr + sh.sh_size) return 1;
  }
  return 0;
}

static int add_frames(bs_code_procs *out, const bs_binary *b, const bs_symbol *syms, size_t n_syms, const bs_frame *fr,
                      size_t n_fr, uint64_t main_at, draft **d, uint64_t *n, uint64_t *cap) {
  uint64_t end = 0; /* of the last FDE taken: of FDEs that overlap (damaged tables), the first */
  for (size_t i = 0; i < n_fr; i++) {
    if (fr[i].lo < end || overlaps_symbol(syms, n_syms, fr[i].lo, fr[i].hi) || in_plt(b, fr[i].lo, fr[i].hi)) continue;
    end = fr[i].hi;
    char name[64], link[64];
    bs_unknown_proc_names(fr[i].lo, name, link);
    int is_main = fr[i].lo == main_at && fr[i].entry; /* a symbol's name: no link name */
    char *nm = arena_strndup(&out->names, is_main ? "main" : name, strlen(is_main ? "main" : name));
    char *ln = is_main ? NULL : arena_strndup(&out->names, link, strlen(link));
    if (!nm || (!is_main && !ln)) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
    HPCDB_TRY(VEC_RESERVE(d, cap, *n + 1));
    (*d)[(*n)++] = (draft){fr[i].lo, fr[i].hi, nm, ln, fr[i].entry ? -1 : -2};
    out->fragments += !fr[i].entry;
  }
  return 0;
}

/* Lays the drafts out as procedures (fragments' ranges after their owner's). */
static int lay_out(bs_code_procs *out, draft *d, size_t n) {
  out->procs = malloc((n ? n : 1) * sizeof *out->procs);
  out->ranges = malloc((n ? n : 1) * sizeof *out->ranges);
  uint32_t *next = calloc(n ? n : 1, sizeof *next); /* per owner: joined fragments, linked */
  uint32_t *head = calloc(n ? n : 1, sizeof *head);
  if (!out->procs || !out->ranges || !next || !head) {
    free(next), free(head);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  }
  for (size_t i = n; i-- > 0;)
    if (d[i].owner >= 0) next[i] = head[d[i].owner], head[d[i].owner] = (uint32_t)i + 1;
  size_t r = 0;
  for (size_t i = 0; i < n; i++) {
    if (d[i].owner >= 0) continue;
    bs_code_proc *p = &out->procs[out->n++];
    *p = (bs_code_proc){d[i].name, d[i].link, d[i].lo, (uint32_t)r, 1};
    out->ranges[r++] = (bs_range){d[i].lo, d[i].hi};
    for (uint32_t k = head[i]; k; k = next[k - 1], p->n_ranges++)
      out->ranges[r++] = (bs_range){d[k - 1].lo, d[k - 1].hi};
  }
  free(next), free(head);
  return 0;
}

int bs_code_procs_read(const bs_binary *b, bs_decoder *dec, bs_code_procs *out) {
  memset(out, 0, sizeof *out);
  bs_symbol *syms = NULL;
  bs_frame *fr = NULL;
  size_t n_syms = 0, n_fr = 0;
  draft *d = NULL;
  uint64_t n = 0, cap = 0;
  int rc = bs_symbols_read(b, &out->names, &syms, &n_syms);
  if (rc == 0) rc = bs_frames_read(b, &fr, &n_fr);
  out->frames = n_fr;
  if (rc == 0) rc = VEC_RESERVE(&d, &cap, n_syms + 1);
  for (size_t i = 0; rc == 0 && i < n_syms; i++)
    d[n++] = (draft){syms[i].addr, syms[i].addr + syms[i].size, syms[i].name, NULL, -1};
  if (rc == 0) rc = add_frames(out, b, syms, n_syms, fr, n_fr, bs_entry_main(b, dec), &d, &n, &cap);
  if (rc == 0 && n > 1) qsort(d, n, sizeof *d, draft_cmp);
  if (rc == 0) rc = join_fragments(b, dec, d, n, &out->joined);
  if (rc == 0) rc = lay_out(out, d, n);
  free(syms), free(fr), free(d);
  if (rc < 0) bs_code_procs_free(out);
  return rc;
}

void bs_code_procs_free(bs_code_procs *p) {
  free(p->procs);
  free(p->ranges);
  arena_free(&p->names);
  memset(p, 0, sizeof *p);
}

int bs_code_proc_add(bs_unit *u, const bs_code_procs *p, size_t i, const char *file) {
  const bs_code_proc *c = &p->procs[i];
  HPCDB_TRY(VEC_RESERVE(&u->funcs, &u->cap_funcs, u->n_funcs + 1));
  uint32_t first = (uint32_t)u->n_ranges;
  for (uint32_t k = 0; k < c->n_ranges; k++)
    HPCDB_TRY(bs_unit_add_range(u, p->ranges[c->first_range + k].lo, p->ranges[c->first_range + k].hi));
  const char *name = bs_intern(u, c->name), *link = c->link ? bs_intern(u, c->link) : NULL;
  const char *pretty = c->link ? NULL : bs_demangled(u, c->name);
  if (!name || (c->link && !link)) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  u->funcs[u->n_funcs++] = (bs_func){
      pretty ? pretty : name, c->link ? link : pretty ? name : NULL, file, 0, c->entry, first, c->n_ranges, 0, 0};
  return 0;
}
