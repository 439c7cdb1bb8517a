//! `stone-game-vi-large-generator KIND T N|LO-HI MAXV SEED > test.in`

fn main() {
    judge_kit::generator::main(|args| {
        let games = stone_game_vi_large_tools::generate(args)?;
        Ok(stone_game_vi_large_tools::render(&games))
    })
}
