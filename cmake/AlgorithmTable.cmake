# SPDX-License-Identifier: BSD-3-Clause
# papcoll_algorithm_table(COLL OUT_SOURCES)
#
# Reads src/<COLL>/algorithms.list (one line per algorithm:
# `name | requirements | description`, '#' comments) and generates, in the
# build tree, <COLL>_algorithms.h (the prototypes pc_<COLL>_<name>) and
# <COLL>_table.c (the table pc_<COLL>_algorithms[]).  Appends to OUT_SOURCES
# the table and src/<COLL>/<COLL>_<name>.c for every algorithm: adding an
# algorithm is one file and one line of its list.
function(papcoll_algorithm_table coll out_sources)
  set(list_file ${PROJECT_SOURCE_DIR}/src/${coll}/algorithms.list)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list_file})
  file(STRINGS ${list_file} lines ENCODING UTF-8)  # descriptions cite sections as §3.7.2
  set(protos "")
  set(rows "")
  set(sources ${${out_sources}})
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*(#|$)")
      continue()
    endif()
    if(NOT line MATCHES "^[ \t]*([a-z0-9_]+)[ \t]*\\|[ \t]*([a-z_,-]+)[ \t]*\\|[ \t]*(.+)$")
      message(FATAL_ERROR "${list_file}: cannot parse line: ${line}")
    endif()
    set(name ${CMAKE_MATCH_1})
    set(reqs ${CMAKE_MATCH_2})
    string(STRIP "${CMAKE_MATCH_3}" desc)
    string(REPLACE "\\" "\\\\" desc "${desc}")
    string(REPLACE "\"" "\\\"" desc "${desc}")
    set(flags "0")
    if(NOT reqs STREQUAL "-")
      string(REPLACE "," ";" reqs "${reqs}")
      foreach(r IN LISTS reqs)
        if(r STREQUAL "datatype")
          string(APPEND flags " | PC_WANTS_DATATYPE")
        elseif(r STREQUAL "hierarchical")
          string(APPEND flags " | PC_HIERARCHICAL")
        elseif(r STREQUAL "commutative")
          string(APPEND flags " | PC_COMMUTATIVE_ONLY")
        elseif(r STREQUAL "builtin_op")
          string(APPEND flags " | PC_BUILTIN_OP_ONLY")
        else()
          message(FATAL_ERROR "${list_file}: unknown requirement '${r}' of ${name}")
        endif()
      endforeach()
    endif()
    string(APPEND protos "int pc_${coll}_${name}(const pc_call_t *a);\n")
    string(APPEND rows "    {\"${name}\", pc_${coll}_${name}, ${flags}, \"${desc}\"},\n")
    list(APPEND sources ${PROJECT_SOURCE_DIR}/src/${coll}/${coll}_${name}.c)
  endforeach()
  list(LENGTH sources _n_after)
  list(LENGTH ${out_sources} _n_before)
  math(EXPR count "${_n_after} - ${_n_before}")
  string(TOUPPER ${coll} COLL)
  set(dir ${PROJECT_BINARY_DIR}/generated/${coll})
  file(CONFIGURE OUTPUT ${dir}/${coll}_algorithms.h CONTENT
"/* Generated from src/${coll}/algorithms.list by cmake/AlgorithmTable.cmake: do not edit. */
#ifndef PC_GENERATED_${coll}_ALGORITHMS_H
#define PC_GENERATED_${coll}_ALGORITHMS_H
#include \"coll/call.h\"
enum { PC_${COLL}_ALGORITHM_COUNT = ${count} };
extern const pc_algorithm_t pc_${coll}_algorithms[PC_${COLL}_ALGORITHM_COUNT];
${protos}#endif
" @ONLY)
  file(CONFIGURE OUTPUT ${dir}/${coll}_table.c CONTENT
"/* Generated from src/${coll}/algorithms.list by cmake/AlgorithmTable.cmake: do not edit. */
#include \"${coll}_algorithms.h\"
const pc_algorithm_t pc_${coll}_algorithms[PC_${COLL}_ALGORITHM_COUNT] = {
${rows}};
" @ONLY)
  list(APPEND sources ${dir}/${coll}_table.c)
  set(${out_sources} ${sources} PARENT_SCOPE)
  set(PAPCOLL_GENERATED_INCLUDES ${PAPCOLL_GENERATED_INCLUDES} ${dir} PARENT_SCOPE)
endfunction()
