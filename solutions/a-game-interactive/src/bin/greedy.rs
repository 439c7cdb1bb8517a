//! Greedy: take the larger end (the left one on a tie). Wrong: it ignores
//! what the move uncovers for the referee, and loses on boards built for it.

#[path = "../player.rs"]
mod player;

fn main() {
    let game = player::play(|game| {
        if game.a[game.left] >= game.a[game.right - 1] {
            "L"
        } else {
            "R"
        }
    });
    player::send(&format!("{} {}", game.sums[0], game.sums[1]));
}
