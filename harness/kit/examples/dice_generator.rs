//! A generator: `dice_generator COUNT SEED` prints COUNT dice rolls.

use judge_kit::generator;
use rand::Rng;

fn main() {
    generator::main(|args| {
        let [count, seed] = args else {
            return Err("usage: dice_generator COUNT SEED".into());
        };
        let count: usize = count.parse().map_err(|_| "COUNT: not a number")?;
        let mut rng = generator::rng(seed.parse().map_err(|_| "SEED: not a number")?);
        let rolls: Vec<String> = (0..count)
            .map(|_| rng.random_range(1..=6).to_string())
            .collect();
        Ok(format!("{}\n", rolls.join(" ")))
    })
}
