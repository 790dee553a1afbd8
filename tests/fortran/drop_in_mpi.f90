! SPDX-License-Identifier: BSD-3-Clause
! drop_in_mpi.f90 - Fortran drop-in test program, `use mpi` binding (body: drop_in_body.inc).
program drop_in_mpi
  use mpi
  implicit none
  character(len=*), parameter :: binding = 'mpi'
  include 'drop_in_body.inc'
end program drop_in_mpi
