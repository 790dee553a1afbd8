# SPDX-License-Identifier: BSD-3-Clause
# install.tools: the Python tools after `cmake --install`, staged as packagers
# do (DESTDIR=WORK/stage, prefix /papcoll-install-check, which must stay
# absent): each launcher of <stage><prefix>/bin answers --help with nothing
# but PATH in its environment, imports the staged package (not a
# checkout's), and `papcoll --version` says the VERSION.
# -D: BUILD, WORK, BINDIR, SITEDIR, TOOLS (the commands), VERSION.
set(prefix /papcoll-install-check)
set(stage ${WORK}/stage)
set(bin ${stage}${prefix}/${BINDIR})
set(site ${stage}${prefix}/${SITEDIR})
file(REMOVE_RECURSE ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)

set(ENV{DESTDIR} ${stage})
run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
unset(ENV{DESTDIR})
if(EXISTS ${prefix})
  message(FATAL_ERROR "${prefix} exists: the install ignored DESTDIR")
endif()

# An empty environment but PATH: the staged bin/ first, then the system's.
find_program(ENV_EXE env REQUIRED)
set(clean ${ENV_EXE} -i "PATH=${bin}:/usr/local/bin:/usr/bin:/bin")
foreach(tool IN LISTS TOOLS)
  if(NOT EXISTS ${bin}/${tool})
    message(FATAL_ERROR "${tool} not installed in ${bin}")
  endif()
  run(${clean} ${tool} --help)
  if(NOT out MATCHES "usage: ")
    message(FATAL_ERROR "${tool} --help printed no usage:\n${out}")
  endif()
  message(STATUS "${tool} --help: ok")
endforeach()

# The launcher imports the staged package, ahead of any other on sys.path.
run(${clean} PYTHONVERBOSE=1 papcoll --version)
if(NOT err MATCHES "${site}/papcoll_tools/__init__.py")
  message(FATAL_ERROR "papcoll did not import ${site}/papcoll_tools:\n${err}")
endif()
if(NOT out MATCHES "papcoll tools ${VERSION}")
  message(FATAL_ERROR "papcoll --version: expected ${VERSION}, got: ${out}")
endif()
message(STATUS "papcoll --version: ${out}")
