# SPDX-License-Identifier: BSD-3-Clause
# The library's public face: libhpcdb.so exports include/hpcdb/'s functions
# and nothing else, and each public header compiles alone as C11 and as C++.
set(API_TESTS ${CMAKE_CURRENT_LIST_DIR})
find_program(HPCDB_CXX NAMES ${CMAKE_CXX_COMPILER} g++ c++ clang++)
if(NOT HPCDB_CXX)
  set(HPCDB_CXX "")
endif()
add_test(NAME api/symbols
         COMMAND python3 ${API_TESTS}/check_symbols.py ${CMAKE_NM} $<TARGET_FILE:hpcdb_shared>
                 ${PROJECT_SOURCE_DIR}/include)
add_test(NAME api/static-symbols
         COMMAND python3 ${API_TESTS}/check_symbols.py ${CMAKE_NM} ${HPCDB_DIST_A} ${PROJECT_SOURCE_DIR}/include)
add_test(NAME api/headers
         COMMAND python3 ${API_TESTS}/check_headers.py ${CMAKE_C_COMPILER} "${HPCDB_CXX}"
                 ${PROJECT_SOURCE_DIR}/include)
add_test(NAME api/abi-policy COMMAND python3 ${API_TESTS}/check_abi_policy.py ${PROJECT_SOURCE_DIR}/include)
# abidiff reads the DWARF of a build with debug information; the sanitizer build's differs
if(HPCDB_SANITIZE OR NOT CMAKE_BUILD_TYPE MATCHES "RelWithDebInfo|Debug")
  add_test(NAME api/abi COMMAND sh -c "echo 'skipped: the ABI is checked in the RelWithDebInfo build, not this one'; exit 77")
else()
  add_test(NAME api/abi COMMAND ${API_TESTS}/check_abi.sh $<TARGET_FILE:hpcdb_shared> ${PROJECT_SOURCE_DIR}
                                ${PROJECT_BINARY_DIR}/test-output/api/abi)
endif()
set_tests_properties(api/abi PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME api/one-source COMMAND python3 ${API_TESTS}/check_one_source.py ${PROJECT_SOURCE_DIR})
add_test(NAME api/layers
         COMMAND python3 ${API_TESTS}/check_layers.py ${CMAKE_NM} ${PROJECT_SOURCE_DIR}/docs/architecture.md
                 ${HPCDB_LIB_OBJECTS}
         COMMAND_EXPAND_LISTS)
add_test(NAME api/umbrella COMMAND python3 ${API_TESTS}/check_umbrella.py ${PROJECT_SOURCE_DIR})
