! SPDX-License-Identifier: BSD-3-Clause
! nbc_mpi_f08.f90 - nonblocking collectives from Fortran (`use mpi_f08`),
! run with LD_PRELOAD=libpapcoll_mpi.so: MPI_Iallreduce, MPI_Ibcast,
! MPI_Ireduce, MPI_Ibarrier, MPI_Iallgather and MPI_Ialltoall completed by
! MPI_Wait, MPI_Waitall and MPI_Test.  Fortran callers get the MPI library's own nonblocking
! collectives (pmpi/nonblocking.c): this checks that nothing hangs (MPICH's
! mpi_f08 MPI_WAIT calls PMPI_Wait) and that the results are right.
program nbc_mpi_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 1000
  integer :: rank, nprocs, i, root
  integer :: iv(n), ir(n), ib(n), ired(n), ag(64), as(32), at(32), mine(2)
  logical :: flag
  type(MPI_Request) :: req(6)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  do root = 0, nprocs - 1
    iv = [((rank + 1) * i, i = 1, n)]
    ib = -1
    if (rank == root) ib = [(3 * i + root, i = 1, n)]
    call MPI_Iallreduce(iv, ir, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(1))
    call MPI_Ibcast(ib, n, MPI_INTEGER, root, MPI_COMM_WORLD, req(2))
    call MPI_Ireduce(iv, ired, n, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, req(3))
    call MPI_Ibarrier(MPI_COMM_WORLD, req(4))
    mine = [rank, -rank]
    as = [(100 * rank + i, i = 0, 31)]
    call MPI_Iallgather(mine, 2, MPI_INTEGER, ag, 2, MPI_INTEGER, MPI_COMM_WORLD, req(5))
    call MPI_Ialltoall(as, 1, MPI_INTEGER, at, 1, MPI_INTEGER, MPI_COMM_WORLD, req(6))
    call MPI_Wait(req(4), MPI_STATUS_IGNORE)
    flag = .false.
    do while (.not. flag)
      call MPI_Test(req(1), flag, MPI_STATUS_IGNORE)
    end do
    call MPI_Waitall(2, req(2:3), MPI_STATUSES_IGNORE)
    call MPI_Waitall(2, req(5:6), MPI_STATUSES_IGNORE)
    call check(all(ag(1:2 * nprocs:2) == [(i, i = 0, nprocs - 1)]) .and. &
               all(ag(2:2 * nprocs:2) == [(-i, i = 0, nprocs - 1)]), 'MPI_Iallgather')
    call check(all(at(1:nprocs) == [(100 * i + rank, i = 0, nprocs - 1)]), 'MPI_Ialltoall')
    call check(all(ir == [(i * nprocs * (nprocs + 1) / 2, i = 1, n)]), 'MPI_Iallreduce')
    call check(all(ib == [(3 * i + root, i = 1, n)]), 'MPI_Ibcast')
    call check(rank /= root .or. all(ired == [(i * nprocs * (nprocs + 1) / 2, i = 1, n)]), 'MPI_Ireduce')
  end do
  if (rank == 0) write (*, '(a,i0,a)') 'nbc mpi_f08: np=', nprocs, ': OK'
  call MPI_Finalize()

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    write (*, '(a,i0,2a)') 'nbc mpi_f08: rank ', rank, ': FAILED ', what
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine check

end program nbc_mpi_f08
