//! `caos3-large-validator < test.in`: exit 42 if the input meets the CAOS3
//! format and the large tier's limits (T <= 10, R, C <= 40), else 43 with the
//! reason on stderr.

fn main() {
    judge_kit::validator::check(|input| {
        caos3_large_tools::validate(input, caos3_large_tools::LIMITS)
    })
}
