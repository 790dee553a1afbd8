# SPDX-License-Identifier: BSD-3-Clause
# Installs the build into a scratch prefix, builds tests/consumer against it
# with find_package(papcoll) and with pkg-config, and runs both; links a plain
# program with the installed SMPI flavour (papcoll-smpicc) when it is there.
set(prefix ${WORK}/prefix)
file(REMOVE_RECURSE ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${SRC} -B ${WORK}/cmake-consumer -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${CC})
run(${CMAKE_COMMAND} --build ${WORK}/cmake-consumer)
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs papcoll OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(flags)
run(${CC} ${SRC}/main.c ${flags} -o ${WORK}/pkgconfig-consumer)
set(ENV{LD_LIBRARY_PATH} ${prefix}/lib)
run(${MPIEXEC} -n 2 ${FLAGS} ${WORK}/cmake-consumer/c)
run(${MPIEXEC} -n 2 ${FLAGS} ${WORK}/pkgconfig-consumer)
# The SMPI flavour (installed with the native build when smpicc was found):
# papcoll-smpicc links a plain program with the installed archives, tracer in front.
if(EXISTS ${prefix}/bin/papcoll-smpicc)
  run(${prefix}/bin/papcoll-smpicc --trace ${SRC}/../smpi_plain_colls.c -o ${WORK}/smpi-consumer)
  run(${prefix}/bin/papcoll-smpicc --help)
endif()
