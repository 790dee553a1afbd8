! drop_in_mpi_f08.f90 - Fortran drop-in test program, `use mpi_f08` binding:
! the twin of drop_in_body.inc (same calls, same checks, same output) with
! mpi_f08's handle types and its optional IERROR, left out of every call but
! the ones whose error code is checked.  Run by expect_log.cmake with
! LD_PRELOAD=libpapcoll_mpi.so and PAPCOLL_LOG=debug; argument "bcast",
! "reduce" or "allreduce".
program drop_in_mpi_f08
  use mpi_f08
  implicit none
  character(len=*), parameter :: binding = 'mpi_f08'
  integer, parameter :: n = 1000, nsmall = 100
  integer :: ierr, rank, nprocs, root, i, errclass
  integer :: nbcast, nreduce, nallreduce
  integer(kind=MPI_ADDRESS_KIND) :: address(1)
  type(MPI_Datatype) :: abstype
  integer :: iv(n), ir(n), iexpect(n)
  integer, volatile :: ibottom(n)     ! written by MPI_Bcast(MPI_BOTTOM, ...) behind the compiler's back
  double precision :: dv(n), dr(n), dexpect(n)
  character(len=16) :: mode

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call get_command_argument(1, mode)
  nbcast = 0
  nreduce = 0
  nallreduce = 0

  ! Reductions: rank r contributes (r + 1) * i and i + r / 4, exact sums in any order.
  iexpect = [(i * nprocs * (nprocs + 1) / 2, i = 1, n)]
  dexpect = [(nprocs * i + nprocs * (nprocs - 1) / 8d0, i = 1, n)]
  if (mode == 'bcast') then
    do root = 0, nprocs - 1
      iexpect = [(3 * i + root, i = 1, n)]
      iv = -1
      if (rank == root) iv = iexpect
      call MPI_Bcast(iv, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
      call check(ierr == MPI_SUCCESS .and. all(iv == iexpect), 'MPI_Bcast INTEGER')
      dexpect = [(0.5d0 * i - root, i = 1, n)]
      dv = -1
      if (rank == root) dv = dexpect
      call MPI_Bcast(dv, n, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD)
      call check(all(dv == dexpect), 'MPI_Bcast DOUBLE PRECISION')
      nbcast = nbcast + 2
    end do
    ! MPI_BOTTOM: the datatype carries the buffer's absolute address.
    ibottom = -1
    if (rank == nprocs - 1) ibottom = iexpect
    call MPI_Get_address(ibottom, address(1))
    call MPI_Type_create_hindexed(1, [n], address, MPI_INTEGER, abstype)
    call MPI_Type_commit(abstype)
    call MPI_Bcast(MPI_BOTTOM, 1, abstype, nprocs - 1, MPI_COMM_WORLD)
    call check(all(ibottom == iexpect), 'MPI_Bcast MPI_BOTTOM')
    call MPI_Type_free(abstype)
    nbcast = nbcast + 1
    ! An invalid root under MPI_ERRORS_RETURN: the error class reaches IERROR.
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Bcast(iv, 1, MPI_INTEGER, nprocs, MPI_COMM_WORLD, ierr)
    errclass = MPI_SUCCESS
    if (ierr /= MPI_SUCCESS) call MPI_Error_class(ierr, errclass)
    call check(errclass == MPI_ERR_ROOT, 'MPI_Bcast invalid root: IERROR is not of class MPI_ERR_ROOT')
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)
  else if (mode == 'reduce') then
    do root = 0, nprocs - 1
      iv = [((rank + 1) * i, i = 1, n)]
      ir = -1
      call MPI_Reduce(iv, ir, n, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
      call check(ierr == MPI_SUCCESS .and. (rank /= root .or. all(ir == iexpect)), 'MPI_Reduce INTEGER')
      ! In place: nsmall elements, as MPICH 4.0.2's own MPI_Reduce crashes
      ! on MPI_IN_PLACE at a non-zero root from 2 KiB on (pmodels/mpich#6540).
      dv = [(i + rank / 4d0, i = 1, n)]
      if (rank == root) then
        call MPI_Reduce(MPI_IN_PLACE, dv, nsmall, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD)
        call check(all(dv(:nsmall) == dexpect(:nsmall)) .and. &
                   all(dv(nsmall + 1:) == [(i + rank / 4d0, i = nsmall + 1, n)]), &
                   'MPI_Reduce DOUBLE PRECISION MPI_IN_PLACE')
      else
        call MPI_Reduce(dv, dr, nsmall, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD)
      end if
      nreduce = nreduce + 2
    end do
  else if (mode == 'allreduce') then
    iv = [((rank + 1) * i, i = 1, n)]
    call MPI_Allreduce(MPI_IN_PLACE, iv, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. all(iv == iexpect), 'MPI_Allreduce INTEGER MPI_IN_PLACE')
    dv = [(i + rank / 4d0, i = 1, n)]
    call MPI_Allreduce(dv, dr, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    call check(all(dr == dexpect), 'MPI_Allreduce DOUBLE PRECISION')
    call MPI_Allreduce(rank, ir(1), 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
    call check(ir(1) == nprocs - 1, 'MPI_Allreduce MPI_MAX')
    nallreduce = nallreduce + 3
  else
    call check(.false., 'usage: drop_in_* bcast|reduce|allreduce')
  end if

  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) write (*, '(a,i0,3(a,i0),a)') 'drop_in ' // binding // ': np=', nprocs, ' bcast=', nbcast, &
    ' reduce=', nreduce, ' allreduce=', nallreduce, ': OK'
  call MPI_Finalize()

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    write (*, '(a,i0,2a)') 'drop_in ' // binding // ': rank ', rank, ': FAILED ', what
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine check

end program drop_in_mpi_f08
