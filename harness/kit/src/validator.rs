//! The `main` of an input validator (Kattis: `validator [args] < test.in`,
//! exit 42 valid, anything else invalid).

use std::io::Read;

use crate::exit;

/// Reads the whole of stdin, runs `check` on it, and exits 42 if it returns
/// `Ok`; otherwise prints the message on stderr and exits 43. With
/// `--constraints_file FILE` among its arguments it also writes there the
/// bounds it checked and whether the input reached them (`bounds`). Input that is
/// not UTF-8 is invalid without calling `check`.
pub fn check(check: impl FnOnce(&str) -> Result<(), String>) -> ! {
    let mut bytes = Vec::new();
    if let Err(error) = std::io::stdin().read_to_end(&mut bytes) {
        crate::judge_error(&format!("cannot read the input: {error}"));
    }
    let verdict = String::from_utf8(bytes)
        .map_err(|e| {
            format!(
                "the input is not UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            )
        })
        .and_then(|text| check(&text));
    // `judge verify --constraints` (BAPCtools' protocol): the bounds read.
    if let Some(file) = crate::bounds::file_from_args() {
        if let Err(error) = std::fs::write(&file, crate::bounds::report()) {
            crate::judge_error(&format!("cannot write {}: {error}", file.display()));
        }
    }
    match verdict {
        Ok(()) => std::process::exit(exit::ACCEPT),
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(exit::REJECT)
        }
    }
}
