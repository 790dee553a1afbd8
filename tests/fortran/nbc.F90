! SPDX-License-Identifier: BSD-3-Clause
! nbc.F90 - papcoll's nonblocking and persistent collectives from Fortran,
! built once per binding: -DNBC_MPIF (mpif.h), -DNBC_MPI (`use mpi`),
! -DNBC_F08 (`use mpi_f08`); run with LD_PRELOAD=libpapcoll_mpi.so and
! PAPCOLL_LOG=debug under expect_log.cmake.  For each root: the 14
! nonblocking collectives papcoll serves (MPI_IN_PLACE in MPI_Iallreduce)
! and a point-to-point exchange started together, then completed by every
! completion function (Wait, Test, Waitany, Waitsome, Testall, Testany,
! Testsome, Waitall with statuses), the point-to-point pair first or last;
! then MPI_Iscan, MPI_Iexscan and MPI_Ialltoallw, completed by MPI_Waitall.
! Then persistent barrier, bcast, reduce, allreduce, allgather and
! reduce_scatter_block (MPI_<Coll>_init: NBC_MPI_INIT, or Open MPI's
! MPIX_<Coll>_init: NBC_MPIX_INIT), run three times by
! MPI_Start and MPI_Startall, completed by MPI_Waitall, MPI_Wait, MPI_Test
! and MPI_Request_get_status, then freed.  Every result is checked; the OK
! line counts the calls papcoll must log.
program nbc
#if defined(NBC_F08)
  use mpi_f08
#ifdef NBC_MPIX_INIT
  use mpi_f08_ext
#endif
#elif defined(NBC_MPI)
  use mpi
#ifdef NBC_MPIX_INIT
  use mpi_ext
#endif
#endif
  implicit none
#if defined(NBC_MPIF)
  include 'mpif.h'
#ifdef NBC_MPIX_INIT
  include 'mpif-ext.h'
#endif
#endif
#if defined(NBC_F08)
  character(len=*), parameter :: binding = 'mpi_f08'
  type(MPI_Request) :: req(16), preq(6)
  type(MPI_Status) :: sts(16), st1
  type(MPI_Request) :: xreq(3)
  type(MPI_Datatype) :: wtypes(64)
#define SOURCE_AT(k) sts(k)%MPI_SOURCE
#else
#if defined(NBC_MPI)
  character(len=*), parameter :: binding = 'mpi'
#else
  character(len=*), parameter :: binding = 'mpif.h'
#endif
  integer :: req(16), preq(6), sts(MPI_STATUS_SIZE, 16), st1(MPI_STATUS_SIZE), xreq(3), wtypes(64)
