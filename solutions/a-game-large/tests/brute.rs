//! The reference agrees with the full game tree and with the N x N table on
//! random small boards.

use a_game_large_tools::{Kind, Layout, board, render};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::io::Write;
use std::process::{Command, Stdio};

fn solve(bin: &str, input: &str) -> String {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{bin} failed on\n{input}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn reference_matches_brute_force() {
    let layouts = [
        Layout::Line,
        Layout::Column,
        Layout::Wrap(3),
        Layout::Ragged,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(1996);
    for round in 0..1000 {
        // Small value ranges make ties common; 10^9 needs 64-bit sums.
        let max_v = [2, 5, 1_000_000_000][round % 3];
        let kind = match round % 10 {
            9 => Kind::Const,
            7 | 8 => Kind::Spikes,
            _ => Kind::Random,
        };
        let n = rng.random_range(2..=14);
        let b = board(&mut rng, kind, n, max_v);
        let input = render(&mut rng, &b, layouts[round % layouts.len()]);
        let expected = solve(env!("CARGO_BIN_EXE_a-game-large-minimax"), &input);
        assert_eq!(
            solve(env!("CARGO_BIN_EXE_a-game-large"), &input),
            expected,
            "on\n{input}"
        );
        if round % 10 == 0 {
            assert_eq!(
                solve(env!("CARGO_BIN_EXE_a-game-large-table"), &input),
                expected,
                "on\n{input}"
            );
        }
    }
}
