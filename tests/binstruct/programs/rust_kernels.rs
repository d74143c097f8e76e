// SPDX-License-Identifier: BSD-3-Clause
// A Rust function in a module: named rust_kernels::kernels::relax (as rustfilt prints it, legacy and
// v0 mangling) whether hpcdb struct reads DWARF or the symbol table (tests/binstruct/check_unwind.py).
mod kernels {
    #[inline(never)]
    pub fn relax(v: &mut Vec<f64>, sweeps: usize) -> f64 {
        for _ in 0..sweeps {
            for i in 1..v.len() - 1 {
                v[i] = 0.5 * (v[i - 1] + v[i + 1]);
            }
        }
        v.iter().sum()
    }
}
fn main() {
    let mut v = vec![1.0; 1000];
    v[0] = 0.0;
    let n: usize = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(100);
    println!("{}", kernels::relax(&mut v, n));
}
