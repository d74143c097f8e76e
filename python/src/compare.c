/* SPDX-License-Identifier: BSD-3-Clause */
/* compare(experiments, metrics, line_tolerance, exact_lines) -> dict: the
 * runs aligned by calling path (hpcdb_compare) as NumPy arrays; the package
 * (hpcdb/compare.py) builds the DataFrame of two sides from them. */
#include <stdlib.h>
#include <string.h>

#include "hpcdb_py.h"

/* A new 2-D (rows x cols) float64 array holding a copy of data. */
static PyObject *matrix(const double *data, npy_intp rows, npy_intp cols) {
  npy_intp dims[2] = {rows, cols};
  PyObject *a = PyArray_SimpleNew(2, dims, NPY_FLOAT64);
  if (a && rows * cols > 0) memcpy(PyArray_DATA((PyArrayObject *)a), data, (size_t)(rows * cols) * sizeof *data);
  return a;
}

static PyObject *arrays(const hpcdb_comparison *c) {
  const hpcdb_alignment *al = c->al;
  npy_intp n = al->n_nodes, r = al->n_runs, dims[2] = {n, r};
  PyObject *out = PyDict_New(), *names = PyList_New(n), *paths = PyList_New(n);
  PyObject *parent = PyArray_SimpleNew(1, &n, NPY_INT64), *frame = PyArray_SimpleNew(1, &n, NPY_BOOL),
           *hidden = PyArray_SimpleNew(1, &n, NPY_BOOL);
  PyObject *how = PyArray_SimpleNew(2, dims, NPY_UINT8), *present = PyArray_SimpleNew(2, dims, NPY_BOOL);
  PyObject *nprof = PyArray_SimpleNew(1, &r, NPY_INT64);
  PyObject *inc = matrix(c->inc, n, r), *exc = matrix(c->exc, n, r), *mean = matrix(c->pmean, n, r),
           *max = matrix(c->pmax, n, r);
  PyObject *result = NULL;
  if (!out || !names || !paths || !parent || !frame || !hidden || !how || !present || !nprof || !inc || !exc || !mean ||
      !max)
    goto done;
  char buf[4096];
  for (npy_intp k = 0; k < n; k++) {
    PyObject *name = PyUnicode_DecodeUTF8(al->nodes[k].name, (Py_ssize_t)strlen(al->nodes[k].name), "replace");
    size_t len = hpcdb_align_path(al, (uint32_t)k, buf, sizeof buf);
    PyObject *path = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)(len < sizeof buf ? len : sizeof buf - 1), "replace");
    if (!name || !path) {
      Py_XDECREF(name);
      Py_XDECREF(path);
      goto done;
    }
    PyList_SET_ITEM(names, k, name);
    PyList_SET_ITEM(paths, k, path);
    ((int64_t *)PyArray_DATA((PyArrayObject *)parent))[k] =
        al->nodes[k].parent == HPCDB_NONE ? -1 : (int64_t)al->nodes[k].parent;
    ((npy_bool *)PyArray_DATA((PyArrayObject *)frame))[k] = al->nodes[k].is_frame;
    ((npy_bool *)PyArray_DATA((PyArrayObject *)hidden))[k] = (npy_bool)hpcdb_align_hidden(al, (uint32_t)k);
    for (npy_intp j = 0; j < r; j++) {
      ((uint8_t *)PyArray_DATA((PyArrayObject *)how))[k * r + j] = al->how[k * r + j];
      ((npy_bool *)PyArray_DATA((PyArrayObject *)present))[k * r + j] = al->ctx[k * r + j] != HPCDB_NONE;
    }
  }
  for (npy_intp j = 0; j < r; j++) ((int64_t *)PyArray_DATA((PyArrayObject *)nprof))[j] = c->n_profiles[j];
  PyObject *seconds = PyFloat_FromDouble(c->seconds[0]);
  if (!seconds) goto done;
  int bad = PyDict_SetItemString(out, "name", names) | PyDict_SetItemString(out, "path", paths) |
            PyDict_SetItemString(out, "parent", parent) | PyDict_SetItemString(out, "is_frame", frame) |
            PyDict_SetItemString(out, "hidden", hidden) | PyDict_SetItemString(out, "match", how) |
            PyDict_SetItemString(out, "present", present) | PyDict_SetItemString(out, "n_profiles", nprof) |
            PyDict_SetItemString(out, "inc", inc) | PyDict_SetItemString(out, "exc", exc) |
            PyDict_SetItemString(out, "mean", mean) | PyDict_SetItemString(out, "max", max) |
            PyDict_SetItemString(out, "seconds", seconds);
  Py_DECREF(seconds);
  if (!bad) result = out, out = NULL;
done:
  Py_XDECREF(out), Py_XDECREF(names), Py_XDECREF(paths), Py_XDECREF(parent), Py_XDECREF(frame), Py_XDECREF(hidden);
  Py_XDECREF(how);
  Py_XDECREF(present), Py_XDECREF(nprof), Py_XDECREF(inc), Py_XDECREF(exc), Py_XDECREF(mean), Py_XDECREF(max);
  return result;
}

PyObject *hpcdb_py_compare(PyObject *mod, PyObject *args) {
  PyObject *list, *metric_list;
  unsigned int tolerance;
  int exact;
  if (!PyArg_ParseTuple(args, "O!O!Ip", &PyList_Type, &list, &PyList_Type, &metric_list, &tolerance, &exact))
    return NULL;
  Py_ssize_t n = PyList_GET_SIZE(list);
  if (n < 1 || PyList_GET_SIZE(metric_list) != n) {
    PyErr_SetString(PyExc_ValueError, "compare: one metric (or None) per experiment");
    return NULL;
  }
  const hpcdb_experiment **runs = calloc((size_t)n, sizeof *runs);
  const char **metrics = calloc((size_t)n, sizeof *metrics);
  PyObject *result = NULL;
  if (!runs || !metrics) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *e = PyList_GET_ITEM(list, i), *m = PyList_GET_ITEM(metric_list, i);
    if (!PyObject_TypeCheck(e, &Experiment_Type)) {
      PyErr_SetString(PyExc_TypeError, "compare: experiments expected");
      goto done;
    }
    runs[i] = ((ExperimentObject *)e)->exp;
    if (m != Py_None && !(metrics[i] = PyUnicode_AsUTF8(m))) goto done;
  }
  hpcdb_compare_options opt = {.version = HPCDB_COMPARE_OPTIONS_VERSION,
                               .metrics = metrics,
                               .align = {HPCDB_ALIGN_OPTIONS_VERSION, tolerance, exact}};
  hpcdb_comparison *c = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = hpcdb_compare(&c, runs, (uint32_t)n, &opt);
  Py_END_ALLOW_THREADS
  if (rc < 0) hpcdb_py_raise(rc);
  else result = arrays(c);
  hpcdb_comparison_free(c);
done:
  free(runs);
  free(metrics);
  return result;
}
