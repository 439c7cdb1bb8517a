//! Knows the answer but does not play it: computes the optimal final sums
//! (the offline problem's answer) and reports them, but takes the larger end
//! every turn. Wrong: the sums reported must be those of the game played,
//! and the greedy play loses on boards built for it.

#[path = "../player.rs"]
mod player;

/// The optimal sums of player 1 and player 2 (interval DP).
fn optimal(a: &[u32]) -> (u32, u32) {
    let n = a.len();
    let mut f = vec![vec![0u32; n + 1]; n + 1];
    for len in 1..=n {
        for i in 0..=n - len {
            let j = i + len;
            let sum: u32 = a[i..j].iter().sum();
            f[i][j] = sum - f[i + 1][j].min(f[i][j - 1]);
        }
    }
    (f[0][n], a.iter().sum::<u32>() - f[0][n])
}

fn main() {
    let game = player::play(|game| {
        if game.a[game.left] >= game.a[game.right - 1] {
            "L"
        } else {
            "R"
        }
    });
    let (first, second) = optimal(&game.a);
    player::send(&format!("{first} {second}"));
}
