//! The `[stress]` table of `problem.toml`: how `judge stress` draws fresh
//! inputs from the package's generator, and whether `judge test` may show a
//! learner a small failing case.
//!
//! ```toml
//! [stress]
//! args = ["random 8 20 line {seed}", "spikes 10 200 ragged {seed}"]
//! offer-counterexample = false
//! ```

use serde::Deserialize;

/// The placeholder a template's seed goes in.
pub(super) const SEED_PLACEHOLDER: &str = "{seed}";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawStress {
    #[serde(default)]
    pub(crate) args: Vec<toml::Spanned<String>>,
    #[serde(default)]
    pub(crate) offer_counterexample: bool,
}

/// The validated `[stress]` table (empty when the package has none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StressSpec {
    /// Generator argument lines, each with a `{seed}`: stress case `i` uses
    /// template `i mod len` with a fresh seed.
    pub args: Vec<String>,
    /// `judge test` may look for a small failing case after a wrong answer
    /// and show it. Off by default: a contest must not leak tests.
    pub offer_counterexample: bool,
}

impl StressSpec {
    /// Checks every template: not empty and with a `{seed}`. `Err` holds the
    /// span of the bad template and why.
    pub(crate) fn from_raw(
        raw: RawStress,
        has_generator: bool,
    ) -> Result<StressSpec, (std::ops::Range<usize>, TemplateError)> {
        let mut args = Vec::new();
        for template in raw.args {
            let span = template.span();
            let text = template.into_inner();
            if !has_generator {
                return Err((span, TemplateError::NoGenerator));
            }
            check_template(&text).map_err(|message| (span, message))?;
            args.push(text);
        }
        Ok(StressSpec {
            args,
            offer_counterexample: raw.offer_counterexample,
        })
    }
}

/// Why a stress template cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("stress.args needs a [generator] to run")]
    NoGenerator,
    #[error("a stress template needs at least one argument")]
    Empty,
    #[error("`{template}` has no {SEED_PLACEHOLDER}: every stress input needs a fresh seed")]
    NoSeed { template: String },
}

/// A template must name the generator's arguments and put the seed in one.
pub fn check_template(text: &str) -> Result<(), TemplateError> {
    if text.split_whitespace().next().is_none() {
        return Err(TemplateError::Empty);
    }
    if !text.contains(SEED_PLACEHOLDER) {
        return Err(TemplateError::NoSeed {
            template: text.to_string(),
        });
    }
    Ok(())
}

/// The generator's arguments for `template` with `seed` in place.
pub fn expand_template(template: &str, seed: u64) -> Vec<String> {
    template
        .split_whitespace()
        .map(|word| word.replace(SEED_PLACEHOLDER, &seed.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_need_a_seed() {
        assert!(check_template("random 8 20 line {seed}").is_ok());
        assert!(
            check_template("random 8 20 line 7")
                .unwrap_err()
                .to_string()
                .contains("{seed}")
        );
        assert!(check_template("  ").is_err());
    }

    #[test]
    fn the_seed_goes_where_the_placeholder_is() {
        assert_eq!(
            expand_template("trap odd 6 {seed} x{seed}", 42),
            ["trap", "odd", "6", "42", "x42"]
        );
    }
}
