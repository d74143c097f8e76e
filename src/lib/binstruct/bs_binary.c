/* SPDX-License-Identifier: BSD-3-Clause */
/* Opening a binary: its ELF, its DWARF (in the file or a split debug file
 * found by build id or debug link), and its executable sections. */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binstruct/bs_debuginfod.h"
#include "binstruct/bs_internal.h"
#include "common/decompress.h"
#include "common/error.h"

#define MAX_IMAGE (2ull << 30) /* a decompressed binary held in memory */

static int code_cmp(const void *a, const void *b) {
  const bs_code *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

uint64_t bs_section_base(const bs_binary *b, const GElf_Shdr *sh) {
  /* CUDA binaries leave every section at address 0; hpcstruct (and hpcrun's
   * GPU samples) place each at its offset in the file */
  return b->machine == EM_CUDA ? sh->sh_offset : sh->sh_addr;
}

static int read_code_sections(bs_binary *b) {
  size_t nsec = 0;
  if (elf_getshdrnum(b->elf, &nsec) != 0) return bs_dwarf_out_of_memory("the section headers");
  b->code = calloc(nsec ? nsec : 1, sizeof *b->code);
  if (!b->code) return hpcdb_fail(HPCDB_ENOMEM, "%s: out of memory", b->path);
  for (Elf_Scn *scn = elf_nextscn(b->elf, NULL); scn; scn = elf_nextscn(b->elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS) continue;
    if (!(sh.sh_flags & SHF_EXECINSTR) || !(sh.sh_flags & SHF_ALLOC)) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || !d->d_buf || d->d_size == 0 || b->n_code >= nsec) continue;
    uint64_t addr = bs_section_base(b, &sh);
    if (addr > UINT64_MAX - d->d_size) continue;
    b->code[b->n_code++] = (bs_code){addr, d->d_size, d->d_buf};
  }
  if (b->n_code > 1) qsort(b->code, b->n_code, sizeof *b->code, code_cmp);
  return bs_dwarf_out_of_memory("the code sections"); /* a section skipped for want of memory */
}

static void read_build_id(bs_binary *b) {
  const void *id = NULL;
  ssize_t n = dwelf_elf_gnu_build_id(b->elf, &id);
  b->build_id[0] = '\0';
  if (n <= 0 || n > 64 || !id) return;
  const uint8_t *p = id;
  for (ssize_t i = 0; i < n; i++) snprintf(b->build_id + 2 * i, 3, "%02x", p[i]);
}

/* Opens path as a debug file if it has DWARF; 1 when it did. */
static int try_debug_file(bs_binary *b, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
  Dwarf *dw = e ? dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
  if (!dw) {
    if (e) elf_end(e);
    close(fd);
    return 0;
  }
  b->debug_fd = fd;
  snprintf(b->debug_path, sizeof b->debug_path, "%s", path);
  b->debug_elf = e;
  b->dwarf = dw;
  return 1;
}

/* .gnu_debuglink: the file it names beside the binary's path under root, or in .debug/ beside the binary. */
static int try_debug_link(bs_binary *b, const char *root, const char *link) {
  char path[4096];
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", b->path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  else snprintf(dir, sizeof dir, ".");
  snprintf(path, sizeof path, "%s/%s%s/%s", root, dir[0] == '/' ? "" : "/", dir, link);
  if (try_debug_file(b, path)) return 1;
  snprintf(path, sizeof path, "%s/.debug/%s", dir, link);
  return try_debug_file(b, path);
}

/* A split debug file: by build id under root, by .gnu_debuglink, else from debuginfod servers. */
static void find_split_debug(bs_binary *b, const char *root) {
  char path[4096];
  size_t idlen = strlen(b->build_id);
  if (idlen > 2) {
    snprintf(path, sizeof path, "%s/.build-id/%.2s/%s.debug", root, b->build_id, b->build_id + 2);
    if (try_debug_file(b, path)) return;
  }
  GElf_Word crc;
  const char *link = dwelf_elf_gnu_debuglink(b->elf, &crc);
  if (link && !strchr(link, '/') && try_debug_link(b, root, link)) return;
  if (bs_debuginfod_find(b->build_id, path, sizeof path)) try_debug_file(b, path);
}

