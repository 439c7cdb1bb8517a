//! Output validator for spies-any-n: a valid board of size n, or `-1` exactly when no
//! board exists (n = 2, 3, 5, 6, 7). No score.

use spies_any_n_tools::{Answer, MAX_N, feasible, find_defect, parse_answer, validate};

fn main() {
    judge_kit::checker::main(|case| {
        // A broken test is the judge's fault: a judge error, not a rejection.
        let n = validate(&case.input)
            .unwrap_or_else(|e| judge_kit::judge_error(&format!("bad input: {e}")));
        match parse_answer(&case.output, true, MAX_N)? {
            Answer::Impossible if feasible(n) => {
                Err(format!("printed -1, but a board of size {n} exists"))
            }
            Answer::Impossible => Ok(None),
            Answer::Board(_) if !feasible(n) => {
                Err(format!("no valid board of size {n} exists (expected -1)"))
            }
            Answer::Board(cols) if cols.len() as u64 != n => Err(format!(
                "printed a board of size {}, but n = {n}",
                cols.len()
            )),
            Answer::Board(cols) => match find_defect(&cols) {
                Some(defect) => Err(defect.to_string()),
                None => Ok(None),
            },
        }
    })
}
