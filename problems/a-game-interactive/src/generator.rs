//! `a-game-interactive-generator KIND N MAXV SEED > test.in`

fn main() {
    judge_kit::generator::main(a_game_interactive_tools::generate)
}
