/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb._core.CubeFile: a Cube file's values without building the model
 * (hpcdb_cube_open parses anchor.xml only); one metric at a time straight
 * into a new NumPy matrix, cnodes (document order) x locations. */
#include <sys/mman.h>

#include "hpcdb_py.h"

typedef struct {
  PyObject_HEAD hpcdb_cube *cube;
} CubeObject;

static void cube_dealloc(CubeObject *self) {
  hpcdb_cube_close(self->cube);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *cube_metric_names(CubeObject *self, PyObject *unused) {
  uint32_t n = hpcdb_cube_n_metrics(self->cube);
  PyObject *out = PyList_New(n);
  for (uint32_t m = 0; out && m < n; m++) {
    const char *name = hpcdb_cube_metric_name(self->cube, m);
    PyObject *s = PyUnicode_DecodeUTF8(name ? name : "", (Py_ssize_t)strlen(name ? name : ""), "replace");
    if (!s) {
      Py_CLEAR(out);
      break;
    }
    PyList_SET_ITEM(out, m, s);
  }
  return out;
}

static PyObject *cube_cnode_ids(CubeObject *self, PyObject *unused) {
  npy_intp n = hpcdb_cube_n_cnodes(self->cube);
  PyObject *a = PyArray_EMPTY(1, &n, NPY_UINT32, 0);
  if (a) {
    uint32_t *ids = PyArray_DATA((PyArrayObject *)a);
    for (npy_intp k = 0; k < n; k++) ids[k] = hpcdb_cube_cnode_id(self->cube, (uint32_t)k);
  }
  return a;
}

static PyObject *cube_n_locations(CubeObject *self, PyObject *unused) {
  return PyLong_FromUnsignedLong(hpcdb_cube_n_locations(self->cube));
}

/* A large new matrix in 2 MiB pages where the system gives them on request
 * (transparent huge pages "madvise"): its first writes then fault once per
 * 2 MiB instead of once per 4 KiB, which was most of the time of a fresh
 * matrix. Only a hint: nothing changes where it is refused. */
static void prefer_huge_pages(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1), to = ((uintptr_t)p + n) & ~(huge - 1);
  if (to > from) (void)madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
  (void)p, (void)n;
#endif
}

/* values(metric index, inclusive) -> [cnodes, locations]: float64, or for an
 * integer metric uint64 / int64 (as pycubexr types them) computed modulo 2^64
 * without passing through a double */
static PyObject *cube_values(CubeObject *self, PyObject *args) {
  unsigned metric;
  int inclusive;
  if (!PyArg_ParseTuple(args, "Ip", &metric, &inclusive)) return NULL;
  if (metric >= hpcdb_cube_n_metrics(self->cube)) return PyErr_Format(PyExc_IndexError, "no metric %u", metric);
  npy_intp dims[2] = {hpcdb_cube_n_cnodes(self->cube), hpcdb_cube_n_locations(self->cube)};
  int integer = hpcdb_cube_metric_integer(self->cube, metric);
  int type = integer == HPCDB_INTEGER_SIGNED ? NPY_INT64 : integer ? NPY_UINT64 : NPY_FLOAT64;
  PyObject *a = PyArray_EMPTY(2, dims, type, 0);
  if (!a) return NULL;
  int rc;
  void *out = PyArray_DATA((PyArrayObject *)a);
  prefer_huge_pages(out, (size_t)PyArray_NBYTES((PyArrayObject *)a));
  Py_BEGIN_ALLOW_THREADS
    rc = integer ? hpcdb_cube_metric_integers(self->cube, metric, inclusive, out)
                 : hpcdb_cube_metric_values(self->cube, metric, inclusive, out);
  Py_END_ALLOW_THREADS
  if (rc < 0) {
    Py_DECREF(a);
    return hpcdb_py_raise(rc);
  }
  return a;
}

static PyMethodDef cube_methods[] = {
    {"metric_names", (PyCFunction)cube_metric_names, METH_NOARGS, "metric unique names, anchor order"},
    {"cnode_ids", (PyCFunction)cube_cnode_ids, METH_NOARGS, "cnode ids in document order"},
    {"n_locations", (PyCFunction)cube_n_locations, METH_NOARGS, "number of locations"},
    {"values", (PyCFunction)cube_values, METH_VARARGS, "one metric's values, cnodes x locations"},
    {NULL, NULL, 0, NULL}};

PyTypeObject Cube_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hpcdb._core.CubeFile",
    .tp_basicsize = sizeof(CubeObject),
    .tp_dealloc = (destructor)cube_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a Cube file opened for direct access to its values",
    .tp_methods = cube_methods,
};

PyObject *hpcdb_py_open_cube(PyObject *mod, PyObject *args) {
  PyObject *path;
  if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path)) return NULL;
  hpcdb_cube *c = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
    rc = hpcdb_cube_open(&c, PyBytes_AS_STRING(path));
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (rc < 0) return hpcdb_py_raise(rc);
  CubeObject *o = PyObject_New(CubeObject, &Cube_Type);
  if (!o) {
    hpcdb_cube_close(c);
    return NULL;
  }
  o->cube = c;
  return (PyObject *)o;
}
