# SPDX-License-Identifier: BSD-3-Clause
# The route contract (src/view/routes.json): every route the server, the exported page and the pages name is in it,
# and the exported page (api_static.js, under Node) answers its requests as `hpcdb view` does.
find_program(HPCDB_NODE node)
if(HPCDB_NODE)
  add_test(NAME routes/contract COMMAND ${HPCDB_NODE} ${CMAKE_CURRENT_LIST_DIR}/check_contract.mjs ${PROJECT_SOURCE_DIR})
  # a v4.0 database, an older one, a Cube file
  foreach(db hpctoolkit-v4/cpi-mpi hpctoolkit-2022/ping-pong-mpi cube/scorep-cpi.cubex)
    add_test(NAME routes/parity/${db}
             COMMAND ${HPCDB_NODE} ${CMAKE_CURRENT_LIST_DIR}/parity.mjs $<TARGET_FILE:hpcdb> ${PROJECT_SOURCE_DIR}
                     ${HPCDB_SAMPLE_DATA}/${db} ${PROJECT_BINARY_DIR}/test-output/routes/${db})
    set_tests_properties(routes/parity/${db} PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
  endforeach()
else()
  add_test(NAME routes/contract COMMAND sh -c "echo 'skipped: node is not installed (scripts/deps.sh installs it)'; exit 77")
  set_tests_properties(routes/contract PROPERTIES SKIP_RETURN_CODE 77)
endif()
