//! The reference with i32 scores, as a port of the original (sums ≤ 20000)
//! would have them. Here a single sum passes 2^31 and wraps (the judge builds
//! without overflow checks).

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i32>().unwrap());
    let n = usize::try_from(it.next().unwrap()).unwrap();
    let a: Vec<i32> = it.take(n).collect();

    let mut prefix = vec![0i32; n + 1];
    for (i, &v) in a.iter().enumerate() {
        prefix[i + 1] = prefix[i] + v;
    }
    let mut f = a;
    for len in 2..=n {
        for i in 0..=n - len {
            f[i] = prefix[i + len] - prefix[i] - f[i].min(f[i + 1]);
        }
    }
    println!("{} {}", f[0], prefix[n] - f[0]);
}
