! SPDX-License-Identifier: BSD-3-Clause
! drop_in_mpif.f90 - Fortran drop-in test program, mpif.h binding (body: drop_in_body.inc).
program drop_in_mpif
  implicit none
  include 'mpif.h'
  character(len=*), parameter :: binding = 'mpif.h'
  include 'drop_in_body.inc'
end program drop_in_mpif
