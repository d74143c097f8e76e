/* SPDX-License-Identifier: BSD-3-Clause */
/* Placeholder roles and names, as hpcrun defines the codes (its
 * placeholders.h) and hpcprof names them (its get_placeholder_name); the
 * one decoder of the 8 packed characters (code_of). */
#include "hpcrun/hpcrun_placeholders.h"

#include <stdio.h>
#include <string.h>

static void code_of(uint64_t ip, char code[9]) {
  for (int i = 0; i < 8; i++) code[i] = (char)(ip >> (56 - 8 * i));
  code[8] = '\0';
}

placeholder_role hpcrun_placeholder_role(uint64_t ip) {
  char code[9];
  code_of(ip, code);
  if (!memcmp(code, "^Primary", 8)) return PH_ROOT;
  if (!memcmp(code, "NoActvty", 8)) return PH_IDLE;
  if (!memcmp(code, "^Partial", 8)) return PH_PARTIAL;
  if (!memcmp(code, "*Unnorm ", 8)) return PH_UNNORM;
  if (!memcmp(code, "| Main  ", 8)) return PH_MAIN;
  if (!memcmp(code, "| Thread", 8)) return PH_THREAD;
  return PH_FRAME;
}

static const struct {
  char code[9];
  const char *name;
} standard[] = {
    {"| Main  ", "<program root>"},     {"| Thread", "<thread root>"},
    {"OMP Idle", "<omp idle>"},         {"OMPOvrHd", "<omp overhead>"},
    {"OMPBarrW", "<omp barrier wait>"}, {"OMPTaskW", "<omp task wait>"},
    {"OMPMtexW", "<omp mutex wait>"},   {"OMPUresv", "<omp region unresolved>"},
    {"OMTAlloc", "<omp tgt alloc>"},    {"OMTDelte", "<omp tgt delete>"},
    {"OMTCpIn ", "<omp tgt copyin>"},   {"OMTCpOut", "<omp tgt copyout>"},
    {"OMTKernl", "<omp tgt kernel>"},   {"GPUCp?2?", "<gpu copy>"},
    {"GPUCpH2D", "<gpu copyin>"},       {"GPUCpD2H", "<gpu copyout>"},
    {"GPUAlloc", "<gpu alloc>"},        {"GPUDelte", "<gpu delete>"},
    {"GPUKernl", "<gpu kernel>"},       {"GPUMemst", "<gpu memset>"},
    {"GPU Sync", "<gpu sync>"},         {"GPUTrace", "<gpu kernel>"}, /* a kernel seen in a GPU stream's trace */
};

const char *hpcrun_placeholder_name(uint64_t ip, char buf[33]) {
  char code[9];
  code_of(ip, code);
  for (size_t i = 0; i < sizeof standard / sizeof *standard; i++)
    if (!memcmp(code, standard[i].code, 8)) return standard[i].name;
  size_t n = 0;
  for (int i = 0; i < 8; i++) {
    unsigned char c = (unsigned char)code[i];
    if (c >= 0x20 && c < 0x7f) buf[n++] = (char)c;
    else n += (size_t)snprintf(buf + n, 33 - n, "\\%2x", c); /* hpcprof's fallback: width 2, space-filled */
  }
  buf[n] = '\0';
  return buf;
}

void hpcrun_placeholder_label(uint64_t ip, char label[9]) {
  char code[9];
  code_of(ip, code);
  int n = 0;
  for (int i = 0; i < 8; i++) {
    unsigned char ch = (unsigned char)code[i];
    label[n++] = (ch >= 0x20 && ch < 0x7f) || ch == 0 ? (char)ch : '?';
  }
  while (n > 0 && (label[n - 1] == ' ' || label[n - 1] == '\0')) n--;
  label[n] = '\0';
  for (int i = 0; i < n; i++)
    if (label[i] == '\0') label[i] = '?';
}
