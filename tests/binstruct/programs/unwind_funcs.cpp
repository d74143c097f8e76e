// SPDX-License-Identifier: BSD-3-Clause
// Functions of the kinds a stripped binary hides: static functions, template
// instances, lambdas, exceptions (landing pads GCC moves to .cold parts),
// cold paths split off the hot code, an OpenMP outlined region. Built at
// -O2 -g by tests/binstruct/check_unwind.py, then stripped.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

struct Grid {
  std::vector<double> v;
  explicit Grid(int n) : v((size_t)n, 1.0) {}
};

__attribute__((noinline)) static double relax(Grid &g, double w, int sweeps) {
  double s = 0;
  long n = (long)g.v.size() - 1;
  for (int k = 0; k < sweeps; k++) {
#pragma omp parallel for reduction(+ : s)
    for (long i = 1; i < n; i++) {
      g.v[i] = (1 - w) * g.v[i] + w * 0.5 * (g.v[i - 1] + g.v[i + 1]);
      s += g.v[i];
    }
  }
  return s;
}

template <typename T> __attribute__((noinline)) T accumulate_squares(const std::vector<T> &xs) {
  T s = 0;
  for (const T &x : xs) s += x * x;
  return s;
}

__attribute__((noinline)) static int checked(int x) {
  if (__builtin_expect(x < 0, 0)) {
    std::fprintf(stderr, "negative: %d\n", x);
    throw std::runtime_error("negative");
  }
  return x * 3 + 1;
}

__attribute__((noinline)) static long spin(long n) {
  long acc = 0;
  for (long i = 0; i < n; i++) acc += (i * 2654435761u) % 1000003;
  return acc;
}

__attribute__((noinline)) static long apply_all(std::vector<long> &xs) {
  auto twice = [](long x) __attribute__((noinline)) { return spin(x) * 2; };
  long s = 0;
  for (long &x : xs) {
    try {
      s += twice(checked((int)x));
    } catch (const std::exception &e) {
      s -= 1;
    }
  }
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 2000000;
  Grid g(1000);
  std::vector<long> xs = {n, -1, n / 2};
  std::vector<double> ds(100, 1.5);
  double r = relax(g, 0.5, 10) + accumulate_squares(ds);
  long a = apply_all(xs);
  std::printf("%.3f %ld\n", r, a);
  return 0;
}
