# SPDX-License-Identifier: BSD-3-Clause
# The README's tour runs as written (every ```sh block), so that it cannot rot.
add_test(NAME readme/tour
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/run_tour.sh ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_BINARY_DIR}
                 ${HPCDB_SAMPLE_DATA} ${PROJECT_BINARY_DIR}/test-output/readme)
set_tests_properties(readme/tour PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(NAME readme/pip-commands COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_pip_commands.sh ${PROJECT_SOURCE_DIR})
if(HPCDB_SANITIZE) # the tour's mpirun: Open MPI does not free what it allocates (tests/mpi does the same)
  set_tests_properties(readme/tour PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0;HPCDB_SANITIZED=1")
endif()
