//! The IOI'96 Scientific Committee's strategy: with N even, player 1 can
//! take every number at an odd position (1st, 3rd, …) or every one at an
//! even position, whatever player 2 does, because after player 1's move both
//! ends of the row belong to the class he is not collecting. He takes the
//! richer class, so he never loses, though he may score less than optimal
//! play would: accepted here, where winning (or a tie) is what counts.

#[path = "../player.rs"]
mod player;

fn main() {
    let game = player::play(|game| {
        let odd: u32 = game.a.iter().step_by(2).sum();
        let even: u32 = game.a.iter().skip(1).step_by(2).sum();
        // Index 0 is position 1: odd positions are the even indices.
        let class = usize::from(even > odd);
        if game.left % 2 == class { "L" } else { "R" }
    });
    player::send(&format!("{} {}", game.sums[0], game.sums[1]));
}
