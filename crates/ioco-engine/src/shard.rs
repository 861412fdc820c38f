//! Sharding a session over machines (`--shard K/N`): shard K of N takes the runs (or suite
//! tests) whose index k has k mod N = K − 1, with the seeds they have in the whole session
//! (run k's seed is derived from the master seed and k), so the N shards together run exactly
//! the runs of the unsharded session (with `--keep-going`: without it each shard stops at its
//! own first failure). For a suite, a shard is a session of its own for the fairness rule
//! (`crate::fairness`: evidence counted over the session): a test the system does not follow
//! may take another number of tries, with another seed for its last one, than unsharded.

/// Shard `index` (0-based) of `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based.
    pub index: usize,
    /// How many shards.
    pub count: usize,
}

impl Shard {
    /// `K/N` as written on the command line (1 ≤ K ≤ N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: write K/N with 1 ≤ K ≤ N, e.g. --shard 2/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// Whether this shard takes run (or test) `k`.
    pub fn takes(self, k: usize) -> bool {
        k % self.count == self.index
    }

    /// The indices below `n` this shard takes, in order.
    pub fn indices(self, n: usize) -> Vec<usize> {
        (self.index..n).step_by(self.count).collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// The indices below `n` that `shard` takes (all without one).
pub fn indices(shard: Option<Shard>, n: usize) -> Vec<usize> {
    match shard {
        Some(s) => s.indices(n),
        None => (0..n).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_runs() {
        let n = 10;
        let mut all: Vec<usize> = (1..=3)
            .flat_map(|k| Shard::parse(&format!("{k}/3")).unwrap().indices(n))
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..n).collect::<Vec<_>>());
        assert_eq!(Shard::parse("2/3").unwrap().indices(n), vec![1, 4, 7]);
        assert!(Shard::parse("2/3").unwrap().takes(4));
        assert_eq!(Shard::parse("2/3").unwrap().to_string(), "2/3");
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(Shard::parse(bad).unwrap_err().contains("K/N"), "{bad}");
        }
    }
}
