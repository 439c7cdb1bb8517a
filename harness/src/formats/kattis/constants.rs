//! Kattis 2025-09 `constants`: read from `problem.yaml`, substituted as
//! `{{name}}` or `{{name.variant}}` in validators, included files, example
//! submissions and `test_group.yaml` (never in test data). Sequences naming
//! an unknown constant are left as they are, as the specification says.

use std::collections::BTreeMap;

use crate::formats::error::FormatResult;
use crate::formats::package::{Constant, Constants};
use crate::formats::yaml::Value;

fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub(crate) fn read_constants(value: &Value<'_>) -> FormatResult<Constants> {
    let mut values = BTreeMap::new();
    for (name, entry) in value.map()?.entries() {
        if !is_name(&name) {
            return Err(entry.error("a constant's name must match [a-zA-Z_][a-zA-Z0-9_]*"));
        }
        let constant = if entry.is_map() {
            let mut variants = BTreeMap::new();
            let mut main = None;
            for (variant, text) in entry.map()?.entries() {
                if variant == "value" {
                    main = Some(text.string()?);
                } else if is_name(&variant) {
                    variants.insert(variant, text.string()?);
                } else {
                    return Err(text.error("a variant's name must match [a-zA-Z_][a-zA-Z0-9_]*"));
                }
            }
            let value =
                main.ok_or_else(|| entry.error("a constant with variants needs a `value`"))?;
            Constant { value, variants }
        } else {
            Constant {
                value: entry.string()?,
                variants: BTreeMap::new(),
            }
        };
        values.insert(name, constant);
    }
    Ok(Constants { values })
}

impl Constants {
    /// Replaces every `{{name}}` and `{{name.variant}}` of a known constant.
    pub(crate) fn substitute(&self, text: &str) -> String {
        if self.values.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            match after
                .find("}}")
                .and_then(|end| Some((end, self.lookup(&after[..end])?)))
            {
                Some((end, value)) => {
                    out.push_str(value);
                    rest = &after[end + 2..];
                }
                None => {
                    out.push_str("{{");
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    fn lookup(&self, sequence: &str) -> Option<&str> {
        let (name, variant) = match sequence.split_once('.') {
            Some((name, variant)) => (name, Some(variant)),
            None => (sequence, None),
        };
        let constant = self.values.get(name)?;
        match variant {
            None | Some("value") => Some(&constant.value),
            Some(variant) => constant.variants.get(variant).map(String::as_str),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::formats::yaml::YamlFile;

    fn constants(yaml: &str) -> Constants {
        let file = YamlFile::parse(Path::new("problem.yaml"), yaml).unwrap();
        read_constants(&file.root().get("constants").unwrap()).unwrap()
    }

    #[test]
    fn substitutes_values_and_variants_and_leaves_unknown_ones() {
        let table = constants(
            "constants:\n  max_n: 1000000000000000000\n  k:\n    value: 5000000\n    tex: 5 \\cdot 10^6\n",
        );
        assert_eq!(
            table.substitute(
                "n <= {{max_n}}, k = {{k}} = {{k.value}} = {{k.tex}}; {{nope}} {{k.nope}} {{"
            ),
            "n <= 1000000000000000000, k = 5000000 = 5000000 = 5 \\cdot 10^6; {{nope}} {{k.nope}} {{"
        );
    }

    #[test]
    fn bad_names_are_errors_with_a_line() {
        let file = YamlFile::parse(
            Path::new("problem.yaml"),
            "name: x\nconstants:\n  9lives: 9\n",
        )
        .unwrap();
        let error = read_constants(&file.root().get("constants").unwrap()).unwrap_err();
        assert_eq!(error.line, Some(3), "{error}");
        assert_eq!(error.field.as_deref(), Some("constants.9lives"));
    }
}
