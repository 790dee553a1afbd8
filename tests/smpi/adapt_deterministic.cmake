# SPDX-License-Identifier: BSD-3-Clause
# Adaptive selection under SMPI is deterministic: the same program run twice
# makes the same decisions.  Runs COMMAND (a list) twice, each with its own
# PAPCOLL_ADAPT_REPORT (REPORT.1, REPORT.2); both runs must succeed, the
# reports must hold at least one decision (a "choice" line; -DEXPECT=regex:
# a match of that instead) and be identical once the module names are dropped
# (SMPI loads a copy of the program per simulated process, named after the
# run's process id).
#   cmake -DCOMMAND=... -DREPORT=path [-DEXPECT=regex] -P adapt_deterministic.cmake
if(NOT DEFINED EXPECT)
  set(EXPECT "calls, choice ")
endif()
foreach(run 1 2)
  file(REMOVE ${REPORT}.${run})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PAPCOLL_ADAPT_REPORT=${REPORT}.${run} ${COMMAND}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run} failed (${rc}):\n${out}\n${err}")
  endif()
  if(NOT EXISTS ${REPORT}.${run})
    message(FATAL_ERROR "run ${run} wrote no PAPCOLL_ADAPT_REPORT:\n${out}\n${err}")
  endif()
  file(READ ${REPORT}.${run} report)
  string(REGEX REPLACE " site [^ +]+\\+" " site +" report_${run} "${report}")
endforeach()
if(NOT report_1 MATCHES "${EXPECT}")
  message(FATAL_ERROR "no decision in the report:\n${report_1}")
endif()
if(NOT report_1 STREQUAL report_2)
  message(FATAL_ERROR "two runs decided differently:\n--- run 1\n${report_1}\n--- run 2\n${report_2}")
endif()
string(REGEX MATCHALL "calls, choice [a-z_]+" choices "${report_1}")
list(LENGTH choices n)
message(STATUS "identical reports, ${n} decisions")
