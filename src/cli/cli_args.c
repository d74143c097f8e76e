/* SPDX-License-Identifier: BSD-3-Clause */
/* The one option parser (see cli_args.h): strict values, one-line refusals, exit 2. */
#include "cli_args.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int refusef(const cli_spec *s, const char *fmt, ...) {
  char why[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  return cli_refuse(s, why);
}

int cli_refuse(const cli_spec *s, const char *why) {
  fprintf(stderr, "hpcdb %s: %s (see 'hpcdb %s --help')\n", s->cmd, why, s->cmd);
  return EXIT_FAILED;
}

/* 1 when arg (up to len characters) is one of the '|'-separated names. */
static int spelled(const char *names, const char *arg, size_t len) {
  for (const char *p = names; p;) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? (size_t)(bar - p) : strlen(p);
    if (n == len && !strncmp(p, arg, len)) return 1;
    p = bar ? bar + 1 : NULL;
  }
  return 0;
}

/* The name messages use: the last spelling ("--output" of "-o|--output"). */
static const char *shown(const cli_opt *o) {
  const char *bar = strrchr(o->names, '|');
  return bar ? bar + 1 : o->names;
}

cli_opt *cli_find(const cli_spec *s, const char *name) {
  for (cli_opt *o = s->opts; o && o->names; o++)
    if (spelled(o->names, name, strlen(name))) return o;
  return NULL;
}

int cli_seen(const cli_spec *s, const char *name) {
  const cli_opt *o = cli_find(s, name);
  return o && o->seen;
}

static int in_range(const cli_opt *o, double v) { return (o->min == 0 && o->max == 0) || (v >= o->min && v <= o->max); }

static int range_refusal(const cli_spec *s, const char *name, const cli_opt *o, const char *v) {
  if (o->max >= 1e9) return refusef(s, "%s: '%s' must be at least %.15g", name, v, o->min);
  return refusef(s, "%s: '%s' is out of range (%.15g to %.15g)", name, v, o->min, o->max);
}

/* name: the option as it was typed */
static int take_value(const cli_spec *s, cli_opt *o, const char *name, const char *v) {
  char *end;
  switch (o->kind) {
  case CLI_STRING: *(const char **)o->out = v; return 0;
  case CLI_LIST: {
    cli_list *l = o->out;
    if (l->n == CLI_LIST_MAX) return refusef(s, "%s: at most %d times", name, CLI_LIST_MAX);
    l->v[l->n++] = v;
    return 0;
  }
  case CLI_UINT: {
    if (!*v || strspn(v, "0123456789") != strlen(v)) return refusef(s, "%s: '%s' is not a whole number", name, v);
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || !in_range(o, (double)x)) return range_refusal(s, name, o, v);
    *(unsigned long long *)o->out = x;
    return 0;
  }
  case CLI_DOUBLE: {
    errno = 0;
    double x = strtod(v, &end);
    if (o->percent && end != v && *end == '%') end++;
    if (!*v || *end || end == v || !isfinite(x) || errno == ERANGE)
      return refusef(s, "%s: '%s' is not a number", name, v);
    if (!in_range(o, x)) return range_refusal(s, name, o, v);
    *(double *)o->out = x;
    return 0;
  }
  case CLI_CHOICE: {
    int k = 0;
    for (const char *p = o->choices; p; k++) {
      const char *bar = strchr(p, '|');
      size_t n = bar ? (size_t)(bar - p) : strlen(p);
      if (strlen(v) == n && !strncmp(p, v, n)) {
        *(int *)o->out = k;
        return 0;
      }
      p = bar ? bar + 1 : NULL;
    }
    char list[256];
    snprintf(list, sizeof list, "%s", o->choices);
    for (char *c = list; *c; c++)
      if (*c == '|') *c = ',';
    return refusef(s, "%s: '%s' is not one of %s", name, v, list);
  }
  case CLI_FLAG: break;
  }
  return refusef(s, "%s takes no value", name);
}

static const cli_opt common_opts[] = {{.names = "-h|--help", .kind = CLI_FLAG},
                                      {.names = "-q|--quiet", .kind = CLI_FLAG},
                                      {.names = "-v|--verbose", .kind = CLI_FLAG}};

/* One option at argv[*i]; *i moves past its value. */
static int one_option(cli_spec *s, int argc, char **argv, int *i, cli_common *c) {
  const char *a = argv[*i], *eq = !strncmp(a, "--", 2) ? strchr(a, '=') : NULL;
  size_t len = eq ? (size_t)(eq - a) : strlen(a);
  const char *attached = eq ? eq + 1 : NULL;
  cli_opt *o = NULL;
  for (cli_opt *p = s->opts; p && p->names && !o; p++)
    if (spelled(p->names, a, len)) o = p;
  if (!o && !eq && a[1] != '-' && a[2]) /* "-j2": a one-letter option with its value attached */
    for (cli_opt *p = s->opts; p && p->names && !o; p++)
      if (p->kind != CLI_FLAG && spelled(p->names, a, 2)) o = p, attached = a + 2;
  if (!o) {
    for (size_t k = 0; k < 3; k++)
      if (spelled(common_opts[k].names, a, len) && !eq) {
        if (k == 0) c->help = 1;
        else if (k == 1) c->quiet = 1;
        else c->verbose = 1;
        return 0;
      }
    return refusef(s, "unknown option '%s'", a);
  }
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)(attached && !eq ? 2 : len), a);
  if (o->seen && o->kind != CLI_LIST) return refusef(s, "%s given twice", name);
  o->seen++;
  if (o->kind == CLI_FLAG) {
    if (attached) return refusef(s, "%s takes no value", name);
    *(int *)o->out = 1;
    return 0;
  }
  if (!attached) {
    if (*i + 1 >= argc) return refusef(s, "%s needs a value", name);
    attached = argv[++*i];
  }
  return take_value(s, o, name, attached);
}

int cli_parse(cli_spec *s, int argc, char **argv, cli_common *c) {
  s->n_pos = 0;
  if (s->max_pos > CLI_POS_MAX) s->max_pos = CLI_POS_MAX;
  s->rest = NULL;
  s->n_rest = 0;
  int dashes = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int option = !dashes && a[0] == '-' && a[1];
    if (!dashes && !strcmp(a, "--")) {
      dashes = 1;
      if (s->stop_at_program) {
        s->rest = argv + i + 1, s->n_rest = argc - i - 1;
        break;
      }
      continue;
    }
    if (option) {
      if (one_option(s, argc, argv, &i, c) != 0) return EXIT_FAILED;
      continue;
    }
    if (s->stop_at_program) {
      s->rest = argv + i, s->n_rest = argc - i;
      break;
    }
    if (s->n_pos == s->max_pos) return refusef(s, "unexpected argument '%s'", a);
    s->pos[s->n_pos++] = argv[i];
  }
  if (c->help) {
    fputs(s->help, stdout);
    return EXIT_OK;
  }
  for (cli_opt *o = s->opts; o && o->names; o++)
    if (o->seen && o->conflicts && cli_seen(s, o->conflicts))
      return refusef(s, "%s and %s cannot be used together", shown(o), o->conflicts);
  if (s->stop_at_program && s->n_rest == 0) return refusef(s, "no program to run");
  if (s->n_pos < s->min_pos) return refusef(s, "need %s", s->pos_names ? s->pos_names : "more arguments");
  return CLI_GO_ON;
}
