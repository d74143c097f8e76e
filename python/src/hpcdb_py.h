/* SPDX-License-Identifier: BSD-3-Clause */
/* The _core extension module of the hpcdb Python package: a thin layer over
 * the public C API. Tables come out as NumPy arrays (the model's own arrays
 * without a copy where their layout allows, kept alive by the Experiment
 * object they belong to); the Python package builds the DataFrames. */
#ifndef HPCDB_PY_H
#define HPCDB_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#ifndef HPCDB_PY_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#endif
#define PY_ARRAY_UNIQUE_SYMBOL hpcdb_py_ARRAY_API
#include <numpy/arrayobject.h>

#include <hpcdb/hpcdb.h>

/* An experiment read into the model; freed when the last reference (the
 * Python object or an array it handed out) goes. */
typedef struct {
  PyObject_HEAD hpcdb_experiment *exp;
  hpcdb_db *db; /* lazy: the values stay in the mapped profile.db (NULL: they are in exp) */
} ExperimentObject;

extern PyTypeObject Experiment_Type;
extern PyTypeObject Cube_Type;

/* open_cube(path) -> CubeFile (cube.c). */
PyObject *hpcdb_py_open_cube(PyObject *mod, PyObject *args);

/* compare(experiments, metrics, line_tolerance, exact_lines) -> dict of arrays (compare.c). */
PyObject *hpcdb_py_compare(PyObject *mod, PyObject *args);

/* Raises the hpcdb.Error subclass of status with the library's message. */
PyObject *hpcdb_py_raise(int status);
/* Registers the Python classes errors are raised as: base and a dict
 * {status: class}. */
PyObject *hpcdb_py_set_errors(PyObject *self, PyObject *args);

/* A read-only 1-D array over n elements of data owned by owner (no copy). */
PyObject *hpcdb_py_view(PyObject *owner, int typenum, npy_intp n, void *data);

/* An Experiment over exp (and db, lazy), owning both. */
PyObject *hpcdb_py_experiment(hpcdb_experiment *exp, hpcdb_db *db);

/* Experiment methods that compute (values.c). */
PyObject *experiment_values(ExperimentObject *self, PyObject *args);
PyObject *experiment_context_index(ExperimentObject *self, PyObject *args);
PyObject *experiment_traces(ExperimentObject *self, PyObject *args);
PyObject *experiment_events(ExperimentObject *self, PyObject *args);

#endif
