//! Greedy by advantage: Alice takes the stone with the largest a − b. Wrong:
//! taking a stone is worth a + b to the taker (her gain plus the referee's
//! loss), not a − b.

#[path = "../player.rs"]
mod player;

fn main() {
    player::play(|a, b| a - b);
}
