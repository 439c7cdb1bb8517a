//! A checker for "print a + b" (the answer file holds the sum); with an
//! argument, an accepted output scores that many points.

use judge_kit::{Tokens, checker};

fn main() {
    checker::main(|case| {
        let expected = Tokens::new(&case.answer)
            .next_int_in(i64::MIN, i64::MAX, "the sum")
            .unwrap_or_else(|e| judge_kit::judge_error(&format!("bad answer file: {e}")));
        let mut output = Tokens::new(&case.output);
        let sum = output.next_int_in(i64::MIN, i64::MAX, "the sum")?;
        output.expect_end()?;
        if sum != expected {
            return Err(format!("expected {expected}, found {sum}"));
        }
        Ok(case
            .args
            .first()
            .map(|points| points.parse().unwrap_or(f64::NAN)))
    })
}
