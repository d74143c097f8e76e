/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb._core: reading, validating, converting and comparing, with the GIL
 * released while the library works. What the library reports through
 * callbacks is collected in C first and turned into Python objects after. */
#define HPCDB_PY_IMPORTS_NUMPY
#include <stdlib.h>
#include <string.h>

#include "hpcdb_py.h"

/* Lines of text gathered while the GIL is released. */
typedef struct lines {
  char **v;
  size_t n, cap;
  int oom;
} lines;

static void lines_add(lines *l, const char *s) {
  if (l->oom) return;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    char **v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      l->oom = 1;
      return;
    }
    l->v = v;
    l->cap = cap;
  }
  size_t n = strlen(s) + 1;
  if (!(l->v[l->n] = malloc(n))) {
    l->oom = 1;
    return;
  }
  memcpy(l->v[l->n++], s, n);
}

static void lines_line_fn(void *user, const char *line) { lines_add(user, line); }

/* Text from a file may be any bytes: invalid UTF-8 is replaced, not an error. */
static PyObject *text(const char *s) { return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace"); }

static void lines_free(lines *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
}

/* A list of str (NULL with an exception set on failure). */
static PyObject *lines_list(const lines *l) {
  if (l->oom) return PyErr_NoMemory();
  PyObject *out = PyList_New((Py_ssize_t)l->n);
  for (size_t i = 0; out && i < l->n; i++) {
    PyObject *s = text(l->v[i]);
    if (!s) {
      Py_CLEAR(out);
      break;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)i, s);
  }
  return out;
}

static PyObject *py_read(PyObject *mod, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return NULL;
  hpcdb_experiment *exp = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = hpcdb_read(&exp, PyBytes_AS_STRING(path));
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (rc < 0) return hpcdb_py_raise(rc);
  return hpcdb_py_experiment(exp, NULL);
}

/* read_lazy(dir) -> Experiment whose values stay in the mapped profile.db. */
static PyObject *py_read_lazy(PyObject *mod, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return NULL;
  hpcdb_experiment *exp = NULL;
  hpcdb_db *db = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = hpcdb_hpctk4_read_lazy(&exp, &db, PyBytes_AS_STRING(path));
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (rc < 0) return hpcdb_py_raise(rc);
  return hpcdb_py_experiment(exp, db);
}

static PyObject *py_detect(PyObject *mod, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return NULL;
  hpcdb_format f;
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = hpcdb_detect(&f, PyBytes_AS_STRING(path));
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (rc < 0) return hpcdb_py_raise(rc);
  return PyUnicode_FromString(hpcdb_format_name(f));
}

/* Diagnostics gathered while the GIL is released: one line per field. */
static void on_diagnostic(void *user, const hpcdb_diagnostic *d) {
  lines *l = user;
  char offset[32];
  snprintf(offset, sizeof offset, "%llu", (unsigned long long)d->offset);
  lines_add(l, d->severity == HPCDB_SEV_ERROR ? "error" : "note");
  lines_add(l, d->file ? d->file : "");
  lines_add(l, offset);
  lines_add(l, d->rule ? d->rule : "");
  lines_add(l, d->detail ? d->detail : "");
}

/* validate(path) -> (errors, notes, [(severity, file, offset, rule, detail)]) */
static PyObject *py_validate(PyObject *mod, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return NULL;
  hpcdb_validation result = {0, 0};
  lines l = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = hpcdb_validate(&result, PyBytes_AS_STRING(path), on_diagnostic, &l);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  PyObject *out = NULL, *list = NULL;
  if (rc < 0) {
    hpcdb_py_raise(rc);
    goto done;
  }
  if (l.oom) {
    PyErr_NoMemory();
    goto done;
  }
  if (!(list = PyList_New((Py_ssize_t)(l.n / 5)))) goto done;
  for (size_t i = 0; i + 5 <= l.n; i += 5) {
    PyObject *t = Py_BuildValue("(sNKNN)", l.v[i], text(l.v[i + 1]), strtoull(l.v[i + 2], NULL, 10), text(l.v[i + 3]),
                                text(l.v[i + 4]));
    if (!t) goto done;
    PyList_SET_ITEM(list, (Py_ssize_t)(i / 5), t);
  }
  out = Py_BuildValue("(KKO)", (unsigned long long)result.errors, (unsigned long long)result.notes, list);
done:
  Py_XDECREF(list);
  lines_free(&l);
  return out;
}

/* convert(src, dst, to, force, strict, compress) -> [what the write left out]
 * Measurement directories become a v4.0 database as `hpcdb analyze` makes it. */
