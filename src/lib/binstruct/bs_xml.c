/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing HPCToolkit's structure XML: ids in document order (the document 0,
 * the load module 2, as hpcstruct numbers them), statements of a scope
 * first (by line), then its inner scopes (by lowest address). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "binstruct/bs_dtd.h"
#include "binstruct/bs_internal.h"
#include "common/error.h"

static void put_escaped(FILE *out, const char *s) {
  while (s && *s) {
    size_t run = strcspn(s,
                         "&<>\"'\x01\x02\x03\x04\x05\x06\x07\x08\x0a\x0b\x0c\x0d\x0e\x0f"
                         "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f");
    if (run) fwrite(s, 1, run, out);
    s += run;
    switch (*s) {
    case '\0': return;
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&apos;", out); break;
    default: fputc('?', out); /* control characters are not allowed in XML 1.0 */
    }
    s++;
  }
}

static int io_check(bs_xml *x) {
  return ferror(x->out) ? hpcdb_fail(HPCDB_EIO, "writing the structure file failed") : 0;
}

int bs_xml_begin(bs_xml *x, const char *lm_name) {
  fputs("<?xml version=\"1.0\"?>\n", x->out);
  fputs(bs_dtd, x->out);
  fputs("<HPCToolkitStructure i=\"0\" version=\"4.9\" n=\"\">\n<LM i=\"2\" n=\"", x->out);
  put_escaped(x->out, lm_name);
  fputs("\" has-calls=\"0\" v=\"{}\">\n", x->out);
  x->next_id = 3;
  return io_check(x);
}

int bs_xml_file_begin(bs_xml *x, const char *name) {
  fprintf(x->out, "<F i=\"%" PRIu64 "\" n=\"", x->next_id++);
  put_escaped(x->out, name);
  fputs("\">\n", x->out);
  return io_check(x);
}

int bs_xml_file_end(bs_xml *x) {
  fputs("</F>\n", x->out);
  return io_check(x);
}

int bs_xml_end(bs_xml *x) {
  fputs("</LM>\n</HPCToolkitStructure>\n", x->out);
  return io_check(x);
}

typedef struct kid {
  uint64_t min_addr;
  int32_t node;
} kid;

