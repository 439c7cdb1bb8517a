//! The CCS Contest API's official JSON schemas (`fixtures/ccs-specs`,
//! each release's `json-schema/` at the commit its README names), made
//! strict as the official `check-api.sh` makes them without `-p`:
//! `"additionalProperties": false` before every
//! `ANCHOR_TO_INSERT_REQUIRE_STRICT_PROPERTIES`, so that no property the
//! schema does not define passes.

use serde_json::{Value, json};

use crate::support::fixtures;

/// The schemas of one release, ready to validate with.
pub struct Schemas {
    pub version: &'static str,
    registry: jsonschema::Registry<'static>,
    base: String,
}

/// The one overlay (see the fixtures' README): 2026-01's text gives a
/// clarification `to_team_ids` and `to_group_ids`, which that release's
/// `clarification.json` does not know yet; they are let through as the
/// text defines them (arrays of IDs, or null), and nothing else is.
fn overlay(version: &str, name: &str, schema: &mut Value) {
    if version == "2026-01" && name == "clarification.json" {
        let properties = schema["properties"]
            .as_object_mut()
            .expect("clarification.json has properties");
        for key in ["to_team_ids", "to_group_ids"] {
            properties.insert(
                key.into(),
                json!({ "$ref": "common.json#/identifiersornull" }),
            );
        }
    }
}

impl Schemas {
    pub fn load(version: &'static str) -> Schemas {
        let dir = fixtures().join("ccs-specs").join(version);
        let mut registry = jsonschema::Registry::new();
        let mut base = String::new();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let strict: String = text
                .lines()
                .flat_map(|line| {
                    let anchor = line.contains("ANCHOR_TO_INSERT_REQUIRE_STRICT_PROPERTIES");
                    anchor
                        .then_some("\t\t\"additionalProperties\": false,")
                        .into_iter()
                        .chain([line])
                })
                .collect::<Vec<_>>()
                .join("\n");
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let mut schema: Value =
                serde_json::from_str(&strict).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            overlay(version, &name, &mut schema);
            let id = schema["$id"].as_str().unwrap().to_string();
            base = id[..id.rfind('/').unwrap() + 1].to_string();
            registry = registry.add(id, schema).unwrap();
        }
        Schemas {
            version,
            registry: registry.prepare().unwrap(),
            base,
        }
    }

    /// `value` checked against `name` (`team` for `team.json`): the
    /// errors, empty when it passes.
    pub fn errors(&self, name: &str, value: &Value) -> Vec<String> {
        let root = json!({ "$ref": format!("{}{name}.json", self.base) });
        let validator = jsonschema::options()
            .with_registry(&self.registry)
            .build(&root)
            .unwrap_or_else(|e| panic!("{} {name}.json: {e}", self.version));
        validator
            .iter_errors(value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect()
    }

    /// Fails the test unless `value` passes `name`.
    pub fn check(&self, name: &str, value: &Value, what: &str) {
        let errors = self.errors(name, value);
        assert!(
            errors.is_empty(),
            "{} {what} fails {name}.json:\n{}\n{}",
            self.version,
            errors.join("\n"),
            serde_json::to_string_pretty(value).unwrap()
        );
    }
}

#[test]
fn the_strict_schemas_refuse_what_the_spec_does_not_define() {
    for version in ["2023-06", "2026-01"] {
        let schemas = Schemas::load(version);
        let team = json!({"id": "3", "label": "alice", "name": "Alice"});
        assert!(schemas.errors("team", &team).is_empty(), "{version}");
        let extra = json!({"id": "3", "label": "alice", "name": "Alice", "colour": "red"});
        assert!(!schemas.errors("team", &extra).is_empty(), "{version}");
        let time = if version == "2023-06" {
            json!(20)
        } else {
            json!("0:20:00.000")
        };
        let contest = json!({"id": "c", "name": "C", "duration": "5:00:00.000",
            "scoreboard_type": "pass-fail", "penalty_time": time});
        assert!(schemas.errors("contest", &contest).is_empty(), "{version}");
        let run = json!({"id": "1", "judgement_id": "1", "ordinal": 1, "judgement_type_id": "AC",
            "time": "2026-05-01T09:00:00.000+00:00", "contest_time": "0:00:01.000", "run_time": 0.007});
        assert_eq!(
            schemas.errors("run", &run),
            Vec::<String>::new(),
            "{version}"
        );
    }
}
