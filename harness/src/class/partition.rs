//! Grading a class in shards: the K-th of N deterministic parts, by a
//! stable hash of student and problem, so any machine computes the same
//! split and the shards together hold every (student, problem) once.

use crate::errors::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Partition {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

impl std::fmt::Display for Partition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

fn usage(message: String) -> Error {
    Error::Usage(message)
}

impl Partition {
    pub(crate) const WHOLE: Partition = Partition { index: 1, count: 1 };

    fn new(index: usize, count: usize, from: &str) -> Result<Partition, Error> {
        if count == 0 || index == 0 || index > count {
            return Err(usage(format!(
                "{from}: partition {index}/{count}: K must be in 1..N"
            )));
        }
        Ok(Partition { index, count })
    }

    /// `K/N` as written on the command line.
    pub(crate) fn parse(text: &str) -> Result<Partition, Error> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((k, n)) => Partition::new(k, n, "--partition"),
            None => Err(usage(format!("--partition {text}: expected K/N, like 2/8"))),
        }
    }

    /// The partition to grade: `--partition K/N` if given, else a
    /// Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` (0-based) with
    /// `--partition-count N`, else a Slurm array's `SLURM_ARRAY_TASK_ID`
    /// (counted from `SLURM_ARRAY_TASK_MIN`) and `SLURM_ARRAY_TASK_COUNT`,
    /// else the whole class. Returns it and where it came from.
    pub(crate) fn resolve(
        given: Option<&str>,
        count: Option<usize>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<(Partition, &'static str), Error> {
        let number = |name: &str| -> Result<Option<usize>, Error> {
            match env(name) {
                None => Ok(None),
                Some(value) => value
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| usage(format!("{name}={value}: not a number"))),
            }
        };
        if let Some(text) = given {
            return Ok((Partition::parse(text)?, "--partition"));
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let Some(count) = count else {
                return Err(usage(
                    "JOB_COMPLETION_INDEX is set: pass --partition-count N (the Job's completions)"
                        .into(),
                ));
            };
            let partition = Partition::new(index + 1, count, "JOB_COMPLETION_INDEX")?;
            return Ok((partition, "JOB_COMPLETION_INDEX"));
        }
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let Some(count) = count.or(number("SLURM_ARRAY_TASK_COUNT")?) else {
                return Err(usage(
                    "SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT: pass --partition-count N"
                        .into(),
                ));
            };
            let index = id.checked_sub(min).map_or(0, |i| i + 1);
            return Ok((
                Partition::new(index, count, "SLURM_ARRAY_TASK_ID")?,
                "SLURM_ARRAY_TASK_ID",
            ));
        }
        if count.is_some() {
            return Err(usage(
                "--partition-count needs JOB_COMPLETION_INDEX or a Slurm array to say which part"
                    .into(),
            ));
        }
        Ok((Partition::WHOLE, "the whole class"))
    }

    /// Whether `(student, item)` falls in this part.
    pub(crate) fn contains(&self, student: &str, item: &str) -> bool {
        if self.count == 1 {
            return true;
        }
        let mut hasher = blake3::Hasher::new();
        hasher.update(student.as_bytes());
        hasher.update(b"\0");
        hasher.update(item.as_bytes());
        let hash = hasher.finalize();
        let bytes: [u8; 8] = hash.as_bytes()[..8].try_into().expect("8 bytes");
        (u64::from_le_bytes(bytes) % self.count as u64) as usize == self.index - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn every_pair_falls_in_exactly_one_part() {
        for count in [1, 2, 3, 7] {
            for student in ["alice", "bob", "carol", "dan"] {
                for problem in ["sum", "guess", "grid-game"] {
                    let owners = (1..=count)
                        .filter(|&index| Partition { index, count }.contains(student, problem))
                        .count();
                    assert_eq!(owners, 1, "{student} {problem} in {count} parts");
                }
            }
        }
    }

    #[test]
    fn the_part_comes_from_the_flag_kubernetes_or_slurm() {
        let none = env(&[]);
        assert_eq!(
            Partition::resolve(Some("2/3"), None, &none).unwrap().0,
            Partition { index: 2, count: 3 }
        );
        assert!(Partition::resolve(Some("4/3"), None, &none).is_err());
        assert!(Partition::resolve(Some("0/3"), None, &none).is_err());
        assert_eq!(
            Partition::resolve(None, None, &none).unwrap().0,
            Partition::WHOLE
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0")]);
        assert_eq!(
            Partition::resolve(None, Some(4), &k8s).unwrap().0,
            Partition { index: 1, count: 4 }
        );
        assert!(Partition::resolve(None, None, &k8s).is_err());
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(
            Partition::resolve(None, None, &slurm).unwrap().0,
            Partition { index: 3, count: 4 }
        );
        let slurm0 = env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(
            Partition::resolve(None, None, &slurm0).unwrap().0,
            Partition { index: 4, count: 4 }
        );
    }
}
