//! Fingerprints by winnowing (Schleimer, Wilkerson and Aiken, "Winnowing:
//! Local Algorithms for Document Fingerprinting", SIGMOD 2003): hash every
//! run of `K` consecutive tokens, slide a window over `W` consecutive
//! hashes, and keep each window's smallest hash (the rightmost of equal
//! ones), once per position. Any shared run of at least `W + K - 1`
//! tokens is then certain to share a fingerprint, while the kept hashes
//! are about `2 / (W + 1)` of all of them. A document's fingerprints are
//! compared as a set, so the order of its functions does not matter.

use super::tokens::Token;

/// Tokens per hashed run (the noise threshold: shorter matches are ignored).
pub const K: usize = 10;
/// Hashes per window: a shared run of `W + K - 1` tokens is always found.
pub const W: usize = 6;

/// One kept hash and where its run of tokens starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    pub hash: u64,
    /// The index of the run's first token.
    pub at: usize,
}

/// The hash of each run of `K` tokens, in order.
pub fn kgram_hashes(tokens: &[Token]) -> Vec<u64> {
    if tokens.len() < K {
        return Vec::new();
    }
    tokens
        .windows(K)
        .map(|run| {
            run.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, token| {
                (hash ^ token.kind)
                    .wrapping_mul(0x0000_0100_0000_01b3)
                    .rotate_left(17)
            })
        })
        .collect()
}

/// The winnowed fingerprints of `tokens`. A file shorter than one window
/// but at least one run long keeps its smallest hash.
pub fn fingerprints(tokens: &[Token]) -> Vec<Fingerprint> {
    let hashes = kgram_hashes(tokens);
    let mut kept: Vec<Fingerprint> = Vec::new();
    if hashes.is_empty() {
        return kept;
    }
    let window = W.min(hashes.len());
    for start in 0..=hashes.len() - window {
        let (offset, &hash) = hashes[start..start + window]
            .iter()
            .enumerate()
            .rev()
            .min_by_key(|(_, hash)| **hash)
            .expect("a window is never empty");
        let at = start + offset;
        if kept.last().is_none_or(|last| last.at != at) {
            kept.push(Fingerprint { hash, at });
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(kinds: &[u64]) -> Vec<Token> {
        kinds
            .iter()
            .enumerate()
            .map(|(i, &kind)| Token {
                kind,
                bytes: i..i + 1,
            })
            .collect()
    }

    #[test]
    fn a_shared_run_of_the_guaranteed_length_shares_a_fingerprint() {
        let shared: Vec<u64> = (100..100 + (W + K - 1) as u64).collect();
        let mut a: Vec<u64> = (0..40).collect();
        a.extend(&shared);
        let mut b = shared.clone();
        b.extend(500..560);
        let fa: std::collections::HashSet<u64> =
            fingerprints(&tokens(&a)).iter().map(|f| f.hash).collect();
        let fb: std::collections::HashSet<u64> =
            fingerprints(&tokens(&b)).iter().map(|f| f.hash).collect();
        assert!(fa.intersection(&fb).count() >= 1);
    }

    #[test]
    fn fingerprints_are_fewer_than_runs_and_need_a_full_run() {
        let many: Vec<u64> = (0..1000).map(|i| i * 7919 % 1009).collect();
        let kept = fingerprints(&tokens(&many));
        let runs = many.len() - K + 1;
        assert!(kept.len() < runs / 2, "{} of {runs}", kept.len());
        assert!(kept.windows(2).all(|w| w[0].at < w[1].at));
        assert!(fingerprints(&tokens(&many[..K - 1])).is_empty());
        assert_eq!(fingerprints(&tokens(&many[..K])).len(), 1);
    }
}
