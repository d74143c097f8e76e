# SPDX-License-Identifier: BSD-3-Clause
# Command-line tests: acceptance round trips on every real v4.0 database,
# exact expected output, exit statuses.
set(CLI_CASE ${CMAKE_CURRENT_LIST_DIR}/run_case.sh)
function(cli_test name)
  add_test(NAME cli/${name}
           COMMAND ${CLI_CASE} $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA} ${PROJECT_BINARY_DIR}/test-output/cli/${name} ${ARGN})
  set_tests_properties(cli/${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

foreach(db hpctoolkit-v4/cpi-mpi hpctoolkit-v4/ping-pong-mpi hpctoolkit-v4/hpcviewer-issue-328
           hpctoolkit-v4/lmp-openmp hpctoolkit-v4/loop-fork-cycles hpcrun/expected/small.d
           hpcrun/expected/small.nostruct.d hpcrun/expected/loops-cputime-t.d
           hpcrun/expected/loops-cputime-t.nostruct.d hpcrun/expected/loops-cuda-nvidia-t.d
           hpcrun/expected/loops-cuda-nvidia-t.nostruct.d)
  cli_test(roundtrip/${db} roundtrip ${db})
endforeach()

cli_test(expect/info-cpi-mpi expect info-cpi-mpi.txt info @/hpctoolkit-v4/cpi-mpi)
cli_test(expect/info-ping-pong expect info-ping-pong.txt info @/hpctoolkit-v4/ping-pong-mpi)
cli_test(expect/validate-ping-pong expect validate-ping-pong.txt validate @/hpctoolkit-v4/ping-pong-mpi)
cli_test(expect/diff-small expect diff-small.txt diff --max 3 @/hpcrun/expected/small.d @/hpcrun/expected/small.nostruct.d)
# hpcrun's copy of the vDSO ("<md5>.vdso") shown as [vdso], not as its hash
cli_test(expect/report-bottom-up-vdso expect report-bottom-up-vdso.txt report --view bottom-up --top 12 @/hpcrun/expected/loops-cputime-t.d)

foreach(db cpi-mpi ping-pong-mpi)
  foreach(view top-down bottom-up flat profiles)
    cli_test(expect/report-${view}-${db} expect report-${view}-${db}.txt report --view ${view} --top 15 @/hpctoolkit-v4/${db})
  endforeach()
endforeach()
# a GPU run: the kernel under its launch site; CPU threads and GPU streams as two groups
foreach(view top-down profiles)
  cli_test(expect/report-${view}-cuda expect report-${view}-cuda.txt report --view ${view} --metric "GKER (sec)"
           --metric GKER:COUNT @/hpcrun/expected/loops-cuda-nvidia-t.nostruct.d)
endforeach()
cli_test(expect/folded-ping-pong-mpi expect folded-ping-pong-mpi.txt export --format folded @/hpctoolkit-v4/ping-pong-mpi -o -)
# Useful defaults: on a CUDA database the first metrics are all-zero GPU metrics; the default is the
# first time metric with a non-zero total, said in the header (report) or on stderr (export).
cli_test(expect/report-default-cuda expect report-default-cuda.txt report --top 5 @/hpcrun/expected/loops-cuda-nvidia-t.d)
cli_test(expect/folded-cuda expect folded-cuda.txt export --format folded @/hpcrun/expected/loops-cuda-nvidia-t.d -o -)
cli_test(status/folded-zero-metric status 2 export --format folded --metric "GSYNC:STR (sec)"
         @/hpcrun/expected/loops-cuda-nvidia-t.d -o ${PROJECT_BINARY_DIR}/test-output/zero.folded)
# Narrow tables cut names at word boundaries and fold lines to "[N more]".
cli_test(expect/report-narrow-cpi-mpi expect report-narrow-cpi-mpi.txt report --top 2 --width 60 @/hpctoolkit-v4/cpi-mpi)

# the formats and what hpcdb does with each, from the library's list (one descriptor a format)
cli_test(expect/formats expect formats.txt formats)
foreach(cmd info validate dump convert diff analyze report export struct record formats)
  cli_test(help/${cmd} status 0 ${cmd} --help)
endforeach()
cli_test(status/no-command status 2)
cli_test(status/unknown-command status 2 frobnicate)
cli_test(status/missing-file status 2 info /nonexistent/database)
cli_test(status/validate-missing status 2 validate /nonexistent/database)
cli_test(status/diff-same status 0 diff @/hpctoolkit-v4/cpi-mpi @/hpctoolkit-v4/cpi-mpi)
cli_test(status/diff-different status 1 diff @/hpctoolkit-v4/cpi-mpi @/hpctoolkit-v4/ping-pong-mpi)
cli_test(status/validate-single-file status 0 validate @/hpctoolkit-v4/ping-pong-mpi/profile.db)
cli_test(status/convert-cube-strict status 1 convert --strict --to cube @/hpctoolkit-v4/ping-pong-mpi ${PROJECT_BINARY_DIR}/test-output/strict.cubex)
cli_test(status/convert-unknown-format status 2 convert --to otf2 @/hpctoolkit-v4/ping-pong-mpi ${PROJECT_BINARY_DIR}/test-output/x.otf2)
# dump --json from cct.db against the model's, on generated databases; a damaged cct.db
add_test(NAME cli/dump-json-cct
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/dump_json_cct.sh $<TARGET_FILE:hpcdb> $<TARGET_FILE:gen_v4db>
                 ${PROJECT_BINARY_DIR}/test-output/cli/dump-json-cct)
# The command line's refusals and error messages, one test per row of options.table.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/options.table CLI_TABLE_ROWS REGEX "^[a-z0-9-]+ \\|")
foreach(row IN LISTS CLI_TABLE_ROWS)
  string(REGEX MATCH "^[a-z0-9-]+" row_name "${row}")
  add_test(NAME cli/option/${row_name}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/table_case.sh $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                   ${PROJECT_BINARY_DIR}/test-output/cli/option/${row_name} ${CMAKE_CURRENT_LIST_DIR}/options.table ${row_name})
  set_tests_properties(cli/option/${row_name} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# A person's terminal (forced: the tests run in pipes): functions only, libraries and chains
# collapsed, no zero rows, indentation that turns into depth numbers; the profiles view grouped
# and selected by identity levels; a GPU run's streams without values; a Cube min metric.
function(cli_tty_test name)
  cli_test(${name} ${ARGN})
  set_tests_properties(cli/${name} PROPERTIES ENVIRONMENT "HPCDB_TERMINAL=1;COLUMNS=100")
endfunction()
cli_tty_test(tty/top-down-cpi-mpi expect tty-top-down-cpi-mpi.txt report @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/bottom-up-cpi-mpi expect tty-bottom-up-cpi-mpi.txt report --view bottom-up --top 8 @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/scopes-all-cpi-mpi expect tty-scopes-all-cpi-mpi.txt report --scopes all --collapse none --top 2 --depth 30 @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/narrow-cpi-mpi expect tty-narrow-cpi-mpi.txt report --width 60 --top 3 @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/profiles-cpi-mpi expect tty-profiles-cpi-mpi.txt report --view profiles @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/profiles-by-rank-cpi-mpi expect tty-profiles-by-rank-cpi-mpi.txt report --view profiles --by rank @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/profiles-pattern-cpi-mpi expect tty-profiles-pattern-cpi-mpi.txt report --view profiles --profile rank=0-1,thread=0 @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/top-down-rank-cpi-mpi expect tty-top-down-rank-cpi-mpi.txt report --profile rank=3 --top 3 @/hpctoolkit-v4/cpi-mpi)
cli_tty_test(tty/top-down-cuda analyzed tty-top-down-cuda.txt @/hpcrun/loops-cuda-nvidia-t.m report %)
cli_tty_test(tty/profiles-cuda analyzed tty-profiles-cuda.txt @/hpcrun/loops-cuda-nvidia-t.m report --view profiles %)
cli_tty_test(tty/profiles-cube expect tty-profiles-cube.txt report --view profiles @/cube/scorep-cpi.cubex)
cli_tty_test(tty/min-metric-cube expect tty-min-metric-cube.txt report --metric time --metric min_time --top 3 @/cube/scorep-cpi.cubex)
