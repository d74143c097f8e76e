/* SPDX-License-Identifier: BSD-3-Clause */
/* hpcdb statuses as Python exceptions: the classes are defined by the Python
 * package (hpcdb.Error and its subclasses) and registered here once. */
#include <string.h>

#include "hpcdb_py.h"

static PyObject *error_base;    /* hpcdb.Error */
static PyObject *error_classes; /* {status: class} */

PyObject *hpcdb_py_set_errors(PyObject *self, PyObject *args) {
  PyObject *base, *classes;
  if (!PyArg_ParseTuple(args, "OO!", &base, &PyDict_Type, &classes)) return NULL;
  Py_INCREF(base);
  Py_INCREF(classes);
  Py_XSETREF(error_base, base);
  Py_XSETREF(error_classes, classes);
  Py_RETURN_NONE;
}

PyObject *hpcdb_py_raise(int status) {
  if (status == HPCDB_ENOMEM) return PyErr_NoMemory();
  const char *message = hpcdb_last_error();
  if (!message[0]) message = hpcdb_status_name(status);
  PyObject *cls = NULL;
  if (error_classes) {
    PyObject *key = PyLong_FromLong(status);
    if (!key) return NULL;
    cls = PyDict_GetItemWithError(error_classes, key);
    Py_DECREF(key);
    if (!cls && PyErr_Occurred()) return NULL;
  }
  if (!cls) cls = error_base ? error_base : PyExc_RuntimeError;
  /* the message may quote bytes of a hostile file: invalid UTF-8 is replaced */
  PyObject *text = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message), "replace");
  if (!text) return NULL;
  PyObject *exc = PyObject_CallFunction(cls, "Ni", text, status);
  if (!exc) return NULL;
  PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  return NULL;
}
