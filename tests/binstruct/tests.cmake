# SPDX-License-Identifier: BSD-3-Clause
# hpcdb struct: bundled programs built with -O2 -g (inlining, nested loops, a
# loop in an inlined function, recursion, a shared library) whose source marks
# the functions, inlined calls and loops the structure file must hold; binaries
# without DWARF; -j and cache invariance; the shape of HPCToolkit's DTD.
set(BS_SRC ${CMAKE_CURRENT_LIST_DIR}/programs)
set(BS_BIN ${PROJECT_BINARY_DIR}/tests/binstruct)
set(BS_CHECK ${CMAKE_CURRENT_LIST_DIR}/check_struct.py)
# Built with the compiler directly: exactly -O2 -g whatever the build type or sanitizers.
add_custom_command(
  OUTPUT ${BS_BIN}/libbs_shared.so ${BS_BIN}/bs_kernels ${BS_BIN}/bs_kernels.nodwarf ${BS_BIN}/bs_classes
  COMMAND ${CMAKE_COMMAND} -E make_directory ${BS_BIN}
  COMMAND ${CMAKE_C_COMPILER} -O2 -g -fPIC -shared -o ${BS_BIN}/libbs_shared.so ${BS_SRC}/shared.c
  COMMAND ${CMAKE_C_COMPILER} -O2 -g -o ${BS_BIN}/bs_kernels ${BS_SRC}/kernels.c
          -L${BS_BIN} -lbs_shared -Wl,-rpath,${BS_BIN}
  COMMAND ${CMAKE_OBJCOPY} --strip-debug ${BS_BIN}/bs_kernels ${BS_BIN}/bs_kernels.nodwarf
  COMMAND ${CMAKE_C_COMPILER} -x c++ -O2 -g -o ${BS_BIN}/bs_classes ${BS_SRC}/classes.cpp -x none -lstdc++
  DEPENDS ${BS_SRC}/kernels.c ${BS_SRC}/shared.c ${BS_SRC}/shared.h ${BS_SRC}/classes.cpp
  COMMENT "Building hpcdb struct's test programs (-O2 -g)")
add_custom_target(binstruct_programs ALL DEPENDS ${BS_BIN}/libbs_shared.so ${BS_BIN}/bs_kernels
                                                 ${BS_BIN}/bs_kernels.nodwarf ${BS_BIN}/bs_classes)

