//! Input validator for spies-revised: the problem has no input, so a test input must be
//! empty.

fn main() {
    judge_kit::validator::check(|input| {
        if input.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the input must be empty, found {} bytes",
                input.len()
            ))
        }
    })
}
