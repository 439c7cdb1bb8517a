//! Brute force: walk the whole game tree. Each player picks the end that
//! maximises their own final score, tracking both scores explicitly (no
//! algebraic shortcut shared with the reference). Exact, O(2^N).

use std::io::Read;

/// Final (mover, other) scores on board `a` under optimal play.
fn play(a: &[u64]) -> (u64, u64) {
    let Some((&first, rest)) = a.split_first() else {
        return (0, 0);
    };
    let (&last, init) = a.split_last().unwrap();
    // After our move the opponent moves: their pair comes back swapped.
    let (other_l, mine_l) = play(rest);
    let (other_r, mine_r) = play(init);
    let take_left = (first + mine_l, other_l);
    let take_right = (last + mine_r, other_r);
    if take_left.0 >= take_right.0 {
        take_left
    } else {
        take_right
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<u64> = it.take(n).collect();
    let (p1, p2) = play(&a);
    println!("{p1} {p2}");
}
