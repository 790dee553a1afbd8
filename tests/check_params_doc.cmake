# SPDX-License-Identifier: BSD-3-Clause
# Fails when docs/params.md differs from `papcoll-bench --list-params --format=md`.
execute_process(COMMAND ${MPIEXEC} -n 1 ${FLAGS} ${BENCH} --list-params --format=md
  OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "papcoll-bench --list-params failed (${rc})")
endif()
file(READ ${DOC} committed)
if(NOT generated STREQUAL committed)
  file(WRITE ${DOC}.generated "${generated}")
  message(FATAL_ERROR "docs/params.md is stale: regenerate with `make docs` (new version written to ${DOC}.generated)")
endif()
message(STATUS "docs/params.md matches the parameter table")
