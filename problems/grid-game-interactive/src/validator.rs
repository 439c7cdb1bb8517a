//! `grid-game-interactive-validator < test.in`: exit 42 if the test is one
//! board in the exact layout (n ≤ 100, |M(i,j)| ≤ 1000), else 43 and why.

fn main() {
    judge_kit::validator::check(grid_game_interactive_tools::validate)
}
