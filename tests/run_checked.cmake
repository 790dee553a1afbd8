# SPDX-License-Identifier: BSD-3-Clause
# run(COMMAND...) for the cmake -P scripts of the install tests: runs the
# command, fails the test with its output unless it exits 0, prints its
# output, and leaves it in `out` and `err` for the caller.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
