//! Greedy by advantage: Alice takes the largest a − b, Bob the largest b − a.
//! Wrong: taking a stone is worth a + b to the taker (own gain plus the
//! opponent's loss), not a − b.

#[path = "../greedy.rs"]
mod greedy;

fn main() {
    greedy::play(|a, b| a - b, |a, b| b - a);
}
