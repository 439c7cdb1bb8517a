//! Greedy by own value: Alice takes the stone she values most. Wrong: it
//! ignores what the same stone is worth to the referee.

#[path = "../player.rs"]
mod player;

fn main() {
    player::play(|a, _| a);
}
