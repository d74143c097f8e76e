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
add_test(NAME api/headers
         COMMAND python3 ${API_TESTS}/check_headers.py ${CMAKE_C_COMPILER} "${HPCDB_CXX}"
                 ${PROJECT_SOURCE_DIR}/include)
add_test(NAME api/one-source COMMAND python3 ${API_TESTS}/check_one_source.py ${PROJECT_SOURCE_DIR})
