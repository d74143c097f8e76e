// C++ exceptions thrown through frames the recorder samples and unwinds
// (tests/record/stress.sh): 5,000 throws from 8 frames deep, caught above.
#include <cstdio>
#include <stdexcept>

static volatile unsigned long sink;

__attribute__((noinline)) static void dig(int depth, int i) {
  for (int k = 0; k < 300; k++) sink = sink + (unsigned long)k * (unsigned long)i;
  if (depth == 0) throw std::runtime_error("bottom");
  dig(depth - 1, i);
}

int main() {
  int caught = 0;
  for (int i = 0; i < 5000; i++) {
    try {
      dig(8, i);
    } catch (const std::runtime_error &) {
      caught++;
    }
  }
  std::printf("exceptions caught: %d\n", caught);
  return 0;
}
