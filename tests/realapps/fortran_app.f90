! SPDX-License-Identifier: BSD-3-Clause
! A Fortran program whose work is in a module's procedures (gfortran names them
! __field_ops_MOD_relax_field): relax_field is hot, field_energy less so.
module field_ops
  implicit none
contains
  subroutine relax_field(f, n, sweeps)
    integer, intent(in) :: n, sweeps
    double precision, intent(inout) :: f(n)
    integer :: s, i
    do s = 1, sweeps
      do i = 2, n - 1
        f(i) = 0.25d0 * (f(i - 1) + 2d0 * f(i) + f(i + 1)) + 1d-9 * sin(f(i))
      end do
    end do
  end subroutine relax_field

  double precision function field_energy(f, n)
    integer, intent(in) :: n
    double precision, intent(in) :: f(n)
    field_energy = sqrt(sum(f * f))
  end function field_energy
end module field_ops

program fortran_app
  use field_ops
  implicit none
  integer, parameter :: n = 100000
  double precision :: f(n), e
  integer :: i, r, reps
  character(len=16) :: arg
  reps = 40
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) reps
  end if
  do i = 1, n
    f(i) = mod(i, 13) * 0.5d0
  end do
  e = 0
  do r = 1, reps
    call relax_field(f, n, 4)
    e = e + field_energy(f, n)
  end do
  print '(f20.6)', e
end program fortran_app
