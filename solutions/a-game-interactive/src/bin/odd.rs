//! Half of the committee's strategy: always take the numbers at odd
//! positions (1st, 3rd, …), without checking that they add up to more than
//! the even ones. Wrong: it loses whenever the even positions are richer.

#[path = "../player.rs"]
mod player;

fn main() {
    let game = player::play(|game| if game.left % 2 == 0 { "L" } else { "R" });
    player::send(&format!("{} {}", game.sums[0], game.sums[1]));
}