static PyObject *py_convert(PyObject *mod, PyObject *args) {
  PyObject *src, *dst;
  const char *to;
  int force, strict, compress;
  if (!PyArg_ParseTuple(args, "O&O&sppp", PyUnicode_FSConverter, &src, PyUnicode_FSConverter, &dst, &to, &force,
                        &strict, &compress))
    return NULL;
  int cube = !strcmp(to, "cube");
  PyObject *out = NULL;
  if (!cube && strcmp(to, "v4") != 0) {
    PyErr_Format(PyExc_ValueError, "output format '%s' is not supported (v4 or cube)", to);
    goto done;
  }
  unsigned flags = force ? HPCDB_WRITE_FORCE : 0;
  lines losses = {0};
  int rc = 0;
  uint64_t n_losses = 0;
  Py_BEGIN_ALLOW_THREADS
    hpcdb_format format;
    hpcdb_experiment *exp = NULL;
    rc = hpcdb_detect(&format, PyBytes_AS_STRING(src));
    if (rc == 0 && format == HPCDB_FORMAT_HPCRUN_DIR && !cube) {
      hpcdb_analyze_options opt = {
          .threads = 1, .strict = strict, .write_flags = flags, .output = PyBytes_AS_STRING(dst)};
      rc = hpcdb_analyze(&exp, PyBytes_AS_STRING(src), &opt, NULL, NULL, NULL);
    } else if (rc == 0 && (rc = hpcdb_read(&exp, PyBytes_AS_STRING(src))) == 0) {
      n_losses = cube ? hpcdb_cube_write_losses(exp, lines_line_fn, &losses)
                      : hpcdb_hpctk4_write_losses(exp, lines_line_fn, &losses);
      if (!(n_losses && strict)) {
        hpcdb_cube_write_options options = {HPCDB_CUBE_WRITE_OPTIONS_VERSION, compress, flags};
        rc = cube ? hpcdb_cube_write(exp, PyBytes_AS_STRING(dst), &options)
                  : hpcdb_hpctk4_write(exp, PyBytes_AS_STRING(dst), flags);
      }
    }
    hpcdb_experiment_free(exp);
  Py_END_ALLOW_THREADS
  if (rc < 0) hpcdb_py_raise(rc);
  else if (n_losses && strict)
    PyErr_Format(PyExc_ValueError, "refused: %llu kinds of data would be lost (strict)", (unsigned long long)n_losses);
  else out = lines_list(&losses);
  lines_free(&losses);
done:
  Py_DECREF(src);
  Py_DECREF(dst);
  return out;
}

/* diff(a, b, rel_tolerance, max_reported, scope) -> (differences, [lines]) */
static PyObject *py_diff(PyObject *mod, PyObject *args) {
  ExperimentObject *a, *b;
  double tol;
  unsigned long long max;
  const char *scope;
  if (!PyArg_ParseTuple(args, "O!O!dKz", &Experiment_Type, &a, &Experiment_Type, &b, &tol, &max, &scope)) return NULL;
  hpcdb_diff_options opt = {HPCDB_DIFF_OPTIONS_VERSION, tol, max, scope};
  lines l = {0};
  uint64_t n = 0;
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = hpcdb_diff(&n, a->exp, b->exp, &opt, lines_line_fn, &l);
  Py_END_ALLOW_THREADS
  PyObject *out = NULL, *list = NULL;
  if (rc < 0) hpcdb_py_raise(rc);
  else if ((list = lines_list(&l))) out = Py_BuildValue("(KO)", (unsigned long long)n, list);
  Py_XDECREF(list);
  lines_free(&l);
  return out;
}

static PyMethodDef module_methods[] = {
    {"read", py_read, METH_VARARGS, "read(path) -> Experiment: any format hpcdb reads"},
    {"read_lazy", py_read_lazy, METH_VARARGS, "read_lazy(dir) -> Experiment: a v4.0 database, values on demand"},
    {"open_cube", hpcdb_py_open_cube, METH_VARARGS, "open_cube(path) -> CubeFile: values without the model"},
    {"detect", py_detect, METH_VARARGS, "detect(path) -> format name"},
    {"validate", py_validate, METH_VARARGS, "validate(path) -> (errors, notes, diagnostics)"},
    {"convert", py_convert, METH_VARARGS, "convert(src, dst, to, force, strict, compress) -> losses"},
    {"diff", py_diff, METH_VARARGS, "diff(a, b, rel_tolerance, max_reported, scope) -> (n, lines)"},
    {"compare", hpcdb_py_compare, METH_VARARGS,
     "compare([Experiment], [metric|None], line_tolerance, exact_lines) -> dict"},
    {"set_errors", hpcdb_py_set_errors, METH_VARARGS, "set_errors(base, {status: class})"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_core", "hpcdb's C library", -1, module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
  import_array();
  if (PyType_Ready(&Experiment_Type) < 0 || PyType_Ready(&Cube_Type) < 0) return NULL;
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  Py_INCREF(&Experiment_Type);
  if (PyModule_AddObject(m, "Experiment", (PyObject *)&Experiment_Type) < 0 ||
      PyModule_AddStringConstant(m, "library_version", hpcdb_version()) < 0) {
    Py_DECREF(&Experiment_Type);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
