! SPDX-License-Identifier: BSD-3-Clause
! drop_in_large_count_f08.f90 - Fortran drop-in test of MPI-4's large-count
! procedures (`use mpi_f08`, counts of kind MPI_COUNT_KIND), where the MPI
! library has them (MPICH 4.0: its mpi_f08 calls the C MPI_Bcast_c ...).
! Run by expect_log.cmake with LD_PRELOAD=libpapcoll_mpi.so and
! PAPCOLL_LOG=debug, which checks that papcoll's MPI_Bcast_c and
! MPI_Allreduce_c ran these calls.
program drop_in_large_count_f08
  use mpi_f08
  implicit none
  integer(kind=MPI_COUNT_KIND) :: n
  integer :: rank, nprocs, i, bad, total
  integer :: v(1000), r(1000)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  n = 1000
  bad = 0
  v = [(i + rank, i = 1, 1000)]
  call MPI_Bcast(v, n, MPI_INTEGER, 0, MPI_COMM_WORLD)
  do i = 1, 1000
    if (v(i) /= i) bad = bad + 1
  end do
  call MPI_Allreduce(v, r, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  do i = 1, 1000
    if (r(i) /= i * nprocs) bad = bad + 1
  end do
  call MPI_Allreduce(bad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) then
    if (total == 0) then
      print '(a,i0,a)', 'drop_in_large_count_f08: np=', nprocs, ' bcast=1 allreduce=2: OK'
    else
      print '(a,i0,a)', 'drop_in_large_count_f08: np=', nprocs, ': FAIL'
    end if
  end if
  call MPI_Finalize()
end program drop_in_large_count_f08