int bs_binary_open(bs_binary *b, const char *path, const char *debug_root) {
  memset(b, 0, sizeof *b);
  b->path = path;
  b->fd = b->debug_fd = -1;
  elf_version(EV_CURRENT);
  b->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (b->fd < 0) return hpcdb_fail(HPCDB_EIO, "%s: %s", path, strerror(errno));
  if (decompress_file_is_compressed(path)) { /* libdwfl's users get these too */
    size_t len;
    int rc = decompress_file(path, MAX_IMAGE, &b->image, &len);
    if (rc < 0) {
      bs_binary_close(b);
      return rc;
    }
    b->image_len = len;
    b->elf = elf_memory(b->image, len);
  } else {
    b->elf = elf_begin(b->fd, ELF_C_READ_MMAP, NULL);
  }
  if (!b->elf || elf_kind(b->elf) != ELF_K_ELF) {
    int rc = bs_dwarf_out_of_memory("the ELF header");
    const char *what = b->image ? " (once decompressed)" : "";
    bs_binary_close(b);
    return rc < 0 ? rc : hpcdb_fail(HPCDB_ENOTFORMAT, "%s: not an ELF file%s", path, what);
  }
  GElf_Ehdr eh;
  if (!gelf_getehdr(b->elf, &eh)) {
    bs_binary_close(b);
    return hpcdb_fail(HPCDB_ECORRUPT, "%s: ELF header: offset 0x0: unreadable: %s", path, elf_errmsg(-1));
  }
  /* a truncated file (a copy cut short) ends before its header tables: refused, not read as empty */
  struct stat st;
  uint64_t sh_end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
  uint64_t ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
  int sized = b->image || fstat(b->fd, &st) == 0;
  uint64_t size = b->image ? b->image_len : sized ? (uint64_t)st.st_size : 0;
  if (sized && (sh_end > size || ph_end > size)) {
    const char *what = b->image ? " once decompressed" : "";
    bs_binary_close(b);
    return hpcdb_fail(HPCDB_ETRUNCATED,
                      "%s: ELF header: offset 0x%llx: truncated: the %s table ends past the file's %llu bytes%s", path,
                      (unsigned long long)(sh_end > size ? eh.e_shoff : eh.e_phoff),
                      sh_end > size ? "section header" : "program header", (unsigned long long)size, what);
  }
  b->machine = eh.e_machine;
  read_build_id(b);
  int rc = read_code_sections(b);
  if (rc < 0) {
    bs_binary_close(b);
    return rc;
  }
  b->dwarf = dwarf_begin_elf(b->elf, DWARF_C_READ, NULL);
  if (b->dwarf) {
    /* a file with .debug_* sections but no compile unit (e.g. only
     * .debug_frame left by strip -g) counts as having none */
    Dwarf_Off next;
    size_t hsize;
    if (dwarf_nextcu(b->dwarf, 0, &next, &hsize, NULL, NULL, NULL) != 0) {
      dwarf_end(b->dwarf);
      b->dwarf = NULL;
    }
  }
  /* not "no DWARF", nor a section libdw left out after a failed allocation it did not report */
  if ((rc = bs_dwarf_out_of_memory("the debug information")) < 0) {
    bs_binary_close(b);
    return rc;
  }
  if (!b->dwarf) find_split_debug(b, debug_root ? debug_root : "/usr/lib/debug");
  return 0;
}

void bs_binary_close(bs_binary *b) {
  if (b->dwarf) dwarf_end(b->dwarf);
  if (b->debug_elf) elf_end(b->debug_elf);
  if (b->debug_fd >= 0) close(b->debug_fd);
  if (b->elf) elf_end(b->elf);
  if (b->fd >= 0) close(b->fd);
  free(b->code);
  free(b->image);
  b->image = NULL;
  b->dwarf = NULL;
  b->debug_elf = b->elf = NULL;
  b->code = NULL;
  b->fd = b->debug_fd = -1;
}

const uint8_t *bs_binary_code_at(const bs_binary *b, uint64_t addr, uint64_t *len) {
  size_t lo = 0, hi = b->n_code; /* first section with addr > addr */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (b->code[mid].addr <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const bs_code *c = &b->code[lo - 1];
  uint64_t off = addr - c->addr;
  if (off >= c->size) return NULL;
  if (*len > c->size - off) *len = c->size - off;
  return c->bytes + off;
}
