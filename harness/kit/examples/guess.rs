//! An interactor for "guess the number", the smallest game played through
//! `judge_kit::interactor::Session` (and the kit's own tests' opponent).
//!
//! The input holds `N SECRET`. We send N; the submission guesses, we answer
//! `lower`, `higher` or `correct`; it has 10 guesses.

use judge_kit::Tokens;
use judge_kit::interactor::Session;

const GUESSES: usize = 10;

fn main() {
    let mut game = Session::start();
    let mut input = Tokens::new(game.input());
    let read = |t: &mut Tokens| t.next_int_in(1, 1_000_000, "N and SECRET");
    let (n, secret) = match (read(&mut input), read(&mut input)) {
        (Ok(n), Ok(secret)) if secret <= n => (n, secret),
        _ => judge_kit::judge_error("the input is not `N SECRET`"),
    };
    game.send(&n.to_string());
    for guesses in 1..=GUESSES {
        let guess = game.recv_int_in(1, n, "a guess");
        let reply = match guess.cmp(&secret) {
            std::cmp::Ordering::Less => "higher",
            std::cmp::Ordering::Greater => "lower",
            std::cmp::Ordering::Equal => {
                game.send("correct");
                game.finish(&format!("found {secret} in {guesses} guesses"));
            }
        };
        game.show(&format!("guess {guesses}: {guess} ({reply})"));
        game.send(reply);
    }
    game.reject(&format!("no guess left after {GUESSES} guesses"));
}