function(binstruct_test name)
  add_test(NAME binstruct/${name}
           COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                   sh ${BS_CHECK} $<TARGET_FILE:hpcdb> ${PROJECT_BINARY_DIR}/test-output/binstruct/${name} ${ARGN})
  set_tests_properties(binstruct/${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

binstruct_test(marks/program marks ${BS_BIN}/bs_kernels ${BS_SRC}/kernels.c)
binstruct_test(marks/shared-library marks ${BS_BIN}/libbs_shared.so ${BS_SRC}/shared.c)
binstruct_test(marks/c++ marks ${BS_BIN}/bs_classes ${BS_SRC}/classes.cpp)
binstruct_test(symbols/stripped-program symbols ${BS_BIN}/bs_kernels.nodwarf)
binstruct_test(symbols/usr-bin-ls symbols /usr/bin/ls)
binstruct_test(jobs jobs ${BS_BIN}/bs_kernels)
# the system's C library: DWARF from its split debug file when libc6-dbg is installed
# (aliases give two subprograms one entry), else symbols
binstruct_test(shape/libc shape /lib/x86_64-linux-gnu/libc.so.6)
binstruct_test(cache cache ${BS_BIN}/bs_kernels)
binstruct_test(measurements/vdso measurements ${HPCDB_SAMPLE_DATA}/hpcrun/loops-cputime-t.m)
binstruct_test(measurements/gpubin measurements ${HPCDB_SAMPLE_DATA}/hpcrun/loops-cuda-nvidia-t.m)
binstruct_test(analyze/vdso analyze ${HPCDB_SAMPLE_DATA}/hpcrun/loops-cputime-t.m
               ${HPCDB_SAMPLE_DATA}/hpcrun/expected/loops-cputime-t.d)

add_test(NAME binstruct/help COMMAND hpcdb struct --help)
add_test(NAME binstruct/not-elf COMMAND hpcdb struct ${BS_SRC}/shared.h -o -)
set_tests_properties(binstruct/not-elf PROPERTIES WILL_FAIL TRUE)
add_test(NAME binstruct/relative-name
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/relative_name.sh $<TARGET_FILE:hpcdb> ${BS_BIN}/bs_kernels
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/relative-name)
# hpcstruct's conventions rule by rule (procedure lines, inlined callees' places, early lines guarded,
# one pair per call site, recursion inlined, calls without a call site) on HPCToolkit-style builds
add_test(NAME binstruct/hpcstruct-rules
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_hpcstruct_rules.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/hpcstruct-rules ${BS_SRC}/hpcstruct_rules.c
                 ${HPCDB_SAMPLE_DATA}/hpcrun/loops.c ${HPCDB_SAMPLE_DATA}/hpcrun/small.c)
set_tests_properties(binstruct/hpcstruct-rules PROPERTIES SKIP_RETURN_CODE 77)
# binaries stored compressed (xz, gzip, bzip2): the structure of the ELF inside; damaged ones refused
add_test(NAME binstruct/compressed
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/compressed.sh $<TARGET_FILE:hpcdb> ${BS_BIN}/bs_kernels
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/compressed)
set_tests_properties(binstruct/compressed PROPERTIES SKIP_RETURN_CODE 77)
# optimized code built in the test (gcc and clang, -O0 .. -O3 -g): every statement against addr2line,
# loops and inlined calls where the source puts them, in struct's output and in report's tree
add_test(NAME binstruct/optimized
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_optimized.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/optimized ${BS_SRC}/inline_loops.c record)
set_tests_properties(binstruct/optimized PROPERTIES SKIP_RETURN_CODE 77)
# hpcstruct's conventions as HPCToolkit's tests/hpcstruct state them, on a library built in the test
# (gcc and clang, -O0/-O3, with and without -g): lines of procedures and inlined calls, loops, the PLT
add_test(NAME binstruct/conventions
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_conventions.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/conventions ${BS_SRC}/conventions.c)
set_tests_properties(binstruct/conventions PROPERTIES SKIP_RETURN_CODE 77)
# hpcstruct's guard aliens (<A n="<inline>">) around lines of another file than their scope's (#include
# in a function body, #line), built in the test (gcc and clang, -O0 -g / -O2 -g): every statement's
# function chain, line and file against addr2line, and analyze's tree the same with the structure file
add_test(NAME binstruct/guard
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_guard.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/guard ${BS_SRC}/guard_lines.c)
set_tests_properties(binstruct/guard PROPERTIES SKIP_RETURN_CODE 77)
# functions of code without symbols from the unwind tables: stripped Debian binaries (each FDE whole in
# one procedure), and a C++/OpenMP program built -O2 -g then stripped (the same extents; analyze from the
# binary: one row per function)
add_test(NAME binstruct/unwind/debian
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_unwind.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/unwind-debian fdes /usr/bin/hpcc
                 /usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0
                 /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_btl_vader.so)
add_test(NAME binstruct/unwind/stripped
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_unwind.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/unwind-stripped stripped ${BS_SRC}/unwind_funcs.cpp)
set_tests_properties(binstruct/unwind/debian binstruct/unwind/stripped PROPERTIES SKIP_RETURN_CODE 77)
# names as the toolchains print them, the same from DWARF and from the symbol table: GCC clones (OpenMP
# outlined, constprop, cold), static C++ functions, lambdas, gfortran module procedures
add_test(NAME binstruct/unwind/names
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_unwind.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/unwind-names names ${BS_SRC}/unwind_funcs.cpp
                 ${BS_SRC}/heat_mod.f90 ${BS_SRC}/rust_kernels.rs)
set_tests_properties(binstruct/unwind/names PROPERTIES SKIP_RETURN_CODE 77)
# separate debug info: Debian's libc6-dbg by build id; a debuginfod server on loopback (in a network
# namespace of its own when `unshare -n` may make one) serving the debug file of a stripped program
add_test(NAME binstruct/debug-info/libc
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }; exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_debug_info.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/debug-info-libc libc /lib/x86_64-linux-gnu/libc.so.6)
add_test(NAME binstruct/debug-info/debuginfod
         COMMAND sh -c "test -x /usr/bin/python3 || { echo 'skipped: no /usr/bin/python3'; exit 77; }
                        if unshare -n true 2>/dev/null; then exec unshare -n env HPCDB_IN_NETNS=1 /usr/bin/python3 \"$@\"; fi
                        exec /usr/bin/python3 \"$@\""
                 sh ${CMAKE_CURRENT_LIST_DIR}/check_debug_info.py $<TARGET_FILE:hpcdb>
                 ${PROJECT_BINARY_DIR}/test-output/binstruct/debug-info-debuginfod debuginfod ${BS_SRC}/inline_loops.c)
set_tests_properties(binstruct/debug-info/libc binstruct/debug-info/debuginfod PROPERTIES SKIP_RETURN_CODE 77)
