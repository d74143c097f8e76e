# SPDX-License-Identifier: BSD-3-Clause
# The trace query: exactness against a brute-force reference (Python), on
# generated traces of known content and on every real trace; bad inputs.
set(TRACE_DIR ${CMAKE_CURRENT_LIST_DIR})
set(TRACE_OUT ${PROJECT_BINARY_DIR}/test-output/trace)
add_executable(trace_probe ${TRACE_DIR}/trace_probe.c)
target_link_libraries(trace_probe PRIVATE hpcdb_static)

add_test(NAME trace/generate
         COMMAND ${CMAKE_COMMAND} -E env sh -c "rm -rf '${TRACE_OUT}/gen' && mkdir -p '${TRACE_OUT}' && $<TARGET_FILE:gen_trace_db> --profiles 13 --events 400 --period 1000 -o '${TRACE_OUT}/gen'")
set_tests_properties(trace/generate PROPERTIES FIXTURES_SETUP trace_gen)
add_test(NAME trace/exact/generated
         COMMAND python3 ${TRACE_DIR}/check_exact.py $<TARGET_FILE:trace_probe> ${TRACE_OUT}/gen ${TRACE_OUT}/cache-gen
                 --viewports 150 --gpu-check)
set_tests_properties(trace/exact/generated PROPERTIES FIXTURES_REQUIRED trace_gen)
# lines long enough for the index's coarse level (blocks of 64 buckets)
add_test(NAME trace/exact/generated-long
         COMMAND ${CMAKE_COMMAND} -E env sh -c "rm -rf '${TRACE_OUT}/gen-long' && $<TARGET_FILE:gen_trace_db> --profiles 3 --events 20000 --gpu-every 3 --period 1000 -o '${TRACE_OUT}/gen-long' && python3 '${TRACE_DIR}/check_exact.py' '$<TARGET_FILE:trace_probe>' '${TRACE_OUT}/gen-long' '${TRACE_OUT}/cache-gen-long' --viewports 60")
set_tests_properties(trace/exact/generated-long PROPERTIES TIMEOUT 300)
# tiles whose cells span many blocks (16 per line) with edges inside buckets, GPU streams of 1 ns kernels
add_test(NAME trace/exact/generated-wide
         COMMAND ${CMAKE_COMMAND} -E env sh -c "rm -rf '${TRACE_OUT}/gen-wide' && $<TARGET_FILE:gen_trace_db> --profiles 3 --events 32768 --gpu-every 2 --period 1000 -o '${TRACE_OUT}/gen-wide' && python3 '${TRACE_DIR}/check_exact.py' '$<TARGET_FILE:trace_probe>' '${TRACE_OUT}/gen-wide' '${TRACE_OUT}/cache-gen-wide' --viewports 5 --wide 16 --gpu-check")
set_tests_properties(trace/exact/generated-wide PROPERTIES TIMEOUT 300)