/* By node, then the node's own file first and the others by name, by line. */
static int stmt_cmp(const void *a, const void *b) {
  const bs_stmt *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  if (x->file != y->file) {
    if (!x->file || !y->file) return x->file ? 1 : -1;
    int c = strcmp(x->file, y->file);
    if (c) return c;
  }
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int kid_cmp(const void *a, const void *b) {
  const kid *x = a, *y = b;
  if (x->min_addr != y->min_addr) return x->min_addr < y->min_addr ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

static char *put_hex(char *p, uint64_t v) {
  char tmp[16];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  *p++ = '0';
  *p++ = 'x';
  while (n) *p++ = tmp[--n];
  return p;
}

/* "[0xlo-0xhi)" without printf: ranges are most of the file. */
static void put_range(FILE *out, uint64_t lo, uint64_t hi) {
  char buf[48], *p = buf;
  *p++ = '[';
  p = put_hex(p, lo);
  *p++ = '-';
  p = put_hex(p, hi);
  *p++ = ')';
  fwrite(buf, 1, (size_t)(p - buf), out);
}

static void open_node(bs_xml *x, const bs_node *n, const char *suffix) {
  FILE *o = x->out;
  uint64_t id = x->next_id++;
  switch (n->kind) {
  case BS_NODE_PROC:
    fprintf(o, "<P i=\"%" PRIu64 "\" n=\"", id);
    put_escaped(o, n->name);
    if (suffix) put_escaped(o, suffix);
    fputc('"', o);
    if (n->link_name || suffix) {
      fputs(" ln=\"", o);
      put_escaped(o, n->link_name ? n->link_name : n->name);
      fputc('"', o);
    }
    fprintf(o, " l=\"%u\" v=\"{", n->line);
    put_range(o, n->addr, n->addr + 1);
    fputs("}\">\n", o);
    break;
  case BS_NODE_CALLSITE:
  case BS_NODE_ALIEN:
    fprintf(o, "<A i=\"%" PRIu64 "\" l=\"%u\" f=\"", id, n->line);
    put_escaped(o, n->file);
    fputs("\" n=\"", o);
    put_escaped(o, n->name);
    fputs("\" v=\"{}\">\n", o);
    break;
  case BS_NODE_LOOP:
    fprintf(o, "<L i=\"%" PRIu64 "\" l=\"%u\" f=\"", id, n->line);
    put_escaped(o, n->file);
    fputs("\" v=\"{", o);
    put_range(o, n->addr, n->addr + 1);
    fputs("}\">\n", o);
    break;
  }
}

static const char *close_tag(const bs_node *n) {
  return n->kind == BS_NODE_PROC ? "</P>\n" : n->kind == BS_NODE_LOOP ? "</L>\n" : "</A>\n";
}

/* Statements of one file: one S per line, its ranges in address order. */
static void put_lines(bs_xml *x, const bs_stmt *s, uint64_t n) {
  for (uint64_t i = 0; i < n;) {
    uint64_t j = i;
    fprintf(x->out, "<S i=\"%" PRIu64 "\" l=\"%u\" v=\"{", x->next_id++, s[i].line);
    uint64_t lo = s[i].lo, hi = s[i].hi;
    for (j = i + 1; j < n && s[j].line == s[i].line; j++) {
      if (s[j].lo <= hi) {
        if (s[j].hi > hi) hi = s[j].hi;
        continue;
      }
      put_range(x->out, lo, hi);
      fputc(' ', x->out);
      lo = s[j].lo, hi = s[j].hi;
    }
    put_range(x->out, lo, hi);
    fputs("}\"/>\n", x->out);
    i = j;
  }
}

/* A guard alien, as hpcstruct writes one (Struct-Output.cpp, doTreeNode):
 * an <S> has no file of its own, so a line of another file than its scope's
 * (code #included into a function body, a #line naming a file) sits in an
 * <A n="<inline>"> naming that file and its first line; it is no scope. */
static void open_guard(bs_xml *x, const char *file, uint32_t line) {
  fprintf(x->out, "<A i=\"%" PRIu64 "\" l=\"%u\" f=\"", x->next_id++, line);
  put_escaped(x->out, file);
  fputs("\" n=\"&lt;inline&gt;\" v=\"{}\">\n", x->out);
}

/* A loop of another file than its scope's: in a guard too, as hpcstruct puts it. */
static int guarded_loop(const bs_proc *p, int32_t w) {
  const bs_node *n = &p->nodes[w], *up = &p->nodes[n->parent];
  return n->kind == BS_NODE_LOOP && n->file && up->file && strcmp(n->file, up->file) != 0;
}

/* The statements of one node (sorted by stmt_cmp): its own file's, then
 * those of each other file inside a guard. A procedure's or an inlined
 * callee's lines of its own file before its line go in a guard of that file
 * too (doTreeNode: hpcprof "reacts badly" to earlier lines in a scope); a
 * line 0 needs none. */
static void put_stmts(bs_xml *x, const bs_node *node, const bs_stmt *s, uint64_t n) {
  if (n == 0) return; /* s may be past a NULL array: nothing to read */
  uint64_t own = 0, unknown = 0, early;
  while (own < n && !s[own].file) own++;
  while (unknown < own && s[unknown].line == 0) unknown++;
  int lined = node->kind == BS_NODE_PROC || node->kind == BS_NODE_ALIEN;
  for (early = unknown; lined && early < own && s[early].line < node->line;) early++;
  put_lines(x, s, unknown);
  put_lines(x, s + early, own - early);
  if (early > unknown) {
    open_guard(x, node->file, s[unknown].line);
    put_lines(x, s + unknown, early - unknown);
    fputs("</A>\n", x->out);
  }
  for (uint64_t i = own; i < n;) {
    uint64_t j = i + 1;
    while (j < n && !strcmp(s[j].file, s[i].file)) j++;
    open_guard(x, s[i].file, s[i].line);
    put_lines(x, s + i, j - i);
    fputs("</A>\n", x->out);
    i = j;
  }
}

/* A node's first statement; a procedure without statements has no array
 * (no pointer arithmetic on NULL). */
static const bs_stmt *node_stmts(const bs_proc *p, uint64_t first) { return p->stmts ? p->stmts + first : NULL; }

/* A statement's file NULL where a reader takes the node's (the same file,
 * or no line to place). */
static void own_files(bs_proc *p) {
  for (uint64_t i = 0; i < p->n_stmts; i++) {
    bs_stmt *st = &p->stmts[i];
    const char *nf = p->nodes[st->node].file;
    if (st->file && (st->line == 0 || !nf || st->file == nf || !strcmp(st->file, nf))) st->file = NULL;
  }
}

int bs_xml_proc(bs_xml *x, bs_proc *p, const char *name_suffix) {
  uint64_t nn = p->n_nodes;
  if (nn == 0) return 0;
  own_files(p);
  if (p->n_stmts > 1) qsort(p->stmts, p->n_stmts, sizeof *p->stmts, stmt_cmp);
  uint64_t *stmt_first = calloc(nn + 1, sizeof *stmt_first);
  kid *kids = malloc(nn * sizeof *kids);
  int32_t *stack = malloc(nn * sizeof *stack);
  uint64_t *kid_first = calloc(nn + 1, sizeof *kid_first), *next = calloc(nn, sizeof *next);
  if (!stmt_first || !kids || !stack || !kid_first || !next) {
    free(stmt_first), free(kids), free(stack), free(kid_first), free(next);
    return hpcdb_fail(HPCDB_ENOMEM, "out of memory writing a procedure");
  }
  for (uint64_t i = 0; i < p->n_stmts; i++) stmt_first[p->stmts[i].node + 1]++;
  for (uint64_t i = 0; i < nn; i++) stmt_first[i + 1] += stmt_first[i];
  for (uint64_t i = 1; i < nn; i++) kid_first[p->nodes[i].parent + 1]++;
  for (uint64_t i = 0; i < nn; i++) kid_first[i + 1] += kid_first[i];
  for (uint64_t i = 1; i < nn; i++)
    kids[kid_first[p->nodes[i].parent] + next[p->nodes[i].parent]++] = (kid){p->nodes[i].min_addr, (int32_t)i};
  for (uint64_t i = 0; i < nn; i++)
    if (kid_first[i + 1] - kid_first[i] > 1)
      qsort(kids + kid_first[i], kid_first[i + 1] - kid_first[i], sizeof *kids, kid_cmp);
  memset(next, 0, nn * sizeof *next);
  uint64_t sp = 0;
  stack[sp++] = 0;
  open_node(x, &p->nodes[0], name_suffix);
  put_stmts(x, &p->nodes[0], node_stmts(p, stmt_first[0]), stmt_first[1] - stmt_first[0]);
  while (sp) {
    int32_t v = stack[sp - 1];
    if (kid_first[v] + next[v] < kid_first[v + 1]) {
      int32_t w = kids[kid_first[v] + next[v]++].node;
      if (guarded_loop(p, w)) open_guard(x, p->nodes[w].file, p->nodes[w].line);
      open_node(x, &p->nodes[w], NULL);
      put_stmts(x, &p->nodes[w], node_stmts(p, stmt_first[w]), stmt_first[w + 1] - stmt_first[w]);
      stack[sp++] = w;
    } else {
      fputs(close_tag(&p->nodes[v]), x->out);
      if (v && guarded_loop(p, v)) fputs("</A>\n", x->out);
      sp--;
    }
  }
  free(stmt_first), free(kids), free(stack), free(kid_first), free(next);
  return io_check(x);
}
