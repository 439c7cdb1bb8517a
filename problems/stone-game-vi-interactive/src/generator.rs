//! `stone-game-vi-interactive-generator KIND N MAXV SEED > test.in`

fn main() {
    judge_kit::generator::main(stone_game_vi_interactive_tools::generate)
}
