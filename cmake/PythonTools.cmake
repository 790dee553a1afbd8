# SPDX-License-Identifier: BSD-3-Clause
# Installs the Python tools (tools/papcoll_tools) with the library, so that
# `papcoll`, `papcoll-tune`, `papcoll-plot` (every command of [project.scripts]
# in tools/pyproject.toml) are on PATH after `cmake --install`:
#   <prefix>/lib/pythonX.Y/site-packages/papcoll_tools/   the package (the layout
#       Python, pip and Spack's Python extensions use for a prefix)
#   <prefix>/lib/pythonX.Y/site-packages/papcoll_tools-V.dist-info/
#       its metadata (name, version, dependencies: `pip list` and
#       importlib.metadata see it)
#   <prefix>/bin/<command>    one launcher per command: the interpreter CMake
#       found (Python3_EXECUTABLE, resolved to sys.executable), and the package's directory relative to the launcher, so the
#       install is relocatable and DESTDIR staging works.
# Only PATH is needed: the launcher puts its own site-packages first on
# sys.path (ahead of any other papcoll_tools, e.g. an editable checkout).
# `import papcoll_tools` from Python needs PYTHONPATH=<prefix>/lib/pythonX.Y/site-packages
# (Spack's `extends("python")` sets it on `spack load`).  The dependencies
# (matplotlib, numpy, tqdm; python3-otf2 for OTF2 export) are not installed
# here: they are the user's (pip, Debian packages, Spack).
# Files are copied rather than `pip install`ed: no pip or setuptools needed at
# install time, nothing written to the source tree, plain install() rules that
# honour DESTDIR.
find_package(Python3 3.9 COMPONENTS Interpreter)
option(PAPCOLL_INSTALL_PYTHON_TOOLS
  "Install the Python tools (papcoll, papcoll-tune, papcoll-plot) with the library" ${Python3_FOUND})
if(NOT PAPCOLL_INSTALL_PYTHON_TOOLS)
  return()
endif()
if(NOT Python3_FOUND)
  message(FATAL_ERROR "PAPCOLL_INSTALL_PYTHON_TOOLS=ON needs Python >= 3.9 (Python3_EXECUTABLE)")
endif()

# The launchers' interpreter: the one this Python runs as (a pyenv shim or a
# `python3` that PATH may later resolve differently becomes the real binary).
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
  OUTPUT_VARIABLE PAPCOLL_PYTHON_INTERPRETER OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT PAPCOLL_PYTHON_INTERPRETER)
  set(PAPCOLL_PYTHON_INTERPRETER ${Python3_EXECUTABLE})
endif()
set(PAPCOLL_PYTHON_SITEDIR "lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages"
  CACHE STRING "Where the Python tools' package is installed, relative to the prefix")
set(_pyproject ${PROJECT_SOURCE_DIR}/tools/pyproject.toml)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_pyproject})

# [project.scripts] and [project] dependencies of pyproject.toml (one table,
# one line per command: name = "module:function").
file(STRINGS ${_pyproject} _lines)
set(_section "")
set(_scripts)
set(_requires)
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^\\[(.*)\\]")
    set(_section "${CMAKE_MATCH_1}")
  elseif(_section STREQUAL "project.scripts" AND _line MATCHES "^([A-Za-z0-9_.-]+) *= *\"([A-Za-z0-9_.]+):([A-Za-z0-9_]+)\"")
    list(APPEND _scripts "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}|${CMAKE_MATCH_3}")
  elseif(_section STREQUAL "project" AND _line MATCHES "^dependencies *= *\\[(.*)\\]")
    string(REGEX MATCHALL "\"[^\"]+\"" _deps "${CMAKE_MATCH_1}")
    foreach(_dep IN LISTS _deps)
      string(REPLACE "\"" "" _dep "${_dep}")
      string(APPEND _requires "Requires-Dist: ${_dep}\n")
    endforeach()
  endif()
endforeach()
if(NOT _scripts)
  message(FATAL_ERROR "no [project.scripts] found in ${_pyproject}")
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/papcoll_tools DESTINATION ${PAPCOLL_PYTHON_SITEDIR}
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
set(_distinfo ${PROJECT_BINARY_DIR}/pytools/papcoll_tools-${PROJECT_VERSION}.dist-info)
file(WRITE ${_distinfo}/METADATA "Metadata-Version: 2.1\nName: papcoll-tools\nVersion: ${PROJECT_VERSION}\n"
  "Summary: papcoll tooling (installed with papcoll by CMake)\nRequires-Python: >=3.9\n${_requires}")
file(WRITE ${_distinfo}/INSTALLER "cmake\n")
file(WRITE ${_distinfo}/top_level.txt "papcoll_tools\n")
install(DIRECTORY ${_distinfo} DESTINATION ${PAPCOLL_PYTHON_SITEDIR})

# The launchers.  Absolute install dirs (-DCMAKE_INSTALL_BINDIR=/abs) get an
# absolute path, the usual relative ones a path relative to the launcher.
if(IS_ABSOLUTE "${PAPCOLL_PYTHON_SITEDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  set(_site_expr "\"${CMAKE_INSTALL_PREFIX}/${PAPCOLL_PYTHON_SITEDIR}\"")
  if(IS_ABSOLUTE "${PAPCOLL_PYTHON_SITEDIR}")
    set(_site_expr "\"${PAPCOLL_PYTHON_SITEDIR}\"")
  endif()
else()
  file(RELATIVE_PATH _rel /pc/${CMAKE_INSTALL_BINDIR} /pc/${PAPCOLL_PYTHON_SITEDIR})
  set(_site_expr "os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(__file__)), \"${_rel}\"))")
endif()
set(PAPCOLL_PYTHON_TOOLS)
foreach(_s IN LISTS _scripts)
  string(REPLACE "|" ";" _s "${_s}")
  list(GET _s 0 _name)
  list(GET _s 1 _module)
  list(GET _s 2 _func)
  list(APPEND PAPCOLL_PYTHON_TOOLS ${_name})
  file(WRITE ${PROJECT_BINARY_DIR}/pytools/bin/${_name} "#!${PAPCOLL_PYTHON_INTERPRETER}
# ${_name}: papcoll's Python tools as installed with the library (cmake/PythonTools.cmake).
import os
import sys
sys.path.insert(0, ${_site_expr})
from ${_module} import ${_func}
sys.exit(${_func}())
")
  install(PROGRAMS ${PROJECT_BINARY_DIR}/pytools/bin/${_name} DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
message(STATUS "papcoll: Python tools (${PAPCOLL_PYTHON_TOOLS}) installed with ${PAPCOLL_PYTHON_INTERPRETER} "
  "into <prefix>/${PAPCOLL_PYTHON_SITEDIR}")

# The tools' own dependencies are the user's: say at configure time if this
# interpreter lacks them.
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import matplotlib, numpy, tqdm"
  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
if(NOT _rc EQUAL 0)
  message(STATUS "papcoll: ${Python3_EXECUTABLE} lacks matplotlib, numpy or tqdm: the installed tools "
    "need them (python3 -m pip install matplotlib tqdm, or the distribution's packages)")
endif()
