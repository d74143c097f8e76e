! SPDX-License-Identifier: BSD-3-Clause
! A Fortran module procedure (and an OpenMP region in it): named heat::relax
! whether hpcdb struct reads DWARF or the symbol table (tests/binstruct/check_unwind.py).
module heat
  implicit none
contains
  subroutine relax(u, n, sweeps)
    integer, intent(in) :: n, sweeps
    double precision, intent(inout) :: u(n)
    integer :: i, k
    do k = 1, sweeps
      !$omp parallel do
      do i = 2, n - 1
        u(i) = 0.5d0 * (u(i - 1) + u(i + 1))
      end do
      !$omp end parallel do
    end do
  end subroutine relax
end module heat

program main
  use heat
  implicit none
  double precision :: u(1000)
  u = 1.0d0
  u(1) = 0.0d0
  call relax(u, 1000, 100)
  print *, sum(u)
end program main
