# SPDX-License-Identifier: BSD-3-Clause
# The build itself: the warning set holds over every file.
add_test(NAME build/warnings
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_warnings.py ${PROJECT_BINARY_DIR})
