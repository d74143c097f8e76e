/* SPDX-License-Identifier: BSD-3-Clause */
/* Derived metrics: a strict recursive-descent parser from a formula to a
 * small stack program (expr.h). Every refusal names the offset and what was
 * expected there; nothing after a complete formula is ignored. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "hpcdb/common.h"
#include "hpcdb/model.h"
#include "hpcdb/query.h"
#include "query/expr.h"

#define MAX_DEPTH 64 /* nesting of parentheses and unary minus */

typedef struct parser {
  const char *text;
  size_t at;
  const hpcdb_experiment *exp;
  hpcdb_expr *e;
  unsigned depth;
  unsigned stack, max_stack; /* the evaluation stack's height, to size it */
} parser;

static int expr(parser *p);

static void skip_space(parser *p) {
  while (p->text[p->at] == ' ' || p->text[p->at] == '\t') p->at++;
}

static int fail(parser *p, const char *what) {
  char found[24];
  if (!p->text[p->at]) snprintf(found, sizeof found, "the end");
  else snprintf(found, sizeof found, "'%.12s'", p->text + p->at);
  return hpcdb_fail(HPCDB_EINVAL, "formula \"%s\": offset %zu: expected %s, found %s", p->text, p->at, what, found);
}

static int emit(parser *p, uint8_t op, double number, uint32_t input) {
  hpcdb_expr *e = p->e;
  if (e->n_ops == EXPR_MAX_OPS)
    return hpcdb_fail(HPCDB_EINVAL, "formula \"%s\": longer than %d steps", p->text, EXPR_MAX_OPS);
  e->ops[e->n_ops++] = (expr_op){op, number, input};
  if (op == EXPR_NUMBER || op == EXPR_INPUT) {
    if (++p->stack > p->max_stack) p->max_stack = p->stack;
  } else if (op != EXPR_NEG && op != EXPR_ABS && op != EXPR_SQRT) {
    p->stack--; /* binary: two in, one out */
  }
  return 0;
}

/* The input slot of metric m (each metric read once). */
static int input_of(parser *p, uint32_t m) {
  hpcdb_expr *e = p->e;
  for (uint32_t k = 0; k < e->n_inputs; k++)
    if (e->inputs[k] == m) return emit(p, EXPR_INPUT, 0, k);
  if (e->n_inputs == EXPR_MAX_INPUTS)
    return hpcdb_fail(HPCDB_EINVAL, "formula \"%s\": more than %d metrics", p->text, EXPR_MAX_INPUTS);
  e->inputs[e->n_inputs] = m;
  return emit(p, EXPR_INPUT, 0, e->n_inputs++);
}

static int metric_named(parser *p, const char *name, size_t len, size_t at) {
  for (uint32_t m = 0; m < p->exp->n_metrics; m++) {
    const char *n = p->exp->metrics[m].name;
    if (n && strlen(n) == len && !memcmp(n, name, len)) return input_of(p, m);
  }
  return hpcdb_fail(HPCDB_EINVAL, "formula \"%s\": offset %zu: no metric named \"%.*s\"", p->text, at, (int)len, name);
}

static int number(parser *p) {
  const char *s = p->text + p->at;
  char *end;
  double v = strtod(s, &end);
  if (end == s || isalpha((unsigned char)*end) || *end == '_') return fail(p, "a number");
  /* strtod also takes "inf", "nan" and hex: a formula takes plain decimals only */
  for (const char *c = s; c < end; c++)
    if (!isdigit((unsigned char)*c) && *c != '.' && *c != 'e' && *c != 'E' && *c != '+' && *c != '-')
      return fail(p, "a decimal number");
  p->at += (size_t)(end - s);
  return emit(p, EXPR_NUMBER, v, 0);
}

static int dollar(parser *p) {
  size_t at = p->at++;
  if (!isdigit((unsigned char)p->text[p->at])) return fail(p, "a metric number after '$'");
  uint64_t n = 0;
  while (isdigit((unsigned char)p->text[p->at])) {
    n = n * 10 + (uint64_t)(p->text[p->at++] - '0');
    if (n > UINT32_MAX) break;
  }
  if (n >= p->exp->n_metrics)
    return hpcdb_fail(HPCDB_EINVAL, "formula \"%s\": offset %zu: $%llu: the experiment has metrics $0 to $%u", p->text,
                      at, (unsigned long long)n, p->exp->n_metrics ? p->exp->n_metrics - 1 : 0);
  return input_of(p, (uint32_t)n);
}

