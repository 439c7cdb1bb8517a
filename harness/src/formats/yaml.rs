//! YAML access that keeps every value's line, so that a bad value, a wrong
//! type or an unknown key is reported as `file:line: `key`: why`.
//!
//! `marked-yaml` keeps scalars as their source text: numbers are parsed here
//! (so `1000000000000000000` stays exact for `{{constants}}`), and quoted
//! scalars are never taken for numbers or booleans.

use std::path::{Path, PathBuf};

use marked_yaml::types::{MarkedMappingNode, MarkedScalarNode};
use marked_yaml::{LoadError, LoaderOptions, Node};

use super::error::{FormatError, FormatResult};

/// A parsed YAML file whose top level is a mapping.
#[derive(Debug)]
pub(crate) struct YamlFile {
    pub(crate) path: PathBuf,
    root: Node,
}

impl YamlFile {
    pub(crate) fn read(path: &Path) -> FormatResult<YamlFile> {
        let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, &e))?;
        YamlFile::parse(path, &text)
    }

    /// Parses `text` as the contents of `path` (after `{{constant}}`
    /// substitution, for example). An empty file is an empty mapping.
    pub(crate) fn parse(path: &Path, text: &str) -> FormatResult<YamlFile> {
        let text = if text.trim().is_empty() { "{}" } else { text };
        let options = LoaderOptions::default().error_on_duplicate_keys(true);
        let root = marked_yaml::parse_yaml_with_options(0, text, options)
            .map_err(|e| load_error(path, &e))?;
        Ok(YamlFile {
            path: path.to_path_buf(),
            root,
        })
    }

    pub(crate) fn root(&self) -> Map<'_> {
        let node = self
            .root
            .as_mapping()
            .expect("the loader requires a top-level mapping");
        Map {
            path: &self.path,
            node,
            prefix: String::new(),
        }
    }
}

fn load_error(path: &Path, error: &LoadError) -> FormatError {
    let (marker, message) = match error {
        LoadError::TopLevelMustBeMapping(m) => (
            Some(m),
            "the top level must be a mapping of keys".to_string(),
        ),
        LoadError::TopLevelMustBeSequence(m) => {
            (Some(m), "the top level must be a sequence".to_string())
        }
        LoadError::UnexpectedAnchor(m) => (Some(m), "YAML anchors are not supported".to_string()),
        LoadError::MappingKeyMustBeScalar(m) => {
            (Some(m), "a key must be a plain value".to_string())
        }
        LoadError::UnexpectedTag(m) => (Some(m), "YAML tags are not supported".to_string()),
        LoadError::ScanError(m, e) => (Some(m), format!("invalid YAML: {e}")),
        LoadError::DuplicateKey(inner) => (
            inner.key.span().start(),
            format!("duplicate key `{}`", inner.key.as_str()),
        ),
    };
    FormatError {
        path: path.to_path_buf(),
        line: marker.map(marked_yaml::Marker::line),
        field: None,
        message,
    }
}

fn line_of(node: &Node) -> usize {
    node.span().start().map_or(1, marked_yaml::Marker::line)
}

/// A mapping, with the dotted path of keys that led to it.
#[derive(Clone)]
pub(crate) struct Map<'a> {
    path: &'a Path,
    node: &'a MarkedMappingNode,
    /// `limits.` for the mapping under `limits`; empty at the top.
    prefix: String,
}

impl<'a> Map<'a> {
    pub(crate) fn line(&self) -> usize {
        self.node
            .span()
            .start()
            .map_or(1, marked_yaml::Marker::line)
    }

    /// Every key must be one of `allowed`; the first other one is an error.
    pub(crate) fn only_keys(&self, allowed: &[&str]) -> FormatResult<()> {
        for (key, _) in self.node.iter() {
            if !allowed.contains(&key.as_str()) {
                return Err(self.key_error(key, "unknown key"));
            }
        }
        Ok(())
    }

    /// The line of `key` itself (a mapping value starts a line later).
    pub(crate) fn key_line(&self, key: &str) -> Option<usize> {
        self.node
            .iter()
            .find(|(k, _)| k.as_str() == key)
            .map(|(k, _)| {
                k.span()
                    .start()
                    .map_or(self.line(), marked_yaml::Marker::line)
            })
    }

    fn key_error(&self, key: &MarkedScalarNode, message: &str) -> FormatError {
        FormatError::at(
            self.path,
            key.span()
                .start()
                .map_or(self.line(), marked_yaml::Marker::line),
            format!("{}{}", self.prefix, key.as_str()),
            message,
        )
    }

    /// Keys and values in file order.
    pub(crate) fn entries(&self) -> Vec<(String, Value<'a>)> {
        self.node
            .iter()
            .map(|(key, node)| {
                (
                    key.as_str().to_string(),
                    Value {
                        path: self.path,
                        node,
                        field: format!("{}{}", self.prefix, key.as_str()),
                    },
                )
            })
            .collect()
    }

