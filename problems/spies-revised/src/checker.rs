//! Output validator for spies-revised (there is no input): the contestant prints any
//! valid board whose size N is odd and at most 999, and scores N/10 (HackerRank's rule).

use spies_revised_tools::{Answer, find_defect, parse_answer};

fn main() {
    judge_kit::checker::main(|case| {
        let Answer::Board(cols) = parse_answer(&case.output, false, 999)? else {
            unreachable!("-1 is not allowed here")
        };
        let n = cols.len();
        if n % 2 == 0 {
            return Err(format!("the board size {n} is even (it must be odd)"));
        }
        if let Some(defect) = find_defect(&cols) {
            return Err(defect.to_string());
        }
        Ok(Some(n as f64 / 10.0))
    })
}
