// SPDX-License-Identifier: BSD-3-Clause
// A C++ program with the constructs whose names tools get wrong: a class template's member, a
// function template, lambdas, exceptions thrown and caught in the hot loop, and static
// (internal linkage) functions. Hot: Grid<double>::relax, checked_step (throws), norm_of.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <vector>

template <typename T> struct Grid {
  std::vector<T> v;
  explicit Grid(size_t n) : v(n) {}
  __attribute__((noinline)) void relax(int sweeps) {
    for (int s = 0; s < sweeps; s++)
      for (size_t i = 1; i + 1 < v.size(); i++) v[i] = (v[i - 1] + 2 * v[i] + v[i + 1]) / 4 + 1e-9 * v[i] * v[i];
  }
};

template <typename T> __attribute__((noinline)) T norm_of(const std::vector<T> &v) {
  return std::sqrt(std::accumulate(v.begin(), v.end(), T(0), [](T a, T b) { return a + b * b; }));
}

static __attribute__((noinline)) double checked_step(double x, int i) {
  if (i % 64 == 0) throw std::range_error("step out of range");
  return std::cos(x) * 0.5 + x * 0.5;
}

static __attribute__((noinline)) double run_steps(int n) {
  double x = 0.25, errors = 0;
  for (int i = 1; i < n; i++) {
    try {
      x = checked_step(x, i);
    } catch (const std::range_error &) {
      errors++;
    }
  }
  return x + errors;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 40;
  Grid<double> g(100000);
  std::generate(g.v.begin(), g.v.end(), [n = 0]() mutable { return (n++ % 13) * 0.5; });
  double sum = 0;
  for (int r = 0; r < reps; r++) {
    g.relax(4);
    for (int k = 0; k < 3; k++) sum += norm_of(g.v);
    sum += run_steps(20000);
  }
  std::printf("%.6f\n", sum);
  return 0;
}
