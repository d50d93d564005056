// SPDX-License-Identifier: GPL-2.0-only
// rustspin [CPU-SECONDS]: Rust names for the demangling tests: a generic
// method instantiated twice and a free function, burning CPU time.
use std::time::Instant;

struct Acc<T> {
    v: T,
}

impl<T: Copy + std::ops::Add<Output = T> + std::ops::Mul<Output = T>> Acc<T> {
    #[inline(never)]
    fn spin(&mut self, k: T, n: u64) -> T {
        for _ in 0..n {
            self.v = self.v * k + k;
        }
        self.v
    }
}

#[inline(never)]
fn burn(secs: f64) -> u64 {
    let t = Instant::now();
    let mut a = Acc { v: 1u64 };
    let mut b = Acc { v: 1.0f64 };
    let mut r = 0u64;
    while t.elapsed().as_secs_f64() < secs {
        r = r.wrapping_add(a.spin(3, 100000));
        r = r.wrapping_add(b.spin(0.5, 50000) as u64);
    }
    r
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0.3);
    // The result is used (not optimised away); the exit status is 0.
    std::hint::black_box(burn(secs));
}
