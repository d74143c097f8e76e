/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading an alignment: which nodes are rows, node paths, finding nodes by
 * name, and why each run's context is (or is not) in a node (`hpcdb compare
 * --explain`). */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/common.h"
#include "hpcdb/compare.h"
#include "hpcdb/formats.h"
#include "hpcdb/model.h"
#include "query/align_keys.h"
#include "query/shown.h"

const char *hpcdb_match_name(int how) {
  switch (how) {
  case HPCDB_MATCH_ROOT: return "the root";
  case HPCDB_MATCH_ENTRY: return "entry point";
  case HPCDB_MATCH_NAME: return "function name";
  case HPCDB_MATCH_LINE: return "file and line";
  case HPCDB_MATCH_LINE_SHIFTED: return "file, line shifted";
  case HPCDB_MATCH_OFFSET: return "module offset";
  case HPCDB_MATCH_NAME_ACROSS: return "function name, across a frame one side has";
  default: return "absent";
  }
}

/* query/shown.h's rule in every run that has the node */
int hpcdb_align_hidden(const hpcdb_alignment *al, uint32_t node) {
  int runs = 0;
  for (uint32_t r = 0; r < al->n_runs; r++) {
    uint32_t ctx = al->ctx[(size_t)node * al->n_runs + r];
    if (ctx == HPCDB_NONE) continue;
    if (!query_hidden(al->runs[r], ctx, 0)) return 0;
    runs++;
  }
  return runs > 0;
}

/* A walk of node's subtree that goes down into hidden nodes only, back up by the parents (no stack). */
uint32_t hpcdb_align_shown_children(const hpcdb_alignment *al, uint32_t node, uint32_t *out, uint32_t max) {
  uint32_t n = 0, k = al->nodes[node].first_child;
  while (k != HPCDB_NONE) {
    if (hpcdb_align_hidden(al, k) && al->nodes[k].first_child != HPCDB_NONE) {
      k = al->nodes[k].first_child;
      continue;
    }
    if (!hpcdb_align_hidden(al, k) && n++ < max) out[n - 1] = k;
    while (al->nodes[k].next_sibling == HPCDB_NONE)
      if ((k = al->nodes[k].parent) == node) return n;
    k = al->nodes[k].next_sibling;
  }
  return n;
}

size_t hpcdb_align_path(const hpcdb_alignment *al, uint32_t node, char *buf, size_t size) {
  uint32_t chain[256];
  unsigned depth = 0;
  for (uint32_t n = node; n != HPCDB_NONE && n != 0 && depth < 256; n = al->nodes[n].parent)
    if (n == node || !hpcdb_align_hidden(al, n)) chain[depth++] = n;
  size_t len = 0;
  if (size) buf[0] = '\0';
  if (depth == 0) return (size_t)snprintf(buf, size, "%s", al->nodes[0].name);
  while (depth-- > 0) {
    len += (size_t)snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "%s%s",
                            al->nodes[chain[depth]].name, depth ? " > " : "");
  }
  return len;
}

/* The path's last len bytes equal name, at a " > " boundary or whole. */
static int path_ends_with(const char *path, size_t plen, const char *name, size_t len) {
  if (plen < len || memcmp(path + plen - len, name, len) != 0) return 0;
  return plen == len || (plen >= len + 3 && !memcmp(path + plen - len - 3, " > ", 3));
}

uint32_t hpcdb_align_find(const hpcdb_alignment *al, const char *name, uint32_t *out, uint32_t max) {
  uint32_t found = 0;
  size_t len = strlen(name);
  char path[4096], want[1024], have[1024];
  align_function_name(name, want, sizeof want); /* "MPI_Send" finds "PMPI_Send [libmpi.so]" too */
  for (uint32_t n = 0; n < al->n_nodes; n++) {
    int hit = !strcmp(al->nodes[n].name, name);
    if (!hit && al->nodes[n].is_frame) {
      align_function_name(al->nodes[n].name, have, sizeof have);
      hit = !strcmp(have, want);
    }
    if (!hit && strstr(name, " > ")) {
      size_t plen = hpcdb_align_path(al, n, path, sizeof path);
      hit = plen < sizeof path && path_ends_with(path, plen, name, len);
    }
    if (!hit) continue;
    if (found < max) out[found] = n;
    found++;
  }
  return found;
}

int hpcdb_align_explain(const hpcdb_alignment *al, uint32_t node, const char *const *run_names, hpcdb_explain_fn fn,
                        void *user) {
  if (node >= al->n_nodes) return hpcdb_fail(HPCDB_EINVAL, "no aligned node %u", node);
  char line[3072], label[2048], run[64];
  uint32_t maker = HPCDB_NONE;
  for (uint32_t r = 0; r < al->n_runs && maker == HPCDB_NONE; r++)
    if (al->ctx[(size_t)node * al->n_runs + r] != HPCDB_NONE) maker = r;
  for (uint32_t r = 0; r < al->n_runs; r++) {
    size_t k = (size_t)node * al->n_runs + r;
    const char *who = run_names && run_names[r] ? run_names[r] : (snprintf(run, sizeof run, "run %u", r + 1), run);
    if (al->ctx[k] == HPCDB_NONE) {
      uint32_t parent = al->nodes[node].parent;
      int parent_there = parent != HPCDB_NONE && al->ctx[(size_t)parent * al->n_runs + r] != HPCDB_NONE;
      snprintf(line, sizeof line, "%s: absent (%s)", who,
               parent_there ? "no context under the parent matched by any rule" : "its parent is absent too");
    } else {
      hpcdb_context_label(al->runs[r], al->ctx[k], label, sizeof label);
      const char *how = hpcdb_match_name(al->how[k]);
      if (r == maker)
        snprintf(line, sizeof line, "%s: context %u (%s) made the node; key: %s", who,
                 al->runs[r]->contexts[al->ctx[k]].id, label, how);
      else if (al->how[k] == HPCDB_MATCH_LINE_SHIFTED)
        snprintf(line, sizeof line, "%s: context %u (%s) matched by %s (%+d lines)", who,
                 al->runs[r]->contexts[al->ctx[k]].id, label, how, al->shift[k]);
      else
        snprintf(line, sizeof line, "%s: context %u (%s) matched by %s", who, al->runs[r]->contexts[al->ctx[k]].id,
                 label, how);
    }
    fn(user, line);
  }
  return 0;
}
