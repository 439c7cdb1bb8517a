//! Too slow: the seed's first brute force, aimed at full score (N = 999): walk the
//! permutations of 1..N in lexicographic order and print the first that passes the
//! seed's validator (float slopes). With 999! permutations it never gets there.

const N: usize = 999;

/// The seed's IsValid: no slope of exactly 1 or -1, then no third spy on any line.
fn is_valid(p: &[i64]) -> bool {
    let n = p.len();
    for i in 0..n {
        for j in i + 1..n {
            let slope = (p[i] - p[j]) as f64 / (i as f64 - j as f64);
            if slope == 1.0 || slope == -1.0 {
                return false;
            }
        }
    }
    for x in 1..=n {
        let y = p[x - 1];
        for x2 in x + 1..=n {
            let y2 = p[x2 - 1];
            let a = (y - y2) as f64 / (x as f64 - x2 as f64);
            let b = y as f64 - a * x as f64;
            for x3 in x2 + 1..=n {
                if p[x3 - 1] as f64 == a * x3 as f64 + b {
                    return false;
                }
            }
        }
    }
    true
}

/// Next permutation in lexicographic order; false after the last one.
fn next_permutation(p: &mut [i64]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..p.len())
        .rev()
        .find(|&j| p[j] > p[i - 1])
        .expect("a larger element");
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

fn main() {
    let mut p: Vec<i64> = (1..=N as i64).collect();
    loop {
        if is_valid(&p) {
            let cols: Vec<String> = p.iter().map(|c| c.to_string()).collect();
            println!("{N}\n{}", cols.join(" "));
            return;
        }
        if !next_permutation(&mut p) {
            return;
        }
    }
}
