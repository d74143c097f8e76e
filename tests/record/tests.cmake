# SPDX-License-Identifier: BSD-3-Clause
# hpcdb record: bundled programs measured end to end (record, validate,
# analyze, validate the database, samples inside the right functions by nm).
# The programs are built without sanitizers: libhpcdb_record.so is preloaded
# into them, and a sanitizer runtime must come first in a process.
set(REC_DIR ${CMAKE_CURRENT_LIST_DIR})
set(REC_BIN ${PROJECT_BINARY_DIR}/tests/record)
set(REC_FLAGS -fno-inline -fno-optimize-sibling-calls -fno-sanitize=all)
function(record_test_program name)
  add_executable(record_${name} ${REC_DIR}/${name}.c)
  target_compile_options(record_${name} PRIVATE ${REC_FLAGS})
  target_link_options(record_${name} PRIVATE -fno-sanitize=all)
  set_target_properties(record_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${REC_BIN})
endfunction()
foreach(p ratio recursive threads dlopen forkexec sigprof sigalrm endings stress)
  record_test_program(${p})
endforeach()
target_sources(record_stress PRIVATE ${REC_DIR}/stress_extra.c)
target_link_libraries(record_stress PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
# C++ exceptions through sampled frames, where a C++ compiler is installed
include(CheckLanguage)
check_language(CXX)
set(REC_STRESS_CXX "")
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  add_executable(record_stress_cxx ${REC_DIR}/stress_cxx.cc)
  get_target_property(rec_cxx_opts record_stress_cxx COMPILE_OPTIONS) # the project's C-only warning out
  list(REMOVE_ITEM rec_cxx_opts -Wstrict-prototypes)
  set_target_properties(record_stress_cxx PROPERTIES COMPILE_OPTIONS "${rec_cxx_opts}")
  target_compile_options(record_stress_cxx PRIVATE ${REC_FLAGS})
  target_link_options(record_stress_cxx PRIVATE -fno-sanitize=all)
  set_target_properties(record_stress_cxx PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${REC_BIN})
  set(REC_STRESS_CXX exceptions)
endif()
target_link_libraries(record_threads PRIVATE Threads::Threads)
target_compile_options(record_recursive PRIVATE -fno-omit-frame-pointer) # for the fp-unwind case
target_link_libraries(record_dlopen PRIVATE ${CMAKE_DL_LIBS})
add_library(record_plugin SHARED ${REC_DIR}/plugin.c)
target_compile_options(record_plugin PRIVATE ${REC_FLAGS})
target_link_options(record_plugin PRIVATE -fno-sanitize=all)
set_target_properties(record_plugin PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${REC_BIN})
add_dependencies(record_dlopen record_plugin)
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  record_test_program(mpi_ranks)
  target_link_libraries(record_mpi_ranks PRIVATE MPI::MPI_C)
  record_test_program(mpi_late_rank)
  target_link_libraries(record_mpi_late_rank PRIVATE MPI::MPI_C)
endif()

foreach(case ratio recursive fp-unwind threads trace dlopen forkexec sigprof sigalrm exit sigterm segv abort perf hardware mpi launchers mpi-comm-rank
             bad-event bad-period bad-directory bad-program exists)
  add_test(NAME record/${case}
           COMMAND bash ${REC_DIR}/run_case.sh ${case} $<TARGET_FILE:hpcdb> ${REC_BIN} ${REC_BIN}/work)
  set_tests_properties(record/${case} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# Stress programs (tests/record/stress.sh): the same output and exit status with the recorder.
# Its quick list (2,000 threads, no long run); bench/record_stress.sh runs the whole suite.
add_test(NAME record/stress COMMAND bash ${REC_DIR}/stress.sh $<TARGET_FILE:hpcdb> ${REC_BIN} ${REC_BIN}/stress 1)
# Sampling ratios hold only while the sampled thread has a core to itself:
# beside another test on a 2-core machine it measured 0.96-6.4 for 3.
set_tests_properties(record/ratio PROPERTIES RUN_SERIAL TRUE)

# The tree the signal handler builds, tested alone (its sources, no preloading).
add_executable(record_test_cct ${REC_DIR}/test_cct.c ${PROJECT_SOURCE_DIR}/src/record/cct.c
                               ${PROJECT_SOURCE_DIR}/src/record/arena.c)
target_include_directories(record_test_cct PRIVATE ${PROJECT_SOURCE_DIR}/src/record)
add_test(NAME record/cct COMMAND record_test_cct)
