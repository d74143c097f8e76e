// A C++ test program for hpcdb struct (-O2 -g): procedures are named by their
// demangled linkage names, as hpcstruct names them (marks as in kernels.c).
namespace geo {
struct Grid {
  int n;
  double sum(const double *v) const;
};

double Grid::sum(const double *v) const { /* FUNC geo::Grid::sum(double const*) const */
  double s = 0;
  for (int i = 0; i < n; i++) /* LOOP */
    s += v[i] * v[i];
  return s;
}
} // namespace geo

volatile double sink;

int main(int argc, char **) { /* FUNC main */
  double v[64];
  for (int i = 0; i < 64; i++) /* LOOP */
    v[i] = i * argc;
  geo::Grid g{argc * 32};
  sink = g.sum(v);
  return 0;
}
