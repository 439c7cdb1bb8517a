//! `judge similarity`: which students' files share code, with the
//! starter code given to everybody left out. It runs no program.

use std::path::Path;

use super::{Bench, double, double_script, write};
use crate::cli::SimilarityArgs;
use crate::commands::similar::similarity;
use crate::exit_codes;

const SOLUTION: &str = "import sys\n\ndef double(n):\n    total = 0\n    for _ in range(2):\n        total += n\n    return total\n\nfor line in sys.stdin:\n    value = int(line)\n    if value < 0:\n        print('negative')\n    else:\n        print(double(value))\n";

const OTHER: &str = "n = int(input())\nprint(n * 2 if n >= 0 else -1)\nwhile False:\n    pass\n";

/// A class where bob copied ada's `double.py` with other names, cat wrote
/// her own, and dan handed in notes.
fn copied(root: &Path) {
    double(root);
    write(root, "class/ada/double.py", SOLUTION);
    let renamed = SOLUTION.replace("total", "acc").replace("value", "x");
    write(root, "class/bob/double.py", &renamed);
    write(root, "class/cat/double.py", OTHER);
    write(root, "class/dan/notes.txt", "todo\n");
}

fn args(bench: &Bench) -> SimilarityArgs {
    SimilarityArgs {
        class: bench.root.path().join("class"),
        ids: Vec::new(),
        base: None,
        min: 40,
        top: 100,
        html: None,
    }
}

#[test]
fn a_copy_with_other_names_is_listed_and_starter_code_is_not() {
    let mut bench = Bench::new(copied, double_script);
    let plain = args(&bench);
    let code = similarity(&mut bench.ctx, &plain).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert!(
        text.starts_with(
            "3 files compared, 3 pairs share code; 1 at least 40% similar:\n100%  double  ada ~ bob"
        ),
        "{text}"
    );

    // Given to everybody as starter code, the same lines raise no pair.
    write(bench.root.path(), "starter/double.py", SOLUTION);
    let with_base = SimilarityArgs {
        base: Some(bench.root.path().join("starter")),
        ..plain
    };
    let before = text.len();
    similarity(&mut bench.ctx, &with_base).unwrap();
    let text = bench.text()[before..].to_string();
    assert!(
        text.starts_with("3 files compared, 0 pairs share code; 0 at least 40% similar:\n"),
        "{text}"
    );
    assert_eq!(bench.boxes.runs(), 0);
}