static int quoted(parser *p) {
  size_t at = p->at++;
  const char *s = p->text + p->at, *end = strchr(s, '"');
  if (!end) {
    p->at = at;
    return fail(p, "a closing '\"'");
  }
  p->at += (size_t)(end - s) + 1;
  return metric_named(p, s, (size_t)(end - s), at);
}

static const struct {
  const char *name;
  uint8_t op;
  int args;
} functions[] = {{"min", EXPR_MIN, 2}, {"max", EXPR_MAX, 2}, {"abs", EXPR_ABS, 1}, {"sqrt", EXPR_SQRT, 1}};

/* An identifier: a function call when '(' follows, else a metric name. */
static int identifier(parser *p) {
  size_t at = p->at;
  while (isalnum((unsigned char)p->text[p->at]) || p->text[p->at] == '_' || p->text[p->at] == '.' ||
         p->text[p->at] == ':')
    p->at++;
  size_t len = p->at - at;
  skip_space(p);
  if (p->text[p->at] != '(') return metric_named(p, p->text + at, len, at);
  for (size_t f = 0; f < sizeof functions / sizeof *functions; f++) {
    if (strlen(functions[f].name) != len || memcmp(functions[f].name, p->text + at, len)) continue;
    p->at++;
    for (int a = 0; a < functions[f].args; a++) {
      if (a) {
        skip_space(p);
        if (p->text[p->at] != ',') return fail(p, "',' between arguments");
        p->at++;
      }
      HPCDB_TRY(expr(p));
    }
    skip_space(p);
    if (p->text[p->at] != ')') return fail(p, "')' after the arguments");
    p->at++;
    return emit(p, functions[f].op, 0, 0);
  }
  return hpcdb_fail(HPCDB_EINVAL, "formula \"%s\": offset %zu: unknown function \"%.*s\" (min, max, abs, sqrt)",
                    p->text, at, (int)len, p->text + at);
}

static int primary(parser *p) {
  skip_space(p);
  char c = p->text[p->at];
  if (++p->depth > MAX_DEPTH)
    return hpcdb_fail(HPCDB_EINVAL, "formula \"%s\": nested deeper than %d", p->text, MAX_DEPTH);
  int rc;
  if (c == '(') {
    p->at++;
    rc = expr(p);
    skip_space(p);
    if (rc == 0 && p->text[p->at] != ')') rc = fail(p, "')'");
    if (rc == 0) p->at++;
  } else if (c == '-') {
    p->at++;
    rc = primary(p);
    if (rc == 0) rc = emit(p, EXPR_NEG, 0, 0);
  } else if (c == '$') {
    rc = dollar(p);
  } else if (c == '"') {
    rc = quoted(p);
  } else if (isdigit((unsigned char)c) || c == '.') {
    rc = number(p);
  } else if (isalpha((unsigned char)c) || c == '_') {
    rc = identifier(p);
  } else {
    rc = fail(p, "a number, $N, a metric name, '-' or '('");
  }
  p->depth--;
  return rc;
}

static int term(parser *p) {
  HPCDB_TRY(primary(p));
  for (;;) {
    skip_space(p);
    char c = p->text[p->at];
    if (c != '*' && c != '/') return 0;
    p->at++;
    HPCDB_TRY(primary(p));
    HPCDB_TRY(emit(p, c == '*' ? EXPR_MUL : EXPR_DIV, 0, 0));
  }
}

static int expr(parser *p) {
  HPCDB_TRY(term(p));
  for (;;) {
    skip_space(p);
    char c = p->text[p->at];
    if (c != '+' && c != '-') return 0;
    p->at++;
    HPCDB_TRY(term(p));
    HPCDB_TRY(emit(p, c == '+' ? EXPR_ADD : EXPR_SUB, 0, 0));
  }
}

int hpcdb_expr_parse(hpcdb_expr **out, const char *text, const hpcdb_experiment *exp) {
  *out = NULL;
  if (!text || !exp) return hpcdb_fail(HPCDB_EINVAL, "no formula");
  if (strlen(text) > EXPR_MAX_TEXT) return hpcdb_fail(HPCDB_EINVAL, "formula longer than %d characters", EXPR_MAX_TEXT);
  hpcdb_expr *e = calloc(1, sizeof *e);
  if (!e) return hpcdb_fail(HPCDB_ENOMEM, "out of memory");
  parser p = {text, 0, exp, e, 0, 0, 0};
  int rc = expr(&p);
  skip_space(&p);
  if (rc == 0 && text[p.at]) rc = fail(&p, "an operator (+ - * /) or the end");
  if (rc < 0) {
    free(e);
    return rc;
  }
  e->max_stack = p.max_stack;
  *out = e;
  return 0;
}

void hpcdb_expr_free(hpcdb_expr *e) { free(e); }
