# SPDX-License-Identifier: BSD-3-Clause
# expect_log.cmake - runs one MPI program with papcoll's debug log on and
# checks that every call of the given collectives went through papcoll.
#
#   cmake "-DCOMMAND=mpiexec;-n;3;...;program;args" -DNP=3 "-DCOLLECTIVES=bcast[,reduce...]"
#         "-DENV=LD_PRELOAD=...;PAPCOLL_LOG=debug" ["-DEXPECT=regex;..."] -P expect_log.cmake
#
# The program must exit 0 and print a line "...: np=NP bcast=B reduce=R
# allreduce=A ...: OK" (how many calls of each collective every rank made).  For
# each collective C of COLLECTIVES and each rank r < NP, the output must hold
# exactly that many lines "papcoll[r] debug: C seq=" (papcoll's one debug line
# per call, which names the function as called: Cv, Cw and C_block lines,
# the v, w and block forms, count for C; "bcast (inner)" lines of hierarchical
# algorithms do not match).  Every debug line's byte count must be a
# non-negative number, and each regex of EXPECT must match the output.
# With -DALGORITHMS=bcast:dynleader[,reduce:binomial...], every such line of
# that collective must also say "algorithm=NAME (forced by PAPCOLL_<COLL>)".
# With -DTRACE_DIR=DIR (the arrival tracer linked in, docs/trace.md), the run
# is traced into DIR (emptied first) and every rank must have recorded
# exactly the calls the OK line counts, no more (nothing of papcoll's own).
foreach(var COMMAND NP COLLECTIVES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_log.cmake: -D${var}=... is required")
  endif()
endforeach()

if(DEFINED TRACE_DIR)
  file(REMOVE_RECURSE ${TRACE_DIR})
  list(APPEND ENV PAPCOLL_TRACE_DIR=${TRACE_DIR})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENV} ${COMMAND}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT 100)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expect_log: the program failed (${rc})")
endif()
# the counts: every " name=N" of the OK line
if(NOT out MATCHES ": np=${NP}(( [a-z_]+=[0-9]+)+): OK")
  message(FATAL_ERROR "expect_log: no line \": np=${NP} bcast=B reduce=R ...: OK\"")
endif()
string(REGEX MATCHALL "[a-z_]+=[0-9]+" counted "${CMAKE_MATCH_1}")
foreach(pair ${counted})
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 calls)
  set(calls_${name} ${calls})
endforeach()

string(REPLACE "," ";" COLLECTIVES "${COLLECTIVES}")
set(missing "")
math(EXPR last_rank "${NP} - 1")
foreach(collective ${COLLECTIVES})
  if(NOT DEFINED calls_${collective})
    message(FATAL_ERROR "expect_log: unknown collective ${collective} (the OK line names ${counted})")
  endif()
  if(calls_${collective} EQUAL 0)
    message(FATAL_ERROR "expect_log: the program made no ${collective} call to check")
  endif()
  foreach(rank RANGE ${last_rank})
    string(REGEX MATCHALL "papcoll\\[${rank}\\] debug: ${collective}(v|w|_block)? seq=" lines "${out}")
    list(LENGTH lines logged)
    if(NOT logged EQUAL calls_${collective})
      string(APPEND missing "\n  rank ${rank}: ${logged} papcoll debug lines for ${calls_${collective}} ${collective} calls")
    endif()
  endforeach()
endforeach()
if(missing)
  message(FATAL_ERROR "expect_log: calls that did not go through papcoll:${missing}")
endif()
if(out MATCHES "papcoll\\[[0-9]+\\] debug: [a-z_]+ (\\(inner\\) )?seq=[0-9]+ bytes=[^0-9]")
  message(FATAL_ERROR "expect_log: a debug line without a non-negative byte count: ${CMAKE_MATCH_0}")
endif()
foreach(regex ${EXPECT})
  if(NOT out MATCHES "${regex}")
    message(FATAL_ERROR "expect_log: no line of the output matches \"${regex}\"")
  endif()
endforeach()
if(DEFINED ALGORITHMS)
  string(REPLACE "," ";" ALGORITHMS "${ALGORITHMS}")
  foreach(pair ${ALGORITHMS})
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 collective)
    list(GET pair 1 algorithm)
    string(TOUPPER ${collective} upper)
    string(REGEX MATCHALL "debug: ${collective}(v|w|_block)? seq=[^\n]*" lines "${out}")
    string(REGEX MATCHALL "debug: ${collective}(v|w|_block)? seq=[^\n]* algorithm=${algorithm} \\(forced by PAPCOLL_${upper}\\)"
      forced "${out}")
    list(LENGTH lines all)
    list(LENGTH forced good)
    if(NOT all EQUAL good)
      string(APPEND missing "\n  ${collective}: ${good} of ${all} calls ran ${algorithm} forced by PAPCOLL_${upper}")
    endif()
  endforeach()
  if(missing)
    message(FATAL_ERROR "expect_log: calls that did not run the forced algorithm:${missing}")
  endif()
  message("expect_log: every call ran the algorithm forced")
endif()
message("expect_log: every ${COLLECTIVES} call of each of the ${NP} ranks went through papcoll")
if(DEFINED TRACE_DIR)
  set(total 0)
  foreach(pair ${counted})
    string(REGEX REPLACE ".*=" "" calls "${pair}")
    math(EXPR total "${total} + ${calls}")
  endforeach()
  file(GLOB runs ${TRACE_DIR}/papcoll-trace-*/header.json)
  list(LENGTH runs nruns)
  if(NOT nruns EQUAL 1)
    message(FATAL_ERROR "expect_log: ${nruns} traced runs in ${TRACE_DIR}, expected 1")
  endif()
  file(READ ${runs} header)
  foreach(rank RANGE ${last_rank})
    string(JSON recorded GET "${header}" records ${rank})
    if(NOT recorded EQUAL total)
      message(FATAL_ERROR "expect_log: rank ${rank} recorded ${recorded} calls, the program made ${total}")
    endif()
  endforeach()
  message("expect_log: every rank recorded its ${total} calls")
endif()