#define SOURCE_AT(k) sts(MPI_SOURCE, k)
#endif
#ifdef NBC_MPIX_INIT
#define BARRIER_INIT MPIX_Barrier_init
#define BCAST_INIT MPIX_Bcast_init
#define REDUCE_INIT MPIX_Reduce_init
#define ALLREDUCE_INIT MPIX_Allreduce_init
#define ALLGATHER_INIT MPIX_Allgather_init
#define REDUCE_SCATTER_BLOCK_INIT MPIX_Reduce_scatter_block_init
#else
#define BARRIER_INIT MPI_Barrier_init
#define BCAST_INIT MPI_Bcast_init
#define REDUCE_INIT MPI_Reduce_init
#define ALLREDUCE_INIT MPI_Allreduce_init
#define ALLGATHER_INIT MPI_Allgather_init
#define REDUCE_SCATTER_BLOCK_INIT MPI_Reduce_scatter_block_init
#endif
  integer, parameter :: n = 100
  integer :: p, i, k, root, ierr, idx, nout, run, left, right, ndone
  integer :: rank, indices(16)
  ! buffers of nonblocking and persistent calls, written behind the compiler's back
  integer, asynchronous :: ar(n), ib(n), iv(n), ired(n), mine(2), ag(64), agv(64), cnt(64), dsp(64)
  integer, asynchronous :: as(64), at(64), avs(64), avr(64), sc1(64), scd(64), gat(64), gatv(64)
  integer, asynchronous :: scr, scvr(64), rss(64), rsr(64), rbs(64), rbr(2), sendv, recvv
  integer, asynchronous :: pb(n), pr(n), pa(n), ones(64), rev(64), fwd(64)
  integer, asynchronous :: sv, scn, exn, wsd(64), wrd(64), isz
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  left = mod(rank + p - 1, p)
  right = mod(rank + 1, p)
  do k = 1, p
    cnt(k) = k
    dsp(k) = k * (k - 1) / 2
    ones(k) = 1
    rev(k) = p - k
    fwd(k) = k - 1
  end do
  do root = 0, p - 1
    ar = [((rank + 1) * i, i = 1, n)]
    iv = ar
    ib = -1
    if (rank == root) ib = [(3 * i + root, i = 1, n)]
    mine = [rank, -rank]
    as(1:p) = [(100 * rank + k, k = 0, p - 1)]
    avs(1:p) = [(100 * rank + p - 1 - k, k = 0, p - 1)]
    sc1(1:p) = [(1000 * root + k, k = 0, p - 1)]
    scd(1:dsp(p) + p) = [((7 * (k - 1) + i, i = 1, k), k = 1, p)]
    rss(1:dsp(p) + p) = [((rank + 1) * i, i = 1, dsp(p) + p)]
    rbs(1:2 * p) = [((rank + 1) * i, i = 1, 2 * p)]
    sendv = 10 * rank + root
    call MPI_Iallreduce(MPI_IN_PLACE, ar, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Ibcast(ib, n, MPI_INTEGER, root, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Ireduce(iv, ired, n, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, req(3), ierr)
    call MPI_Ibarrier(MPI_COMM_WORLD, req(4), ierr)
    call MPI_Iallgather(mine, 2, MPI_INTEGER, ag, 2, MPI_INTEGER, MPI_COMM_WORLD, req(5), ierr)
    call MPI_Iallgatherv(scd(dsp(rank + 1) + 1), rank + 1, MPI_INTEGER, agv, cnt, dsp, MPI_INTEGER, &
                         MPI_COMM_WORLD, req(6), ierr)
    call MPI_Ialltoall(as, 1, MPI_INTEGER, at, 1, MPI_INTEGER, MPI_COMM_WORLD, req(7), ierr)
    call MPI_Ialltoallv(avs, ones, rev, MPI_INTEGER, avr, ones, fwd, MPI_INTEGER, MPI_COMM_WORLD, req(8), ierr)
    call MPI_Igather(mine, 2, MPI_INTEGER, gat, 2, MPI_INTEGER, root, MPI_COMM_WORLD, req(9), ierr)
    call MPI_Igatherv(scd(dsp(rank + 1) + 1), rank + 1, MPI_INTEGER, gatv, cnt, dsp, MPI_INTEGER, root, &
                      MPI_COMM_WORLD, req(10), ierr)
    call MPI_Iscatter(sc1, 1, MPI_INTEGER, scr, 1, MPI_INTEGER, root, MPI_COMM_WORLD, req(11), ierr)
    call MPI_Iscatterv(scd, cnt, dsp, MPI_INTEGER, scvr, rank + 1, MPI_INTEGER, root, MPI_COMM_WORLD, &
                       req(12), ierr)
    call MPI_Ireduce_scatter(rss, rsr, cnt, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(13), ierr)
    call MPI_Ireduce_scatter_block(rbs, rbr, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(14), ierr)
    call MPI_Irecv(recvv, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, req(15), ierr)
    call MPI_Isend(sendv, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, req(16), ierr)
    if (root == 1) call complete_p2p()
    call MPI_Wait(req(4), MPI_STATUS_IGNORE, ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Test(req(1), flag, MPI_STATUS_IGNORE, ierr)
    end do
    do i = 1, 2
      call MPI_Waitany(2, req(2:3), idx, st1, ierr)
      call check(idx == 1 .or. idx == 2, 'MPI_Waitany index')
    end do
    ndone = 0
    do while (ndone < 4)
      call MPI_Waitsome(4, req(5:8), nout, indices, sts, ierr)
      call check(nout >= 1 .and. all(indices(1:nout) >= 1 .and. indices(1:nout) <= 4), 'MPI_Waitsome')
      ndone = ndone + nout
    end do
    flag = .false.
    do while (.not. flag)
      call MPI_Testall(2, req(9:10), flag, MPI_STATUSES_IGNORE, ierr)
    end do
    ndone = 0
    do while (ndone < 2)
      call MPI_Testany(2, req(11:12), idx, flag, MPI_STATUS_IGNORE, ierr)
      if (flag) ndone = ndone + 1
    end do
    ndone = 0
    do while (ndone < 2)
      call MPI_Testsome(2, req(13:14), nout, indices, MPI_STATUSES_IGNORE, ierr)
      ndone = ndone + nout
    end do
    if (root /= 1) call complete_p2p()
    call check(all(req(1:16) == MPI_REQUEST_NULL), 'completed requests are MPI_REQUEST_NULL')
    call check(all(ar == [(i * p * (p + 1) / 2, i = 1, n)]), 'MPI_Iallreduce in place')
    call check(all(ib == [(3 * i + root, i = 1, n)]), 'MPI_Ibcast')
    call check(rank /= root .or. all(ired == [(i * p * (p + 1) / 2, i = 1, n)]), 'MPI_Ireduce')
    call check(all(ag(1:2 * p:2) == [(k, k = 0, p - 1)]) .and. all(ag(2:2 * p:2) == [(-k, k = 0, p - 1)]), &
               'MPI_Iallgather')
    call check(all(agv(1:dsp(p) + p) == scd(1:dsp(p) + p)), 'MPI_Iallgatherv')
    call check(all(at(1:p) == [(100 * k + rank, k = 0, p - 1)]), 'MPI_Ialltoall')
    call check(all(avr(1:p) == [(100 * k + rank, k = 0, p - 1)]), 'MPI_Ialltoallv')
    call check(rank /= root .or. all(gat(1:2 * p) == ag(1:2 * p)), 'MPI_Igather')
    call check(rank /= root .or. all(gatv(1:dsp(p) + p) == scd(1:dsp(p) + p)), 'MPI_Igatherv')
    call check(scr == 1000 * root + rank, 'MPI_Iscatter')
    call check(all(scvr(1:rank + 1) == scd(dsp(rank + 1) + 1:dsp(rank + 1) + rank + 1)), 'MPI_Iscatterv')
    call check(all(rsr(1:rank + 1) == [(i * p * (p + 1) / 2, i = dsp(rank + 1) + 1, dsp(rank + 1) + rank + 1)]), &
               'MPI_Ireduce_scatter')
    call check(all(rbr == [(i * p * (p + 1) / 2, i = 2 * rank + 1, 2 * rank + 2)]), 'MPI_Ireduce_scatter_block')
  end do
  ! MPI_Iscan, MPI_Iexscan and MPI_Ialltoallw (a datatype per peer, byte displacements: reversed blocks)
  call MPI_Type_size(MPI_INTEGER, isz, ierr)
  do k = 1, p
    wtypes(k) = MPI_INTEGER
    wsd(k) = isz * (p - k)
    wrd(k) = isz * (p - k)
  end do
  as(1:p) = [(100 * rank + k, k = 0, p - 1)]
  exn = -1
  sv = rank + 1
  call MPI_Iscan(sv, scn, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, xreq(1), ierr)
  call MPI_Iexscan(sv, exn, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, xreq(2), ierr)
  call MPI_Ialltoallw(as, ones, wsd, wtypes, at, ones, wrd, wtypes, MPI_COMM_WORLD, xreq(3), ierr)
  call MPI_Waitall(3, xreq, MPI_STATUSES_IGNORE, ierr)
  call check(scn == (rank + 1) * (rank + 2) / 2, 'MPI_Iscan')
  call check(rank == 0 .or. exn == rank * (rank + 1) / 2, 'MPI_Iexscan')
  call check(all(at(1:p) == [(100 * (p - 1 - k) + p - 1 - rank, k = 0, p - 1)]), 'MPI_Ialltoallw')
#if defined(NBC_MPIX_INIT) || defined(NBC_MPI_INIT)
  root = mod(1, p)
  call BARRIER_INIT(MPI_COMM_WORLD, MPI_INFO_NULL, preq(1), ierr)
  call BCAST_INIT(pb, n, MPI_INTEGER, root, MPI_COMM_WORLD, MPI_INFO_NULL, preq(2), ierr)
  call REDUCE_INIT(iv, pr, n, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, MPI_INFO_NULL, preq(3), ierr)
  call ALLREDUCE_INIT(iv, pa, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, preq(4), ierr)
  call ALLGATHER_INIT(mine, 2, MPI_INTEGER, ag, 2, MPI_INTEGER, MPI_COMM_WORLD, MPI_INFO_NULL, preq(5), ierr)
  call REDUCE_SCATTER_BLOCK_INIT(rbs, rbr, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, preq(6), ierr)
  do run = 1, 3
    iv = [(run * (rank + 1) + i, i = 1, n)]
    pb = -1
    if (rank == root) pb = [(run * i, i = 1, n)]
    mine = [run * rank, -run]
    rbs(1:2 * p) = [(run * (rank + 1) * i, i = 1, 2 * p)]
    if (run == 1) then
      do k = 6, 1, -1
        call MPI_Start(preq(k), ierr)
      end do
      call MPI_Waitall(6, preq, MPI_STATUSES_IGNORE, ierr)
    else if (run == 2) then
      call MPI_Startall(6, preq, ierr)
      do k = 1, 6
        call MPI_Wait(preq(k), MPI_STATUS_IGNORE, ierr)
      end do
    else
      call MPI_Startall(6, preq, ierr)
      do k = 1, 3
        flag = .false.
        do while (.not. flag)
          call MPI_Test(preq(k), flag, MPI_STATUS_IGNORE, ierr)
        end do
      end do
      do k = 4, 6
        flag = .false.
        do while (.not. flag)
          call MPI_Request_get_status(preq(k), flag, MPI_STATUS_IGNORE, ierr)
        end do
        call MPI_Wait(preq(k), MPI_STATUS_IGNORE, ierr)
      end do
    end if
    call check(all(preq /= MPI_REQUEST_NULL), 'persistent requests stay allocated')
    call check(all(pb == [(run * i, i = 1, n)]), 'persistent bcast')
    call check(rank /= root .or. all(pr == [(run * p + i, i = 1, n)]), 'persistent reduce')
    call check(all(pa == [(run * p * (p + 1) / 2 + p * i, i = 1, n)]), 'persistent allreduce')
    call check(all(ag(1:2 * p:2) == [(run * k, k = 0, p - 1)]) .and. all(ag(2:2 * p:2) == -run), &
               'persistent allgather')
    call check(all(rbr == [(run * i * p * (p + 1) / 2, i = 2 * rank + 1, 2 * rank + 2)]), &
               'persistent reduce_scatter_block')
  end do
  do k = 1, 6
    call MPI_Request_free(preq(k), ierr)
  end do
  call check(all(preq == MPI_REQUEST_NULL), 'MPI_Request_free')
  k = 1
#else
  k = 0
#endif
  if (rank == 0) write (*, '(3a,i0,11(a,i0),a)') 'nbc ', binding, ': np=', p, ' ibarrier=', p + k, &
    ' ibcast=', p + k, ' ireduce=', p + k, ' iallreduce=', p + k, ' iallgather=', 2 * p + k, &
    ' ialltoall=', 2 * p + 1, ' igather=', 2 * p, ' iscatter=', 2 * p, ' ireduce_scatter=', 2 * p + k, &
    ' iscan=', 1, ' iexscan=', 1, ': OK'
  call MPI_Finalize(ierr)

contains

  ! the point-to-point pair: MPI_Waitall with statuses
  subroutine complete_p2p()
    call MPI_Waitall(2, req(15:16), sts, ierr)
    call check(recvv == 10 * left + root .and. SOURCE_AT(1) == left, 'MPI_Waitall point-to-point')
  end subroutine complete_p2p

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) return
    write (*, '(3a,i0,2a)') 'nbc ', binding, ': rank ', rank, ': FAILED ', what
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine check
end program nbc
