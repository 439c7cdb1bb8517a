//! `grid-game-interactive-generator KIND NMIN NMAX LO HI SEED > test.in`

fn main() {
    judge_kit::generator::main(grid_game_interactive_tools::generate)
}
