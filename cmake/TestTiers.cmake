# SPDX-License-Identifier: BSD-3-Clause
# Test tiers: every test gets ctest labels from its name, and its expected
# run time (COST, so that `ctest -j` starts the long tests first) from
# tests/test_costs.txt (regenerate it with tools/update_test_costs.sh
# after a full run).  Labels:
#   unit     no MPI run (unit.*, docs.*)
#   quick    the cross-section of `make check` (added by papcoll_quick_test)
#   matrix   algorithm x datatype x size matrices and adversarial arrivals
#   smpi     simulated (SimGrid SMPI)
#   interop  the drop-in (LD_PRELOAD, Fortran), the tracer, install, tools
#   api      the rest natively: argument errors, threads, communicators, selection
#   apps     the application benchmarks
#   slow     expected to take 60 s or more
# Call papcoll_label_tests() at the end of each CMakeLists.txt that adds
# tests (CMake sets test properties per directory).

set(PAPCOLL_TEST_COSTS ${PROJECT_SOURCE_DIR}/tests/test_costs.txt)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PAPCOLL_TEST_COSTS})
if(EXISTS ${PAPCOLL_TEST_COSTS})
  file(STRINGS ${PAPCOLL_TEST_COSTS} _cost_lines REGEX "^[^# ]+ +[0-9.]+$")
  foreach(line IN LISTS _cost_lines)
    string(REGEX MATCH "^([^ ]+) +([0-9.]+)$" _ ${line})
    set(PAPCOLL_TEST_COST_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endforeach()
endif()

# Registers a test of the quick tier (make check) besides its own labels.
function(papcoll_quick_test name)
  set_property(TEST ${name} APPEND PROPERTY LABELS quick)
endfunction()

function(papcoll_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    set(labels)
    set(matrix 0)
    if(t MATCHES "^quick\\.|matrix|adversarial|node_protocol|node_copyout|moving_root")
      set(matrix 1)
      list(APPEND labels matrix)
    endif()
    if(t MATCHES "^(unit|docs)\\.")
      list(APPEND labels unit)
    elseif(t MATCHES "^smpi\\.")
      list(APPEND labels smpi)
    elseif(t MATCHES "^apps\\.")
      list(APPEND labels apps)
    elseif(t MATCHES "^(interpose|install|tools|bench|trace)\\.")
      list(APPEND labels interop)
    elseif(NOT matrix)
      list(APPEND labels api)
    endif()
    set(cost "${PAPCOLL_TEST_COST_${t}}")
    if(cost)
      set_property(TEST ${t} PROPERTY COST ${cost})
      if(cost GREATER_EQUAL 60)
        list(APPEND labels slow)
      endif()
    endif()
    if(labels)
      set_property(TEST ${t} APPEND PROPERTY LABELS ${labels})
    endif()
  endforeach()
endfunction()
