//! 2025-09 static validation test cases: a group (or `sample`, or
//! `secret`) whose `test_group.yaml` gives `static_validation_score` has
//! one, `<group>/static_validation`, judged by running `static_validator/`
//! on the submission's files. The specification's rules are checked here,
//! each an error on the key's line.

use super::Reader;
use crate::formats::error::{FormatError, FormatResult};
use crate::formats::kattis::settings::GroupConfig;
use crate::formats::package::{Aggregation, StaticCase};

impl Reader<'_> {
    /// The static validation case of `group` (aggregated by
    /// `aggregation`), if its settings ask for one.
    pub(super) fn static_case(
        &mut self,
        config: &GroupConfig,
        group: &str,
        aggregation: Aggregation,
    ) -> FormatResult<()> {
        let Some(wanted) = &config.static_validation else {
            return Ok(());
        };
        let error = |message: &str| {
            Err(FormatError::at(
                &config.path,
                wanted.line,
                "static_validation_score".to_string(),
                message.to_string(),
            ))
        };
        match wanted.score {
            Some(_) if !self.meta.scoring => {
                return error("a score needs a problem of type scoring (else say `pass-fail`)");
            }
            Some(_) if aggregation == Aggregation::PassFail => {
                return error(
                    "a score needs a group with sum or min aggregation (else say `pass-fail`)",
                );
            }
            None if self.meta.scoring && aggregation != Aggregation::PassFail => {
                return error("`pass-fail` needs a group with pass-fail aggregation");
            }
            _ => {}
        }
        self.static_cases.push(StaticCase {
            name: format!("{group}/static_validation"),
            group: group.to_string(),
            max_score: wanted.score,
            args: wanted.args.clone(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::malformed_tests::copy_fixture;
    use crate::formats::read_package;

    #[test]
    fn the_static_case_is_read_with_its_score_and_arguments() {
        let (_temp, dir) = copy_fixture("staticecho");
        let package = read_package(&dir).unwrap().unwrap();
        assert_eq!(package.static_cases.len(), 1);
        let case = &package.static_cases[0];
        assert_eq!(case.name, "secret/static_validation");
        assert_eq!(case.max_score, Some(20.0));
        assert_eq!(case.args, ["--forbid", "eval"]);
        assert!(package.static_validator.is_some());
    }

    #[test]
    fn the_specifications_rules_are_errors_on_their_line() {
        let broken = |yaml: &str, problem: Option<(&str, &str)>, words: &str| {
            let (_temp, dir) = copy_fixture("staticecho");
            std::fs::write(dir.join("data/secret/test_group.yaml"), yaml).unwrap();
            if let Some((from, to)) = problem {
                let path = dir.join("problem.yaml");
                let text = std::fs::read_to_string(&path).unwrap();
                std::fs::write(&path, text.replace(from, to)).unwrap();
            }
            let error = read_package(&dir).unwrap().unwrap_err();
            assert!(error.message.contains(words), "{error}");
            error
        };
        let error = broken(
            "static_validator_args: [x]\n",
            None,
            "needs a `static_validation_score`",
        );
        assert_eq!(error.line, Some(1));
        broken(
            "static_validation_score: 5\n",
            Some(("type: scoring", "type: pass-fail")),
            "a score needs a problem of type scoring",
        );
        broken(
            "score_aggregation: pass-fail\nstatic_validation_score: 5\n",
            None,
            "a score needs a group with sum or min aggregation",
        );
        broken(
            "static_validation_score: pass-fail\n",
            None,
            "`pass-fail` needs a group with pass-fail aggregation",
        );
        let (_temp, dir) = copy_fixture("staticecho");
        std::fs::remove_dir_all(dir.join("static_validator")).unwrap();
        let error = read_package(&dir).unwrap().unwrap_err();
        assert!(
            error.message.contains("needs a static_validator/"),
            "{error}"
        );
    }
}