    pub(crate) fn get(&self, key: &str) -> Option<Value<'a>> {
        let node = self.node.get_node(key)?;
        let value = Value {
            path: self.path,
            node,
            field: format!("{}{}", self.prefix, key),
        };
        (!value.is_null()).then_some(value)
    }

    pub(crate) fn str(&self, key: &str) -> FormatResult<Option<String>> {
        self.get(key).map(|v| v.string()).transpose()
    }

    pub(crate) fn f64(&self, key: &str) -> FormatResult<Option<f64>> {
        self.get(key).map(|v| v.number()).transpose()
    }

    pub(crate) fn bool(&self, key: &str) -> FormatResult<Option<bool>> {
        self.get(key).map(|v| v.boolean()).transpose()
    }
}

/// One value and the dotted key path that names it in errors.
#[derive(Clone)]
pub(crate) struct Value<'a> {
    path: &'a Path,
    node: &'a Node,
    field: String,
}

impl<'a> Value<'a> {
    pub(crate) fn line(&self) -> usize {
        line_of(self.node)
    }

    /// The dotted key path naming the value (`limits.time_multiplier`).
    pub(crate) fn field(&self) -> &str {
        &self.field
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> FormatError {
        FormatError::at(self.path, self.line(), self.field.clone(), message)
    }

    fn scalar(&self) -> Option<&'a MarkedScalarNode> {
        self.node.as_scalar()
    }

    /// `~`, `null` or nothing after the colon.
    pub(crate) fn is_null(&self) -> bool {
        self.scalar().is_some_and(|s| {
            s.may_coerce() && matches!(s.as_str(), "" | "~" | "null" | "Null" | "NULL")
        })
    }

    /// A scalar as text (numbers and booleans too, as written).
    pub(crate) fn string(&self) -> FormatResult<String> {
        self.scalar()
            .map(|s| s.as_str().to_string())
            .ok_or_else(|| self.error("expected a single value"))
    }

    pub(crate) fn number(&self) -> FormatResult<f64> {
        let scalar = self.scalar().filter(|s| s.may_coerce());
        scalar
            .and_then(|s| s.as_str().parse::<f64>().ok())
            .filter(|x| x.is_finite())
            .ok_or_else(|| self.error("expected a number"))
    }

    pub(crate) fn unsigned(&self) -> FormatResult<u64> {
        let scalar = self.scalar().filter(|s| s.may_coerce());
        scalar
            .and_then(|s| s.as_str().parse::<u64>().ok())
            .ok_or_else(|| self.error("expected a non-negative integer"))
    }

    pub(crate) fn boolean(&self) -> FormatResult<bool> {
        self.scalar()
            .and_then(MarkedScalarNode::as_bool)
            .ok_or_else(|| self.error("expected true or false"))
    }

    pub(crate) fn map(&self) -> FormatResult<Map<'a>> {
        let node = self
            .node
            .as_mapping()
            .ok_or_else(|| self.error("expected a mapping of keys"))?;
        Ok(Map {
            path: self.path,
            node,
            prefix: format!("{}.", self.field),
        })
    }

    pub(crate) fn is_map(&self) -> bool {
        self.node.as_mapping().is_some()
    }

    /// A sequence's items (a single scalar is not a sequence here).
    pub(crate) fn items(&self) -> FormatResult<Vec<Value<'a>>> {
        let sequence = self
            .node
            .as_sequence()
            .ok_or_else(|| self.error("expected a list"))?;
        Ok(sequence
            .iter()
            .enumerate()
            .map(|(i, node)| Value {
                path: self.path,
                node,
                field: format!("{}[{i}]", self.field),
            })
            .collect())
    }

    /// A list of strings, or one string standing for a list of one.
    pub(crate) fn strings(&self) -> FormatResult<Vec<String>> {
        if self.scalar().is_some() {
            return Ok(vec![self.string()?]);
        }
        self.items()?.iter().map(Value::string).collect()
    }

    /// A list of strings only (no single-string shorthand).
    pub(crate) fn string_list(&self) -> FormatResult<Vec<String>> {
        self.items()?.iter().map(Value::string).collect()
    }
}

impl Value<'_> {
    /// The value written back as YAML, in flow style (`{a: 1, b: [x]}`):
    /// scalars as they were written, quoted (JSON-style) where they were.
    /// `generators.yaml` uses it to write the `test_group.yaml` and
    /// `<case>.yaml` it holds inline.
    pub(crate) fn to_yaml_text(&self) -> String {
        fn write(node: &Node, out: &mut String) {
            match node {
                // Numbers, booleans and nulls stay plain (so they are read
                // as such); every other scalar is quoted, safe in flow style.
                Node::Scalar(s)
                    if s.may_coerce()
                        && (s.as_str().parse::<f64>().is_ok()
                            || matches!(s.as_str(), "true" | "false" | "null" | "~")) =>
                {
                    out.push_str(s.as_str())
                }
                Node::Scalar(s) => out.push_str(&serde_json::Value::from(s.as_str()).to_string()),
                Node::Sequence(items) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        write(item, out);
                    }
                    out.push(']');
                }
                Node::Mapping(map) => {
                    out.push('{');
                    for (i, (key, value)) in map.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        out.push_str(&serde_json::Value::from(key.as_str()).to_string());
                        out.push_str(": ");
                        write(value, out);
                    }
                    out.push('}');
                }
            }
        }
        let mut out = String::new();
        write(self.node, &mut out);
        out.push('\n');
        out
    }
}
