//! The glob patterns of `submissions.yaml`: `*` matches within one path
//! component, `{a,b}` expands (spaces around an alternative ignored), `**` and `[...]` are not supported. A path
//! is matched when it or one of its parent folders is (so `accepted`
//! matches `accepted/x.py`, and `secret` matches `secret/g1/01`).

/// Why a pattern cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GlobError {
    #[error("`**` is not supported in submissions.yaml globs")]
    DoubleStar,
    #[error("`[...]` is not supported in submissions.yaml globs")]
    Brackets,
    #[error("unbalanced braces")]
    UnbalancedBraces,
}

pub(crate) fn check_glob(pattern: &str) -> Result<(), GlobError> {
    if pattern.contains("**") {
        return Err(GlobError::DoubleStar);
    }
    if pattern.contains('[') {
        return Err(GlobError::Brackets);
    }
    if pattern.matches('{').count() != pattern.matches('}').count() {
        return Err(GlobError::UnbalancedBraces);
    }
    Ok(())
}

/// Whether `pattern` matches `path` or one of its parent folders.
pub(crate) fn glob_matches(pattern: &str, path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    expand_braces(pattern).iter().any(|alternative| {
        let wanted: Vec<&str> = alternative.split('/').collect();
        wanted.len() <= parts.len()
            && wanted
                .iter()
                .zip(&parts)
                .all(|(p, c)| component_matches(p.as_bytes(), c.as_bytes()))
    })
}

/// `{a,b}x{c,d}` → `axc`, `axd`, `bxc`, `bxd` (nesting allowed).
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_string()];
    };
    let mut depth = 0;
    let mut close = None;
    let mut commas = Vec::new();
    for (i, c) in pattern[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(open + i),
            _ => {}
        }
    }
    let Some(close) = close else {
        return vec![pattern.to_string()];
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let mut bounds = vec![open];
    bounds.extend(&commas);
    bounds.push(close);
    bounds
        .windows(2)
        // Spaces around an alternative are not part of it (`{ 4 }`), as
        // BAPCtools reads them.
        .flat_map(|w| expand_braces(&format!("{head}{}{tail}", pattern[w[0] + 1..w[1]].trim())))
        .collect()
}

/// `*` matches any run of characters (within one component).
fn component_matches(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|skip| component_matches(rest, &text[skip..])),
        Some((c, rest)) => text.first() == Some(c) && component_matches(rest, &text[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_stays_in_one_component_and_parents_match() {
        assert!(glob_matches("accepted", "accepted/sol.py"));
        assert!(glob_matches("accepted/*", "accepted/sol.py"));
        assert!(glob_matches("*/sol.py", "accepted/sol.py"));
        assert!(glob_matches("*", "accepted/sol.py"));
        assert!(glob_matches("secret/*-hard", "secret/03-hard"));
        assert!(glob_matches("secret/group1", "secret/group1/01-bachet"));
        assert!(!glob_matches("secret/group1", "secret/group10/01"));
        assert!(!glob_matches("accepted/sol.py", "accepted"));
        assert!(!glob_matches("sample/*", "secret/1"));
    }

    #[test]
    fn braces_expand() {
        assert!(glob_matches(
            "accepted/author.{py,cpp}",
            "accepted/author.cpp"
        ));
        assert!(glob_matches(
            "{wrong_answer,run_time_error}/x.c",
            "run_time_error/x.c"
        ));
        assert!(glob_matches("a/{b,{c,d}}", "a/d"));
        assert!(glob_matches("secret/*{ 4 }{ 2, 3 }", "secret/142"));
        assert!(!glob_matches(
            "accepted/author.{py,cpp}",
            "accepted/author.c"
        ));
    }

    #[test]
    fn unsupported_patterns_are_refused() {
        assert!(check_glob("accepted/**").is_err());
        assert!(check_glob("accepted/[ab].py").is_err());
        assert!(check_glob("accepted/{a,b").is_err());
        assert!(check_glob("accepted/{a,b}*").is_ok());
    }
}
