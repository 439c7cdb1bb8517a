//! Greedy by denial: Alice takes the stone the referee values most. Wrong:
//! it ignores her own gain.

#[path = "../player.rs"]
mod player;

fn main() {
    player::play(|_, b| b);
}
