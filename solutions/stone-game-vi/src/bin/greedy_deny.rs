//! Greedy by denial: Alice takes the stone Bob values most, Bob the one Alice
//! values most. Wrong: it ignores the taker's own gain.

#[path = "../greedy.rs"]
mod greedy;

fn main() {
    greedy::play(|_, b| b, |a, _| a);
}
