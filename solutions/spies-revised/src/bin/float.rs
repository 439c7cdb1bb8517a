//! Wrong: the seed's search (Frederik Banke, "Spy Game"): a depth-first search over
//! prefixes in lexicographic order that validates each new spy with floating-point
//! slopes (`a = dy / dx; b = y - a * x; y3 == a * x3 + b`). Testing only the triples
//! that end at the newest spy is equivalent to the seed's full re-validation of every
//! prefix, and it prints exactly the seed's boards for N = 11, 17, 23 and 25. N = 23
//! takes about 0.15 s (N = 27 takes minutes); the float test accepts that board although
//! rows 2, 8, 14 lie on a line of slope 5/3.

const N: usize = 23;

/// The seed's IsOnLine, checking the triples that end at the newest spy (earlier triples
/// were checked when the prefix was shorter). 1-based (x, y) = (row, column).
fn on_line(p: &[i64]) -> bool {
    let x = p.len() as i64;
    let y = p[p.len() - 1];
    for x1 in 1..x - 1 {
        let y1 = p[x1 as usize - 1];
        for x2 in x1 + 1..x {
            let y2 = p[x2 as usize - 1];
            let a = (y1 - y2) as f64 / (x1 - x2) as f64;
            let b = y1 as f64 - a * x1 as f64;
            if y as f64 == a * x as f64 + b {
                return true;
            }
        }
    }
    false
}

/// The seed's IsInDiagonal: some slope to an earlier spy is 1 or -1.
fn in_diagonal(p: &[i64]) -> bool {
    let x = p.len() as i64;
    let y = p[p.len() - 1];
    (1..x).any(|x2| {
        let slope = (y - p[x2 as usize - 1]) as f64 / (x - x2) as f64;
        slope == 1.0 || slope == -1.0
    })
}

fn search(p: &mut Vec<i64>, used: &mut [bool]) -> bool {
    if p.len() == N {
        return true;
    }
    for v in 1..=N as i64 {
        if used[v as usize] {
            continue;
        }
        p.push(v);
        if !in_diagonal(p) && !on_line(p) {
            used[v as usize] = true;
            if search(p, used) {
                return true;
            }
            used[v as usize] = false;
        }
        p.pop();
    }
    false
}

fn main() {
    let mut p = Vec::with_capacity(N);
    if search(&mut p, &mut [false; N + 1]) {
        let cols: Vec<String> = p.iter().map(|c| c.to_string()).collect();
        println!("{N}\n{}", cols.join(" "));
    }
}
