# SPDX-License-Identifier: BSD-3-Clause
# The build itself: the warning set holds over every file.
add_test(NAME build/warnings
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_warnings.py ${PROJECT_BINARY_DIR})
# No program compiles the library's files by path; the recorder stays unsanitized.
add_test(NAME build/compiled-once
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_compiled_once.py ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${CMAKE_NM}
                 $<TARGET_FILE:hpcdb_record>)
# The build without program structure, Cube and the older formats, in its own
# folder (a build of the library and the command: minutes, not seconds).
add_test(NAME build/minimal
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/check_minimal.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/test-output/minimal
                 ${HPCDB_SAMPLE_DATA} ${CMAKE_C_COMPILER} "${CMAKE_C_COMPILER_LAUNCHER}")
set_tests_properties(build/minimal PROPERTIES TIMEOUT 1800)
# The C sources as .clang-format says (scripts/format.sh formats them).
add_test(NAME build/clang-format COMMAND ${PROJECT_SOURCE_DIR}/scripts/format.sh --check)
set_tests_properties(build/clang-format PROPERTIES SKIP_RETURN_CODE 77)
