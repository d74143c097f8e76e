/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel frames: a measurement whose load map holds hpcrun's "<vmlinux.HASH>"
 * and whose kernel_symbols/ keeps that kernel's symbols gets, as hpcprof, a
 * function context "NAME [MODULE] <vmlinux>" for each kernel frame (the text
 * symbol at or before its address, reaching to the next text symbol), with
 * the instruction as a hidden child holding the value; without the symbols
 * file the frame stays an instruction. Newer hpcrun's module name
 * "kernel_symbols/vmlinux.HASH" gives "NAME [vmlinux]", from kallsyms stored
 * xz-, gzip- or bzip2-compressed (as HPCToolkit's test data keeps it) or from
 * a vmlinux ELF image (compressed too); a damaged compressed file is a
 * warning naming it (the frames stay addresses). */
#include <gelf.h>
#include <libelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hpcdb/hpcdb.h"
#include "hpcrun/hpcrun_file.h"
#include "testlib.h"

static hpcrun_str str(const char *s) { return (hpcrun_str){s, (uint32_t)strlen(s)}; }

static uint64_t packed(const char name[8]) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | (uint8_t)name[i];
  return v;
}

/* One thread: main -> app frame -> kernel frames at the given addresses (leaves, value 1 each). */
static int write_measurement(const char *dir, const char *kernel_module) {
  hpcrun_file f;
  memset(&f, 0, sizeof f);
  memcpy(f.version, "04.00", 6);
  f.major = 4;
  hpcrun_nvpair pairs[] = {{str("program-name"), str("kernel-test")}};
  f.header = (hpcrun_nvlist){1, pairs};
  hpcrun_lm_entry lms[2] = {{1, str("/opt/app"), 1}, {2, str(kernel_module), 1}};
  f.t.lm = lms;
  f.t.n_lm = 2;
  hpcrun_metric_desc m;
  memset(&m, 0, sizeof m);
  m.name = m.description = str("CPUTIME (sec)");
  m.flags[0] = 1;
  m.flags[2] = HPCRUN_VALFMT_REAL;
  m.flags[6] = m.flags[7] = 1;
  m.period = 1;
  m.formula = m.format = str("");
  f.t.metrics = &m;
  f.t.n_metrics = 1;
  f.t.metric_tail = 1;
  hpcrun_cct_node nodes[] = {
      {.id = 2, .parent = 0, .lm_id = 0, .ip = packed("^Primary"), .flags = 1},
      {.id = 4, .parent = 2, .lm_id = 0, .ip = packed("| Main  "), .flags = 1},
      {.id = 6, .parent = 4, .lm_id = 1, .ip = 0x1234, .flags = 1},
      {.id = 8, .parent = 6, .lm_id = 2, .ip = 0xffffffff81000010ull, .flags = 1},  /* in _stext */
      {.id = 10, .parent = 6, .lm_id = 2, .ip = 0xffffffff81000208ull, .flags = 1}, /* ext4_read, past a data symbol */
      {.id = 12, .parent = 6, .lm_id = 2, .ip = 0xffffffff81000300ull, .flags = 1}, /* the alias's address */
  };
  f.t.nodes = nodes;
  f.t.n_nodes = 6;
  uint64_t one;
  double v = 1;
  memcpy(&one, &v, sizeof one);
  uint64_t bits[3] = {one, one, one};
  uint16_t mids[3] = {0, 0, 0};
  uint32_t ctx_ids[4] = {8, 10, 12, HPCRUN_SPARSE_SENTINEL};
  uint64_t starts[4] = {0, 1, 2, 3};
  f.sparse = (hpcrun_sparse){0};
  f.sparse.value_bits = bits;
  f.sparse.metric_ids = mids;
  f.sparse.ctx_ids = ctx_ids;
  f.sparse.ctx_starts = starts;
  f.sparse.n_values = 3;
  f.sparse.n_nz_ctxs = 3;
  char path[4096];
  snprintf(path, sizeof path, "%s/kernel-test-000000-000-7f000001-1-0.hpcrun", dir);
  return hpcrun_file_write(&f, path);
}

/* The name of the function of the context one level above a value's hidden context. */
static const hpcdb_context *find_function(const hpcdb_experiment *e, const char *name) {
  for (uint32_t i = 0; i < e->n_contexts; i++) {
    const hpcdb_context *c = &e->contexts[i];
    if (c->function != HPCDB_NONE && !strcmp(e->functions[c->function].name, name)) return c;
  }
  return NULL;
}

