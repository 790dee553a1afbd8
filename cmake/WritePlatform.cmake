# cmake -DOUT=prefix -DNODES=n -DCORES=c -P cmake/WritePlatform.cmake
include(${CMAKE_CURRENT_LIST_DIR}/SmpiPlatform.cmake)
papcoll_smpi_platform(${NODES} ${CORES} ${OUT})
