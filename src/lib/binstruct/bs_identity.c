/* SPDX-License-Identifier: BSD-3-Clause */
/* A binary's identity for caching its structure file: build id and a hash
 * of its content (a rebuilt binary without a build id still differs). */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <unistd.h>

#include "common/error.h"
#include "common/hashmap.h"
#include "common/mapped_file.h"
#include "hpcdb/binstruct.h"

int hpcdb_binstruct_identity(const char *binary_path, char *buf, size_t size) {
  if (!binary_path || !buf || size < 96) return hpcdb_fail(HPCDB_EINVAL, "identity: bad arguments");
  hpcdb_mapped_file m;
  HPCDB_TRY(mapped_file_open(&m, binary_path));
  char id[129] = "";
  elf_version(EV_CURRENT);
  Elf *e = m.len ? elf_memory(m.owned, (size_t)m.len) : NULL;
  if (e && elf_kind(e) == ELF_K_ELF) {
    const void *bid = NULL;
    ssize_t n = dwelf_elf_gnu_build_id(e, &bid);
    for (ssize_t i = 0; bid && n > 0 && n <= 64 && i < n; i++)
      snprintf(id + 2 * i, 3, "%02x", ((const uint8_t *)bid)[i]);
  }
  if (e) elf_end(e);
  uint64_t h = m.len ? hash_bytes(m.data, (size_t)m.len) : 0;
  snprintf(buf, size, "%s-%016" PRIx64, id[0] ? id : "nobuildid", h);
  mapped_file_close(&m);
  return 0;
}
