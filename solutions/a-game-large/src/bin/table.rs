//! The textbook interval DP with a full N x N table of i64: right for the
//! original N ≤ 100, but 8·N^2 bytes is 3.2 GB at N = 20000.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<i64>().unwrap());
    let n = usize::try_from(it.next().unwrap()).unwrap();
    let a: Vec<i64> = it.take(n).collect();

    let mut prefix = vec![0; n + 1];
    for (i, &v) in a.iter().enumerate() {
        prefix[i + 1] = prefix[i] + v;
    }
    // f[i][j]: best score of the player to move on a[i..=j].
    let mut f = vec![vec![0i64; n]; n];
    for i in 0..n {
        f[i][i] = a[i];
    }
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            f[i][j] = prefix[j + 1] - prefix[i] - f[i + 1][j].min(f[i][j - 1]);
        }
    }
    println!("{} {}", f[0][n - 1], prefix[n] - f[0][n - 1]);
}
