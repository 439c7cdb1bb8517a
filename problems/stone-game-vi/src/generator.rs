//! `stone-game-vi-generator KIND N MAXV SEED > test.in`

fn main() {
    judge_kit::generator::main(|args| Ok(stone_game_vi_tools::generate(args)?.render()))
}
