//! Greedy: both players always take the larger end (the left one on ties).
//! Wrong: it ignores what the move uncovers for the opponent; on the sample
//! it gives `11 18` instead of `18 11`.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u32>().unwrap());
    let n = it.next().unwrap() as usize;
    let a: Vec<u32> = it.take(n).collect();
    let mut board = &a[..];
    let mut score = [0, 0];
    let mut turn = 0;
    while let (Some(&left), Some(&right)) = (board.first(), board.last()) {
        if left >= right {
            score[turn] += left;
            board = &board[1..];
        } else {
            score[turn] += right;
            board = &board[..board.len() - 1];
        }
        turn ^= 1;
    }
    println!("{} {}", score[0], score[1]);
}
