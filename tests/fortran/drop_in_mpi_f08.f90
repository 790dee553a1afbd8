! SPDX-License-Identifier: BSD-3-Clause
! drop_in_mpi_f08.f90 - Fortran drop-in test program, `use mpi_f08` binding:
! the twin of drop_in_body.inc (same calls, same checks, same output) with
! mpi_f08's handle types and its optional IERROR, left out of every call but
! the ones whose error code is checked.  Run by expect_log.cmake with
! LD_PRELOAD=libpapcoll_mpi.so and PAPCOLL_LOG=debug; argument "bcast",
! "reduce", "allreduce", "allgather", "blocks", "barrier" or "scan".
program drop_in_mpi_f08
  use mpi_f08
  implicit none
  character(len=*), parameter :: binding = 'mpi_f08'
  integer, parameter :: n = 1000, nsmall = 100
  integer :: ierr, rank, nprocs, root, i, errclass
  integer :: nbcast, nreduce, nallreduce, nallgather, nalltoall, ngather, nscatter, nreduce_scatter, nbarrier, nscan, nexscan
  integer, allocatable :: ig(:), counts(:), displs(:)
  integer(kind=MPI_ADDRESS_KIND) :: address(1)
  type(MPI_Datatype) :: abstype
  type(MPI_Datatype) :: pairtype
  type(MPI_Datatype), allocatable :: wstypes(:), wrtypes(:)
  integer :: isz
  integer, allocatable :: wscounts(:), wrcounts(:), wdispls(:)
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
  nallgather = 0
  nalltoall = 0
  ngather = 0
  nscatter = 0
  nreduce_scatter = 0
  nbarrier = 0
  nscan = 0
  nexscan = 0

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
  else if (mode == 'allgather') then
    ! rank r contributes 7 * r + i (i = 1..nsmall); allgatherv: r + 1 of them,
    ! placed in reverse rank order
    allocate(ig(nsmall * nprocs), counts(nprocs), displs(nprocs))
    iv(:nsmall) = [(7 * rank + i, i = 1, nsmall)]
    ig = -1
    call MPI_Allgather(iv, nsmall, MPI_INTEGER, ig, nsmall, MPI_INTEGER, MPI_COMM_WORLD)
    call check(all(ig == [((7 * root + i, i = 1, nsmall), root = 0, nprocs - 1)]), &
               'MPI_Allgather INTEGER')
    ig = -1
    ig(rank * nsmall + 1:(rank + 1) * nsmall) = iv(:nsmall)
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ig, nsmall, MPI_INTEGER, MPI_COMM_WORLD)
    call check(all(ig == [((7 * root + i, i = 1, nsmall), root = 0, nprocs - 1)]), &
               'MPI_Allgather MPI_IN_PLACE')
    counts = [(root + 1, root = 0, nprocs - 1)]
    displs = [(sum(counts(root + 2:)), root = 0, nprocs - 1)]
    ig = -1
    call MPI_Allgatherv(iv, rank + 1, MPI_INTEGER, ig, counts, displs, MPI_INTEGER, MPI_COMM_WORLD)
    do root = 0, nprocs - 1
      call check(all(ig(displs(root + 1) + 1:displs(root + 1) + root + 1) == &
                 [(7 * root + i, i = 1, root + 1)]), 'MPI_Allgatherv INTEGER')
    end do
    nallgather = nallgather + 3
  else if (mode == 'blocks') then
    ! alltoall(v), gather(v), scatter(v), reduce_scatter(_block): rank r's
    ! element for rank s is 100 * r + s (two per pair in the non-v forms)
    allocate(ig(2 * nprocs), counts(nprocs), displs(nprocs))
    iv(:2 * nprocs) = [((100 * rank + root, i = 1, 2), root = 0, nprocs - 1)]
    call MPI_Alltoall(iv, 2, MPI_INTEGER, ig, 2, MPI_INTEGER, MPI_COMM_WORLD)
    call check(all(ig == [((100 * root + rank, i = 1, 2), root = 0, nprocs - 1)]), 'MPI_Alltoall')
    counts = 1
    displs = [(2 * root, root = 0, nprocs - 1)]
    ig = -1
    call MPI_Alltoallv(iv, counts, displs, MPI_INTEGER, ig, counts, displs, MPI_INTEGER, MPI_COMM_WORLD)
    call check(all(ig(1::2) == [(100 * root + rank, root = 0, nprocs - 1)]) .and. all(ig(2::2) == -1), &
               'MPI_Alltoallv')
    ! alltoallw: to each peer 2 INTEGER or 1 pair (contiguous 2 INTEGER), received as the other
    ! (same signature), byte displacements; then in place (the receive datatypes both ways)
    call MPI_Type_contiguous(2, MPI_INTEGER, pairtype)
    call MPI_Type_commit(pairtype)
    call MPI_Type_size(MPI_INTEGER, isz)
    allocate(wstypes(nprocs), wrtypes(nprocs), wscounts(nprocs), wrcounts(nprocs), wdispls(nprocs))
    do root = 0, nprocs - 1
      wstypes(root + 1) = merge(pairtype, MPI_INTEGER, mod(root + rank, 2) == 1)
      wscounts(root + 1) = merge(1, 2, mod(root + rank, 2) == 1)
      wrtypes(root + 1) = merge(pairtype, MPI_INTEGER, mod(root + rank, 2) == 0)
      wrcounts(root + 1) = merge(1, 2, mod(root + rank, 2) == 0)
      wdispls(root + 1) = 2 * root * isz
    end do
    ig = -1
    call MPI_Alltoallw(iv, wscounts, wdispls, wstypes, ig, wrcounts, wdispls, wrtypes, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. all(ig == [((100 * root + rank, i = 1, 2), root = 0, nprocs - 1)]), 'MPI_Alltoallw')
    ig = iv(:2 * nprocs)
    call MPI_Alltoallw(MPI_IN_PLACE, wscounts, wdispls, wstypes, ig, wrcounts, wdispls, wrtypes, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. all(ig == [((100 * root + rank, i = 1, 2), root = 0, nprocs - 1)]), &
               'MPI_Alltoallw MPI_IN_PLACE')
    call MPI_Type_free(pairtype)
    ig = -1
    call MPI_Gather(iv, 2, MPI_INTEGER, ig, 2, MPI_INTEGER, nprocs - 1, MPI_COMM_WORLD)
    call check((rank /= nprocs - 1 .or. all(ig == [((100 * root, i = 1, 2), root = 0, nprocs - 1)])), &
               'MPI_Gather')
    ig = -1
    call MPI_Gatherv(iv, 1, MPI_INTEGER, ig, counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call check((rank /= 0 .or. all(ig(1::2) == [(100 * root, root = 0, nprocs - 1)])), 'MPI_Gatherv')
    ir(:2) = -1
    if (rank == 0) then
      ig = [(root, root = 1, 2 * nprocs)]
      call MPI_Scatter(ig, 2, MPI_INTEGER, MPI_IN_PLACE, 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
      call check(.true., 'MPI_Scatter MPI_IN_PLACE')
    else
      call MPI_Scatter(ig, 2, MPI_INTEGER, ir, 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
      call check(all(ir(:2) == [2 * rank + 1, 2 * rank + 2]), 'MPI_Scatter')
    end if
    ig = [(root, root = 1, 2 * nprocs)]
    ir(1) = -1
    call MPI_Scatterv(ig, counts, displs, MPI_INTEGER, ir, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call check(ir(1) == 2 * rank + 1, 'MPI_Scatterv')
    ! the sum over ranks of 100 * r + s, for s = my rank
    ir(:2) = -1
    call MPI_Reduce_scatter_block(iv, ir, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(all(ir(:2) == 50 * nprocs * (nprocs - 1) + nprocs * rank), 'MPI_Reduce_scatter_block')
    counts = 2
    ir(:2) = -1
    call MPI_Reduce_scatter(iv, ir, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(all(ir(:2) == 50 * nprocs * (nprocs - 1) + nprocs * rank), 'MPI_Reduce_scatter')
    nalltoall = nalltoall + 4
    ngather = ngather + 2
    nscatter = nscatter + 2
    nreduce_scatter = nreduce_scatter + 2
  else if (mode == 'barrier') then
    ! MPI_Barrier on MPI_COMM_WORLD and on MPI_COMM_SELF (one process)
    do i = 1, 10
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      call check(ierr == MPI_SUCCESS, 'MPI_Barrier')
    end do
    call MPI_Barrier(MPI_COMM_SELF, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Barrier MPI_COMM_SELF')
    nbarrier = nbarrier + 11
  else if (mode == 'scan') then
    ! MPI_Scan and MPI_Exscan: rank r contributes (r + 1) * i; prefixes of exact sums, and a maximum
    iv = [((rank + 1) * i, i = 1, n)]
    ir = -1
    call MPI_Scan(iv, ir, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(all(ir == [(i * (rank + 1) * (rank + 2) / 2, i = 1, n)]), 'MPI_Scan')
    ir = iv
    call MPI_Scan(MPI_IN_PLACE, ir, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(all(ir == [(i * (rank + 1) * (rank + 2) / 2, i = 1, n)]), &
               'MPI_Scan MPI_IN_PLACE')
    dv = [(dble(mod(rank * 7 + i, 5)), i = 1, n)]
    dr = -1
    call MPI_Scan(dv, dr, n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
    call check(all(dr >= dv) .and. all(dr <= 4), 'MPI_Scan DOUBLE PRECISION MPI_MAX')
    ir = -1
    call MPI_Exscan(iv, ir, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check((rank == 0 .or. all(ir == [(i * rank * (rank + 1) / 2, i = 1, n)])), &
               'MPI_Exscan')
    ir = iv
    call MPI_Exscan(MPI_IN_PLACE, ir, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call check(all(ir == merge(iv, [(i * rank * (rank + 1) / 2, i = 1, n)], rank == 0)), &
               'MPI_Exscan MPI_IN_PLACE')
    nscan = nscan + 3
    nexscan = nexscan + 2
  else
    call check(.false., 'usage: drop_in_* bcast|reduce|allreduce|allgather|blocks|barrier|scan')
  end if

  call MPI_Barrier(MPI_COMM_WORLD)
  nbarrier = nbarrier + 1
  if (rank == 0) write (*, '(a,i0,11(a,i0),a)') 'drop_in ' // binding // ': np=', nprocs, ' bcast=', nbcast, &
    ' reduce=', nreduce, ' allreduce=', nallreduce, ' allgather=', nallgather, ' alltoall=', nalltoall, &
    ' gather=', ngather, ' scatter=', nscatter, ' reduce_scatter=', nreduce_scatter, &
    ' barrier=', nbarrier, ' scan=', nscan, ' exscan=', nexscan, ': OK'
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
