//! Greedy by own value: Alice takes the largest a, Bob the largest b. Wrong:
//! it ignores what the same stone would be worth to the opponent.

#[path = "../greedy.rs"]
mod greedy;

fn main() {
    greedy::play(|a, _| a, |_, b| b);
}