/* A vmlinux image: an ELF file whose .symtab has the kernel's functions
 * (_stext and ext4_read at the addresses of the kallsyms above). */
static int write_vmlinux(const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return -1;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
  GElf_Ehdr eh;
  memset(&eh, 0, sizeof eh);
  int ok = e && gelf_newehdr(e, ELFCLASS64) && gelf_getehdr(e, &eh);
  if (ok) {
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_X86_64;
    eh.e_version = EV_CURRENT;
    static char strtab[] = "\0_stext\0ext4_read\0.symtab\0.strtab\0.text";
    static uint8_t code[0x300];
    Elf64_Sym syms[3] = {{0},
                         {1, STT_FUNC | STB_GLOBAL << 4, 0, 3, 0xffffffff81000000ull, 0x100},
                         {8, STT_FUNC | STB_GLOBAL << 4, 0, 3, 0xffffffff81000200ull, 0x100}};
    const struct {
      void *data;
      size_t size;
      Elf_Type type;
      GElf_Word sh_type, name, link;
    } secs[3] = {{syms, sizeof syms, ELF_T_SYM, SHT_SYMTAB, 18, 2},
                 {strtab, sizeof strtab, ELF_T_BYTE, SHT_STRTAB, 26, 0},
                 {code, sizeof code, ELF_T_BYTE, SHT_PROGBITS, 34, 0}};
    for (int i = 0; ok && i < 3; i++) {
      Elf_Scn *scn = elf_newscn(e);
      Elf_Data *d = scn ? elf_newdata(scn) : NULL;
      GElf_Shdr sh;
      ok = d && gelf_getshdr(scn, &sh);
      if (!ok) break;
      d->d_buf = secs[i].data, d->d_size = secs[i].size, d->d_type = secs[i].type, d->d_align = 8;
      sh.sh_type = secs[i].sh_type, sh.sh_name = secs[i].name, sh.sh_link = secs[i].link;
      sh.sh_entsize = secs[i].sh_type == SHT_SYMTAB ? sizeof(Elf64_Sym) : 0;
      sh.sh_info = secs[i].sh_type == SHT_SYMTAB ? 1 : 0; /* one past the last local */
      if (secs[i].sh_type == SHT_PROGBITS) sh.sh_flags = SHF_ALLOC | SHF_EXECINSTR, sh.sh_addr = 0xffffffff81000000ull;
      ok = gelf_update_shdr(scn, &sh);
    }
    eh.e_shstrndx = 2;
    ok = ok && gelf_update_ehdr(e, &eh) && elf_update(e, ELF_C_WRITE) >= 0;
  }
  if (e) elf_end(e);
  close(fd);
  return ok ? 0 : -1;
}

/* path compressed in place by a Debian compressor ("xz", "gzip", "bzip2"), under the same name. */
static int compress_in_place(const char *tool, const char *path) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "%s -c '%s' > '%s.z' && mv '%s.z' '%s'", tool, path, path, path, path);
  return system(cmd) == 0 ? 0 : -1;
}

