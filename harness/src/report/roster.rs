//! A class roster (`--roster FILE`): who each student of the class folder is in the school's
//! systems, for the LMS exports. A CSV file with a header row naming its
//! columns (any order, case and `_`/space alike):
//!
//! | column | meaning | Moodle | Canvas | Gradescope |
//! |---|---|---|---|---|
//! | `student` (required) | the student's folder (or manifest) name | | | `students.csv` |
//! | `name` | the full name | Full name | Student | |
//! | `email` | the e-mail address | Email address | | `students.csv` |
//! | `id` | the school's student number | ID number | SIS User ID | `students.csv` |
//! | `lms_id` | the LMS's own user number | | ID | |
//! | `login` | the login name | Username | SIS Login ID | |
//! | `section` | the section or group | | Section | |

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use thiserror::Error;

#[derive(Debug, Error)]
pub enum RosterError {
    #[error("failed to read the roster {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: row {row}: field `{field}`: {message}", path.display())]
    Invalid {
        path: PathBuf,
        row: usize,
        field: String,
        message: String,
    },
}

/// One student as the school knows them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Person {
    pub name: String,
    pub email: String,
    pub id: String,
    pub lms_id: String,
    pub login: String,
    pub section: String,
}

/// Students by their class name.
#[derive(Debug, Clone, Default)]
pub struct SchoolRoster {
    pub people: BTreeMap<String, Person>,
}

const COLUMNS: [&str; 7] = [
    "student", "name", "email", "id", "lms_id", "login", "section",
];

impl SchoolRoster {
    pub fn load(path: &Path) -> Result<SchoolRoster, RosterError> {
        let text = std::fs::read_to_string(path).map_err(|source| RosterError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        SchoolRoster::parse(text.trim_start_matches('\u{feff}'), path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<SchoolRoster, RosterError> {
        let invalid = |row: usize, field: &str, message: String| RosterError::Invalid {
            path: path.to_path_buf(),
            row,
            field: field.to_string(),
            message,
        };
        let mut rows = super::csv::parse(text).into_iter();
        let header: Vec<String> = rows
            .next()
            .unwrap_or_default()
            .iter()
            .map(|f| f.trim().to_ascii_lowercase().replace(' ', "_"))
            .collect();
        let mut place = BTreeMap::new();
        for (i, name) in header.iter().enumerate() {
            if !COLUMNS.contains(&name.as_str()) {
                return Err(invalid(
                    1,
                    name,
                    format!("not a roster column (known: {})", COLUMNS.join(", ")),
                ));
            }
            if place.insert(name.as_str(), i).is_some() {
                return Err(invalid(1, name, "given twice".into()));
            }
        }
        let Some(&student_at) = place.get("student") else {
            return Err(invalid(1, "student", "the header must name it".into()));
        };
        let mut people = BTreeMap::new();
        for (r, row) in rows.enumerate() {
            if row.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            let get = |column: &str| {
                place
                    .get(column)
                    .and_then(|&i| row.get(i))
                    .map(|f| f.trim().to_string())
                    .unwrap_or_default()
            };
            let student = row
                .get(student_at)
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            if student.is_empty() {
                return Err(invalid(r + 2, "student", "empty".into()));
            }
            let person = Person {
                name: get("name"),
                email: get("email"),
                id: get("id"),
                lms_id: get("lms_id"),
                login: get("login"),
                section: get("section"),
            };
            if people.insert(student.clone(), person).is_some() {
                return Err(invalid(
                    r + 2,
                    "student",
                    format!("`{student}` is listed twice"),
                ));
            }
        }
        Ok(SchoolRoster { people })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roster_reads_its_columns_in_any_order() {
        let roster = SchoolRoster::parse(
            "Email,Student,ID,LMS ID\nann@school.edu,alice,S1,77\n\"b@x\",\"Doe, Bob\",S2,\n",
            Path::new("roster.csv"),
        )
        .unwrap();
        assert_eq!(roster.people["alice"].email, "ann@school.edu");
        assert_eq!(roster.people["alice"].lms_id, "77");
        assert_eq!(roster.people["Doe, Bob"].id, "S2");
    }

    #[test]
    fn roster_errors_name_the_row_and_field() {
        let error = SchoolRoster::parse("student,mail\nalice,a@x\n", Path::new("r.csv"))
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("r.csv: row 1: field `mail`"), "{error}");
        let error = SchoolRoster::parse("student,id\nalice,1\nalice,2\n", Path::new("r.csv"))
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("r.csv: row 3: field `student`"),
            "{error}"
        );
    }
}
