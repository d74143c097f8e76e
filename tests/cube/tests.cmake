# SPDX-License-Identifier: BSD-3-Clause
# Cube files: CubeLib's own values; every sample rewritten as Cube and converted to
# v4.0 and back; every v4.0 sample converted to Cube.
set(CUBE_DIR ${CMAKE_CURRENT_LIST_DIR})
foreach(spec "call_tree_test;call_tree_test" "time.p4;time.p4" "blast.p64.bigendian;blast.p64")
  list(GET spec 0 file)
  list(GET spec 1 ref)
  add_test(NAME cube/reference/${file}
           COMMAND python3 ${CUBE_DIR}/check_reference.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/cube/${file}.cubex
                   ${HPCDB_SAMPLE_DATA}/cube/${ref}.cubelib-incl.csv ${HPCDB_SAMPLE_DATA}/cube/${ref}.cubelib-excl.csv)
  set_tests_properties(cube/reference/${file} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
foreach(file all-dtypes blast.p64.bigendian call_tree_test cube-4.0-legacy-system dense-index-8-roots scorep-cpi
             threaded-example1 time.p4 zcubex-mm.x100)
  add_test(NAME cube/convert/${file}
           COMMAND ${CUBE_DIR}/convert_case.sh $<TARGET_FILE:hpcdb> cube ${HPCDB_SAMPLE_DATA}/cube/${file}.cubex
                   ${PROJECT_BINARY_DIR}/test-output/cube/${file})
  set_tests_properties(cube/convert/${file} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
foreach(db hpctoolkit-v4/cpi-mpi hpctoolkit-v4/ping-pong-mpi hpctoolkit-v4/hpcviewer-issue-328
           hpctoolkit-v4/lmp-openmp hpctoolkit-v4/loop-fork-cycles hpcrun/expected/small.d
           hpcrun/expected/loops-cputime-t.d)
  add_test(NAME cube/from-v4/${db}
           COMMAND ${CUBE_DIR}/convert_case.sh $<TARGET_FILE:hpcdb> v4 ${HPCDB_SAMPLE_DATA}/${db}
                   ${PROJECT_BINARY_DIR}/test-output/cube/from-v4/${db})
  set_tests_properties(cube/from-v4/${db} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# Broken Cube files (tests/bad/cube/check_bad.py makes them from a small valid
# file of its own): each rejected with its rule, no sample data needed.
add_test(NAME bad/cube
         COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/bad/cube/check_bad.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/bad/cube)
# What hpcdb writes, read as pycubexr and CubeLib read it (no index without a
# cnode, members by name, strict tar checksums), with the source's members
# that hpcdb does not interpret carried through.
foreach(src cube/call_tree_test.cubex cube/scorep-cpi.cubex cube/cube-4.0-legacy-system.cubex cube/all-dtypes.cubex
            cube/time.p4.cubex hpctoolkit-v4/cpi-mpi hpctoolkit-v4/lmp-openmp)
  add_test(NAME cube/strict-reader/${src}
           COMMAND python3 ${CUBE_DIR}/check_strict_reader.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/${src}
                   ${PROJECT_BINARY_DIR}/test-output/cube/strict/${src})
  set_tests_properties(cube/strict-reader/${src} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# CubeW 4.8's tar header checksums (32 below the right value) read with a
# warning; other checksum damage still refused.
add_test(NAME cube/tar-checksum
         COMMAND python3 ${CUBE_DIR}/check_tar_checksum.py $<TARGET_FILE:hpcdb> ${PROJECT_BINARY_DIR}/test-output/cube/tar-checksum)
# Integer metrics combined modulo 2^64 (wrapped hardware counters), said to be
# integers, kept so through Cube -> Cube.
add_test(NAME cube/integer-sums
         COMMAND python3 ${CUBE_DIR}/check_integer_sums.py $<TARGET_FILE:hpcdb> ${PROJECT_BINARY_DIR}/test-output/cube/integer-sums)
# 2^53 + 1 and 2^64 - 1 in a UINT64 metric: exact through the model into CSV,
# dump, dump --json and Cube -> Cube; Cube -> v4.0 (doubles) says it rounds.
add_test(NAME cube/integer-end-to-end
         COMMAND python3 ${CUBE_DIR}/check_integer_end_to_end.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/cube/integer-end-to-end)
# Values at 2^64 - k: hpcdb.open_cube's uint64 matrices exact (modulo 2^64, no double on the way);
# CSV exact too.
if(HPCDB_PYTHON_BUILT)
  add_test(NAME cube/integer-exact
           COMMAND ${HPCDB_PYTHON_EXECUTABLE} ${CUBE_DIR}/check_integer_exact.py $<TARGET_FILE:hpcdb>
                   ${PROJECT_BINARY_DIR}/test-output/cube/integer-exact)
  set(integer_exact_env PYTHONPATH=${PROJECT_BINARY_DIR}/python ${HPCDB_PY_SANITIZE_ENV})
  set_tests_properties(cube/integer-exact PROPERTIES ENVIRONMENT "${integer_exact_env}"
                                                     SKIP_RETURN_CODE 77)
endif()
# Wrapped UINT64 counters stored inclusive and exclusive (tests/cube/wrapped_counters.py makes the
# files): every (cnode, location) and every sum over locations exact modulo 2^64 in CSV, report's
# JSON, hpcdb view's tree and spread, Python (when built) and Cube -> Cube.
if(HPCDB_PYTHON_BUILT)
  add_test(NAME cube/wrapped-counters
           COMMAND ${HPCDB_PYTHON_EXECUTABLE} ${CUBE_DIR}/check_wrapped_counters.py $<TARGET_FILE:hpcdb>
                   ${PROJECT_BINARY_DIR}/test-output/cube/wrapped-counters ${HPCDB_PYTHON_EXECUTABLE})
  set_tests_properties(cube/wrapped-counters PROPERTIES ENVIRONMENT "${integer_exact_env}" SKIP_RETURN_CODE 77)
else()
  add_test(NAME cube/wrapped-counters
           COMMAND python3 ${CUBE_DIR}/check_wrapped_counters.py $<TARGET_FILE:hpcdb>
                   ${PROJECT_BINARY_DIR}/test-output/cube/wrapped-counters)
endif()
# Cube -> v4.0: every metric labelled `execution` in meta.db (read without
# hpcdb) holds subtree sums; min / max subtree values go to custom scopes.
foreach(file time.p4 all-dtypes scorep-cpi)
  add_test(NAME cube/v4-execution/${file}
           COMMAND python3 ${CUBE_DIR}/check_v4_execution.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/cube/${file}.cubex
                   ${PROJECT_BINARY_DIR}/test-output/cube/v4-execution/${file})
  set_tests_properties(cube/v4-execution/${file} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