foreach(db hpctoolkit-v4/ping-pong-mpi hpctoolkit-v4/hpcviewer-issue-328 hpctoolkit-v4/lmp-openmp
           hpctoolkit-v4/loop-fork-cycles hpctoolkit-2022/ping-pong-mpi hpctoolkit-2022/empty-trace
           hpcrun/small.m hpcrun/loops-cputime-t.m hpcrun/loops-cuda-nvidia-t.m hpcrun/expected/small.d
           hpcrun/expected/loops-cputime-t.d hpcrun/expected/loops-cuda-nvidia-t.d
           hpcrun/expected/loops-cputime-t.nostruct.d hpcrun/expected/loops-cuda-nvidia-t.nostruct.d)
  string(REPLACE "/" "_" tag ${db})
  add_test(NAME trace/exact/${db}
           COMMAND python3 ${TRACE_DIR}/check_exact.py $<TARGET_FILE:trace_probe> ${HPCDB_SAMPLE_DATA}/${db}
                   ${TRACE_OUT}/cache-${tag} --viewports 150 --gpu-check)
  set_tests_properties(trace/exact/${db} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# hpcrun's "NoActvty" records are idle time, as in the database hpcprof made of the same measurements
foreach(run small loops-cputime-t loops-cuda-nvidia-t)
  add_test(NAME trace/hpcrun-idle/${run}
           COMMAND ${TRACE_DIR}/check_idle.sh $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/hpcrun/${run}.m
                   ${HPCDB_SAMPLE_DATA}/hpcrun/expected/${run}.d)
endforeach()

# What the queries hold in memory on a trace whose index is read from the
# cache (the pyramid about 28 MB, trace.db 154 MB): of the pyramid, what a
# thread's few mapped readers spanned since they last let go (4 MB each), and
# of trace.db about a folio per row at once (docs/trace.md, "Cost")
add_executable(trace_rss ${TRACE_DIR}/trace_rss.c)
target_link_libraries(trace_rss PRIVATE hpcdb_static Threads::Threads)
add_test(NAME trace/memory
         COMMAND ${CMAKE_COMMAND} -E env sh -c "rm -rf '${TRACE_OUT}/gen-rss' '${TRACE_OUT}/cache-rss' && $<TARGET_FILE:gen_trace_db> --profiles 256 --events 50000 --period 1000 -o '${TRACE_OUT}/gen-rss' && $<TARGET_FILE:trace_rss> '${TRACE_OUT}/gen-rss' '${TRACE_OUT}/cache-rss' 12288 16384 && rm -rf '${TRACE_OUT}/gen-rss'")
set_tests_properties(trace/memory PROPERTIES TIMEOUT 300)

# whole-run tiles kept in the cache: read back exactly, damaged ones computed again, three at most
add_test(NAME trace/kept-tiles
         COMMAND python3 ${TRACE_DIR}/check_kept.py $<TARGET_FILE:trace_probe> ${TRACE_OUT}/gen ${TRACE_OUT}/kept)
set_tests_properties(trace/kept-tiles PROPERTIES FIXTURES_REQUIRED trace_gen)

add_test(NAME trace/bad
         COMMAND python3 ${TRACE_DIR}/check_bad.py $<TARGET_FILE:trace_probe> $<TARGET_FILE:hpcdb> ${TRACE_OUT}/gen
                 ${TRACE_OUT}/bad $<TARGET_FILE:gen_trace_db>)
set_tests_properties(trace/bad PROPERTIES FIXTURES_REQUIRED trace_gen)

# The command line against expected output (real databases and the generated one).
function(trace_cli name db)
  add_test(NAME trace/cli/${name}
           COMMAND python3 ${TRACE_DIR}/check_cli.py $<TARGET_FILE:hpcdb> ${TRACE_DIR}/expected/${name}.txt ${db} ${ARGN})
  set_tests_properties(trace/cli/${name} PROPERTIES SKIP_RETURN_CODE 77 FIXTURES_REQUIRED trace_gen
                       ENVIRONMENT "XDG_CACHE_HOME=${TRACE_OUT}/xdg-cache")
endfunction()
trace_cli(ping-pong-at ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/ping-pong-mpi --at 1:1679027616700000000)
# frames in libraries without line information: no "(called at [libpsm2.so.2.2]:0)"
trace_cli(ping-pong-at-library ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/ping-pong-mpi --at 2:1679027616697672000)
# each element's own context: a line scope without a line ("[libpsm2.so.2.2]:0") named by its procedure
trace_cli(ping-pong-leaf ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/ping-pong-mpi --no-cache)
trace_cli(ping-pong-at-all-scopes ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/ping-pong-mpi --at 1:1679027616700000000 --scopes all)
# depth 3 in procedure frames: functions (main, hipMemcpy's callees), not the line scope dadd.hip.cpp:53
trace_cli(issue-328-depth3 ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/hpcviewer-issue-328 --depth 3)
trace_cli(issue-328-depth3-all-scopes ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/hpcviewer-issue-328 --depth 3 --scopes all)
trace_cli(gen-window-depth3 ${TRACE_OUT}/gen --depth 3 --window 1700000000000100000:1700000000000300000)
trace_cli(gen-gpu-depth2 ${TRACE_OUT}/gen --depth 2 --profiles GPUSTREAM)
trace_cli(gen-mpi ${TRACE_OUT}/gen --depth 3 --contexts MPI_*)

# The page's pure logic (undo/redo, row labels, kept colours, SVG) under Node.
find_program(HPCDB_NODE node)
if(HPCDB_NODE)
  add_test(NAME trace/page-logic COMMAND ${HPCDB_NODE} ${TRACE_DIR}/page_logic.mjs ${PROJECT_SOURCE_DIR}/src/lib/page/assets/trace)
endif()

# The timeline in the browser: the trace routes and page served by a test
# server (until hpcdb view registers them), driven by playwright-core.
pkg_check_modules(TRACE_MHD IMPORTED_TARGET libmicrohttpd)
if(TRACE_MHD_FOUND)
  add_executable(trace_serve ${TRACE_DIR}/trace_serve.c ${PROJECT_SOURCE_DIR}/src/view/routes_trace.c
                             ${PROJECT_SOURCE_DIR}/src/view/routes_trace_args.c ${PROJECT_SOURCE_DIR}/src/view/routes_trace_tile.c
                             ${PROJECT_SOURCE_DIR}/src/view/routes_trace_gpu.c
                             ${PROJECT_SOURCE_DIR}/src/view/trace_mount.c ${PROJECT_SOURCE_DIR}/src/view/supersede.c)
  target_include_directories(trace_serve PRIVATE ${PROJECT_SOURCE_DIR}/src/view)
  target_link_libraries(trace_serve PRIVATE hpcdb_static PkgConfig::TRACE_MHD)
  add_test(NAME trace/routes
           COMMAND python3 ${TRACE_DIR}/check_routes.py $<TARGET_FILE:trace_serve> ${PROJECT_SOURCE_DIR}/src/lib/page/assets/trace
                   ${TRACE_OUT}/gen)
  set_tests_properties(trace/routes PROPERTIES FIXTURES_REQUIRED trace_gen
                       ENVIRONMENT "XDG_CACHE_HOME=${TRACE_OUT}/xdg-cache;HPCDB_SAMPLE_DATA=${HPCDB_SAMPLE_DATA}")
  # rows long enough that the whole run's cells are whole buckets of the index
  add_test(NAME trace/generate-dense
           COMMAND ${CMAKE_COMMAND} -E env sh -c "rm -rf '${TRACE_OUT}/gen-dense' && mkdir -p '${TRACE_OUT}' && $<TARGET_FILE:gen_trace_db> --profiles 4 --events 200000 --period 1000 -o '${TRACE_OUT}/gen-dense'")
  set_tests_properties(trace/generate-dense PROPERTIES FIXTURES_SETUP trace_gen_dense)
  add_test(NAME trace/browser
           COMMAND ${TRACE_DIR}/browser.sh $<TARGET_FILE:trace_serve> $<TARGET_FILE:hpcdb>
                   ${PROJECT_SOURCE_DIR}/src/lib/page/assets/trace ${TRACE_OUT}/gen ${PROJECT_BINARY_DIR}/screenshots/trace
                   ${TRACE_OUT}/gen-dense)
  set_tests_properties(trace/browser PROPERTIES FIXTURES_REQUIRED "trace_gen;trace_gen_dense" SKIP_RETURN_CODE 77 TIMEOUT 240
                       ENVIRONMENT "XDG_CACHE_HOME=${TRACE_OUT}/xdg-cache")
  # navigating as an hpcviewer user: aligned views, crosshair, tree links, labels, vertical zoom, redo, colours, PNG/SVG
  add_test(NAME trace/generate-many-rows
           COMMAND ${CMAKE_COMMAND} -E env sh -c "rm -rf '${TRACE_OUT}/gen-many' && mkdir -p '${TRACE_OUT}' && $<TARGET_FILE:gen_trace_db> --profiles 300 --events 60 --period 1000 -o '${TRACE_OUT}/gen-many'")
  set_tests_properties(trace/generate-many-rows PROPERTIES FIXTURES_SETUP trace_gen_many)
  add_test(NAME trace/browser-nav
           COMMAND ${TRACE_DIR}/browser.sh $<TARGET_FILE:hpcdb> ${TRACE_OUT}/gen ${TRACE_OUT}/gen-many
                   ${HPCDB_SAMPLE_DATA}/hpctoolkit-v4/ping-pong-mpi ${PROJECT_BINARY_DIR}/screenshots/trace-nav)
  set_tests_properties(trace/browser-nav PROPERTIES FIXTURES_REQUIRED "trace_gen;trace_gen_many" SKIP_RETURN_CODE 77 TIMEOUT 240
                       ENVIRONMENT "XDG_CACHE_HOME=${TRACE_OUT}/xdg-cache;HPCDB_BROWSER_SCRIPT=browser_nav.mjs")
  # the same page served by hpcdb view itself (token, cookie, /assets/trace/)
  add_test(NAME trace/browser-view
           COMMAND ${TRACE_DIR}/browser.sh $<TARGET_FILE:hpcdb> $<TARGET_FILE:hpcdb>
                   ${PROJECT_SOURCE_DIR}/src/lib/page/assets/trace ${TRACE_OUT}/gen ${PROJECT_BINARY_DIR}/screenshots/trace-view)
  set_tests_properties(trace/browser-view PROPERTIES FIXTURES_REQUIRED trace_gen SKIP_RETURN_CODE 77 TIMEOUT 180
                       ENVIRONMENT "XDG_CACHE_HOME=${TRACE_OUT}/xdg-cache")
endif()