/* Newer hpcrun's "kernel_symbols/vmlinux.HASH": kallsyms and a vmlinux image, each compressed three ways. */
static void newer_module_name(const char *dir, const char *kallsyms, size_t len) {
  static const char *tools[] = {"xz", "gzip", "bzip2"};
  for (int image = 0; image < 2; image++)
    for (int t = 0; t < 3; t++) {
      char meas[4096], syms[4096];
      snprintf(meas, sizeof meas, "%s/newer-%d-%s", dir, image, tools[t]);
      mkdir(meas, 0777);
      CHECK_RC(write_measurement(meas, "kernel_symbols/vmlinux.0badc0de"));
      snprintf(syms, sizeof syms, "%s/kernel_symbols", meas);
      mkdir(syms, 0777);
      snprintf(syms, sizeof syms, "%s/kernel_symbols/vmlinux.0badc0de", meas);
      CHECK_RC(image ? write_vmlinux(syms) : testlib_write_file(syms, kallsyms, len));
      CHECK_RC(compress_in_place(tools[t], syms));
      hpcdb_experiment *e;
      CHECK_RC(hpcdb_analyze(&e, meas, NULL, NULL, NULL, NULL));
      if (!e) continue;
      const hpcdb_context *st = find_function(e, "_stext [vmlinux]"),
                          *ex = find_function(e, "ext4_read [ext4] [vmlinux]");
      if (image) ex = find_function(e, "ext4_read [vmlinux]"); /* an image has no module column */
      CHECK(st && ex && !find_function(e, "_stext <vmlinux>"));
      if (!st || !ex)
        fprintf(stderr, "%s %s: kernel functions not named\n", image ? "vmlinux image" : "kallsyms", tools[t]);
      hpcdb_experiment_free(e);
    }
  /* damaged: xz's magic, then nothing xz can read */
  char meas[4096], syms[4096];
  snprintf(meas, sizeof meas, "%s/newer-damaged", dir);
  mkdir(meas, 0777);
  CHECK_RC(write_measurement(meas, "kernel_symbols/vmlinux.0badc0de"));
  snprintf(syms, sizeof syms, "%s/kernel_symbols", meas);
  mkdir(syms, 0777);
  snprintf(syms, sizeof syms, "%s/kernel_symbols/vmlinux.0badc0de", meas);
  static const char damaged[] =
      "\xfd"
      "7zXZ\0 not an xz stream at all, 64 bytes of it ...........";
  CHECK_RC(testlib_write_file(syms, damaged, sizeof damaged - 1));
  hpcdb_experiment *e = NULL;
  CHECK_RC(hpcdb_analyze(&e, meas, NULL, NULL, NULL, NULL));
  int warned = 0;
  for (uint32_t i = 0; e && i < e->n_warnings; i++)
    warned |= strstr(e->warnings[i], "vmlinux.0badc0de") && strstr(e->warnings[i], "stay addresses") != NULL;
  CHECK(e && warned && !find_function(e, "_stext [vmlinux]"));
  if (e) hpcdb_experiment_free(e);
}

int main(void) {
  const char *dir = testlib_tmpdir("kernel_symbols");
  char meas[4096], syms[4096];
  snprintf(meas, sizeof meas, "%s/meas", dir);
  mkdir(meas, 0777);
  CHECK_RC(write_measurement(meas, "<vmlinux.0badc0de>"));
  hpcdb_experiment *e;
  /* no kernel_symbols/: three instruction contexts */
  CHECK_RC(hpcdb_analyze(&e, meas, NULL, NULL, NULL, NULL));
  if (e) {
    CHECK(find_function(e, "_stext <vmlinux>") == NULL);
    uint32_t insns = 0;
    for (uint32_t i = 0; i < e->n_contexts; i++) insns += e->contexts[i].lexical_type == HPCDB_LEX_INSTRUCTION;
    CHECK(insns == 4);
    hpcdb_experiment_free(e);
  }
  snprintf(syms, sizeof syms, "%s/kernel_symbols", meas);
  mkdir(syms, 0777);
  snprintf(syms, sizeof syms, "%s/kernel_symbols/vmlinux.0badc0de", meas);
  static const char kallsyms[] =
      "ffffffff81000000 T _stext\n"
      "ffffffff81000100 D some_data\n"
      "ffffffff81000200 t ext4_read\t[ext4]\n"
      "not a line\n"
      "ffffffff81000300 T first_alias\n"
      "ffffffff81000300 T second_alias\n";
  CHECK_RC(testlib_write_file(syms, kallsyms, sizeof kallsyms - 1));
  CHECK_RC(hpcdb_analyze(&e, meas, NULL, NULL, NULL, NULL));
  if (e) {
    const hpcdb_context *st = find_function(e, "_stext <vmlinux>"),
                        *ex = find_function(e, "ext4_read [ext4] <vmlinux>");
    const hpcdb_context *al = find_function(e, "first_alias <vmlinux>");
    CHECK(st && ex && al && !find_function(e, "second_alias <vmlinux>") && !find_function(e, "some_data <vmlinux>"));
    if (st) {
      const hpcdb_function *fn = &e->functions[st->function];
      CHECK(fn->offset == 0xffffffff81000000ull && fn->file == HPCDB_NONE);
      CHECK(st->relation == HPCDB_REL_CALL && st->lexical_type == HPCDB_LEX_FUNCTION);
    }
    uint32_t insns = 0;
    for (uint32_t i = 0; i < e->n_contexts; i++) insns += e->contexts[i].lexical_type == HPCDB_LEX_INSTRUCTION;
    CHECK(insns == 1); /* only the app frame: the kernel's instructions are hidden */
    hpcdb_experiment_free(e);
  }
  newer_module_name(dir, kallsyms, sizeof kallsyms - 1);
  return TEST_END();
}
