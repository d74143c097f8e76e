# Broken structure files (tests/bad/hpcstruct/cases.txt), each rejected by
# validate and info with its rule and line.
add_test(NAME bad/hpcstruct
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcstruct/run.sh $<TARGET_FILE:hpcdb>
                 ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcstruct ${PROJECT_BINARY_DIR}/test-output/bad/hpcstruct)
