//! The bounds a validator checks, and whether the tests reach them, for
//! `judge verify --constraints`: every integer read in a range is
//! recorded under the name it was read as, and `validator::check` writes
//! them in BAPCtools' `--constraints_file` format when given that flag:
//! one line per name, `location name reached_low reached_high smallest
//! largest low high`.

use std::collections::BTreeMap;
use std::sync::Mutex;

#[derive(Debug, Clone, Copy)]
struct Bound {
    low: i64,
    high: i64,
    smallest: i64,
    largest: i64,
}

static BOUNDS: Mutex<BTreeMap<String, Bound>> = Mutex::new(BTreeMap::new());

/// Records that `value` was read as `what`, which must lie in `low..=high`.
pub(crate) fn record(what: &str, value: i64, low: i64, high: i64) {
    let mut bounds = BOUNDS.lock().unwrap_or_else(|e| e.into_inner());
    let bound = bounds.entry(what.to_string()).or_insert(Bound {
        low,
        high,
        smallest: value,
        largest: value,
    });
    // The widest range a name was checked against is its bound.
    bound.low = bound.low.min(low);
    bound.high = bound.high.max(high);
    bound.smallest = bound.smallest.min(value);
    bound.largest = bound.largest.max(value);
}

/// The recorded bounds in the `--constraints_file` format.
pub(crate) fn report() -> String {
    let bounds = BOUNDS.lock().unwrap_or_else(|e| e.into_inner());
    bounds
        .iter()
        .map(|(name, b)| {
            // Names are words in the format: spaces become underscores.
            let name = name.replace(char::is_whitespace, "_");
            format!(
                "judge-kit:{name} {name} {} {} {} {} {} {}\n",
                u8::from(b.smallest == b.low),
                u8::from(b.largest == b.high),
                b.smallest,
                b.largest,
                b.low,
                b.high
            )
        })
        .collect()
}

/// The file `--constraints_file FILE` names among the arguments, if any.
pub(crate) fn file_from_args() -> Option<std::path::PathBuf> {
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--constraints_file" {
            return args.next().map(Into::into);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_reported_with_whether_each_end_was_reached() {
        record("n", 1, 1, 100);
        record("n", 57, 1, 100);
        record("the values", -5, -5, 5);
        let report = report();
        assert!(
            report.contains("judge-kit:n n 1 0 1 57 1 100\n"),
            "{report}"
        );
        assert!(
            report.contains("judge-kit:the_values the_values 1 0 -5 -5 -5 5\n"),
            "{report}"
        );
    }
}
