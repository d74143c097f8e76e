# SPDX-License-Identifier: BSD-3-Clause
# hpcdb view: the JSON routes and security checks without a browser, and the
# page in Debian's chromium (playwright-core from tests/view/package.json).
add_executable(make_paths_db ${CMAKE_CURRENT_LIST_DIR}/make_paths_db.c)
target_link_libraries(make_paths_db PRIVATE hpcdb_static)
add_executable(make_wide_db ${CMAKE_CURRENT_LIST_DIR}/make_wide_db.c)
target_link_libraries(make_wide_db PRIVATE hpcdb_static)
add_executable(make_metrics_db ${CMAKE_CURRENT_LIST_DIR}/make_metrics_db.c)
target_link_libraries(make_metrics_db PRIVATE hpcdb_static)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME view/api
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_api.py $<TARGET_FILE:hpcdb>
                   $<TARGET_FILE:make_paths_db> ${HPCDB_SAMPLE_DATA} ${PROJECT_BINARY_DIR}/test-output/view/api
                   $<TARGET_FILE:compare_gen_runs>)
  set_tests_properties(view/api PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  if(HPCDB_SANITIZE)
    set_tests_properties(view/api PROPERTIES ENVIRONMENT "HPCDB_SANITIZED=1")
  endif()
endif()
# requests answered at once, superseded work cancelled (the order of the answers, never a time)
if(Python3_Interpreter_FOUND)
  add_test(NAME view/concurrent
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_concurrent.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                   ${PROJECT_BINARY_DIR}/test-output/view/concurrent)
  set_tests_properties(view/concurrent PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()
# the link with access, the Timeline link, an empty trace.db, a reader's warnings
add_test(NAME view/browser-server
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/browser.sh browser_server.mjs $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/screenshots/view-server)
set_tests_properties(view/browser-server PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
add_test(NAME view/browser
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/browser.sh browser.mjs $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/test-output/view/browser $<TARGET_FILE:make_wide_db>)
set_tests_properties(view/browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# the numbers taken out of the page: CSV, no -0, the flat view's modules, Find, Hide's modes
add_test(NAME view/browser-data
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/browser.sh browser_data.mjs $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/test-output/view/browser-data)
set_tests_properties(view/browser-data PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# issue 36's workflows: panes, columns, metrics, HPCToolkit against Score-P
add_test(NAME view/browser-ui
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/browser.sh browser_ui.mjs $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/test-output/view/browser-ui $<TARGET_FILE:make_metrics_db>)
set_tests_properties(view/browser-ui PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# the command line: --help and the option parser's refusals (tests/cli/run_case.sh's status form)
add_test(NAME view/help COMMAND $<TARGET_FILE:hpcdb> view --help)
foreach(bad "--port;70000;x" "--port;x;y" "--port;1;--port;2;x" "--frob;x" "a;b;c")
  string(REPLACE ";" "_" bad_name "${bad}")
  add_test(NAME view/refuse/${bad_name} COMMAND $<TARGET_FILE:hpcdb> view ${bad})
  set_tests_properties(view/refuse/${bad_name} PROPERTIES WILL_FAIL TRUE)
endforeach()
# hpcdb view A B: the comparison page against hpcdb compare --csv on gen_runs' pair and on cpi-mpi's
add_test(NAME view/browser-compare
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/browser.sh browser_compare.mjs $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/view/browser-compare $<TARGET_FILE:compare_gen_runs>
                 ${HPCDB_SAMPLE_DATA})
set_tests_properties(view/browser-compare PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# `make check` must run the browser tests, not skip them (it installs what they need)
add_test(NAME view/browser-available COMMAND ${CMAKE_CURRENT_LIST_DIR}/browser_available.sh)
set_tests_properties(view/browser-available PROPERTIES SKIP_RETURN_CODE 77)
