# SPDX-License-Identifier: BSD-3-Clause
# The Python binding (python/, docs/python.md): pytest files run with Debian's python3 against
# build/python; under HPCDB_SANITIZE the ASan-built extension runs with libasan preloaded.
set(PY_TESTS ${CMAKE_CURRENT_LIST_DIR})
if(NOT HPCDB_PYTHON_BUILT)
  add_test(NAME python/binding COMMAND sh -c "echo 'skip: the Python binding is not built (python3-dev and python3-numpy missing; see the CMake output)'; exit 77")
  set_tests_properties(python/binding PROPERTIES SKIP_RETURN_CODE 77)
  return()
endif()
set(PY_ENV PYTHONPATH=${PROJECT_BINARY_DIR}/python HPCDB_SAMPLE_DATA=${HPCDB_SAMPLE_DATA}
           HPCDB_CLI=$<TARGET_FILE:hpcdb> PYTHONDONTWRITEBYTECODE=1)
list(APPEND PY_ENV ${HPCDB_PY_SANITIZE_ENV}) # tests/CMakeLists.txt
foreach(t api dump_json reference_tools bad_files compare)
  add_test(NAME python/${t}
           COMMAND ${HPCDB_PYTHON_EXECUTABLE} ${PY_TESTS}/run_pytest.py ${PY_TESTS}/test_${t}.py
                   --basetemp=${PROJECT_BINARY_DIR}/test-output/python/${t})
  set_tests_properties(python/${t} PROPERTIES ENVIRONMENT "${PY_ENV}" SKIP_RETURN_CODE 77)
endforeach()
# hpcdb.compare on the runs tests/compare generates
set_tests_properties(python/compare PROPERTIES FIXTURES_REQUIRED compare_runs
                     ENVIRONMENT "${PY_ENV};HPCDB_COMPARE_RUNS=${PROJECT_BINARY_DIR}/test-output/compare")
add_test(NAME python/pip_install
         COMMAND ${PY_TESTS}/check_pip_install.sh ${HPCDB_PYTHON_EXECUTABLE} ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR}/test-output/python/pip
                 ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/cpi-mpi)
# pip runs the project's CMake: the whole library is compiled once more
set_tests_properties(python/pip_install PROPERTIES ENVIRONMENT "${PY_ENV}" SKIP_RETURN_CODE 77 TIMEOUT 1500)
add_test(NAME python/install
         COMMAND ${PY_TESTS}/check_install.sh ${HPCDB_PYTHON_EXECUTABLE} ${PROJECT_BINARY_DIR}
                 ${PROJECT_BINARY_DIR}/test-output/python/install ${HPCDB_PYTHON_INSTALL_DIR}
                 ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/cpi-mpi)
set_tests_properties(python/install PROPERTIES ENVIRONMENT "${PY_ENV}" SKIP_RETURN_CODE 77)
