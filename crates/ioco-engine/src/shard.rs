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

    /// `--shard auto`: the shard a CI job is, from the variables its CI system sets (`var`
    /// looks one up, e.g. `|k| std::env::var(k).ok()`), with where it came from. In order:
    ///
    /// | variables | CI system | index |
    /// |---|---|---|
    /// | `IOCO_SHARD_INDEX`, `IOCO_SHARD_TOTAL` | any (GitHub Actions: from the matrix) | 1-based (K of `--shard K/N`) |
    /// | `CI_NODE_INDEX`, `CI_NODE_TOTAL` | GitLab CI (`parallel: N`) | 1-based |
    /// | `BUILDKITE_PARALLEL_JOB`, `BUILDKITE_PARALLEL_JOB_COUNT` | Buildkite (`parallelism: N`) | 0-based |
    /// | `CIRCLE_NODE_INDEX`, `CIRCLE_NODE_TOTAL` | CircleCI (`parallelism: N`) | 0-based |
    /// | `JOB_COMPLETION_INDEX`, `IOCO_SHARD_TOTAL` | Kubernetes indexed Job (the count given by hand, `completions`) | 0-based |
    pub fn from_ci(var: impl Fn(&str) -> Option<String>) -> Result<(Shard, &'static str), String> {
        // (index variable, total variable, whether the index is 1-based, the system)
        const SOURCES: [(&str, &str, bool, &str); 5] = [
            (
                "IOCO_SHARD_INDEX",
                "IOCO_SHARD_TOTAL",
                true,
                "IOCO_SHARD_INDEX/IOCO_SHARD_TOTAL",
            ),
            (
                "CI_NODE_INDEX",
                "CI_NODE_TOTAL",
                true,
                "GitLab CI (CI_NODE_INDEX/CI_NODE_TOTAL)",
            ),
            (
                "BUILDKITE_PARALLEL_JOB",
                "BUILDKITE_PARALLEL_JOB_COUNT",
                false,
                "Buildkite (BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT)",
            ),
            (
                "CIRCLE_NODE_INDEX",
                "CIRCLE_NODE_TOTAL",
                false,
                "CircleCI (CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL)",
            ),
            (
                "JOB_COMPLETION_INDEX",
                "IOCO_SHARD_TOTAL",
                false,
                "a Kubernetes indexed Job (JOB_COMPLETION_INDEX/IOCO_SHARD_TOTAL)",
            ),
        ];
        let value = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let number = |name: &str, text: &str| {
            text.trim()
                .parse::<usize>()
                .map_err(|_| format!("--shard auto: {name}={text:?} is not a whole number"))
        };
        for (index_var, total_var, one_based, from) in SOURCES {
            let Some(index) = value(index_var) else {
                continue;
            };
            let Some(total) = value(total_var) else {
                return Err(format!(
                    "--shard auto: {index_var} is set but {total_var} is not (hint: set \
                     {total_var} to the number of shards)"
                ));
            };
            let (index, total) = (number(index_var, &index)?, number(total_var, &total)?);
            let k = if one_based { index } else { index + 1 };
            if total == 0 || k == 0 || k > total {
                return Err(format!(
                    "--shard auto: {index_var}={index} and {total_var}={total} do not name a shard \
                     ({} index, at most the total)",
                    if one_based { "a 1-based" } else { "a 0-based" }
                ));
            }
            return Ok((
                Shard {
                    index: k - 1,
                    count: total,
                },
                from,
            ));
        }
        Err(
            "--shard auto: no CI variables name this job's shard: set IOCO_SHARD_INDEX (1..N) and \
             IOCO_SHARD_TOTAL (N), or run in GitLab CI with `parallel`, Buildkite or CircleCI \
             with `parallelism`, or a Kubernetes indexed Job with IOCO_SHARD_TOTAL; or write \
             --shard K/N"
                .into(),
        )
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

    fn ci(vars: &[(&str, &str)]) -> Result<(Shard, &'static str), String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Shard::from_ci(|name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
    }

    #[test]
    fn the_shard_of_a_ci_job_comes_from_its_variables() {
        let shard = |v: &[(&str, &str)]| ci(v).map(|(s, _)| s.to_string());
        assert_eq!(
            shard(&[("IOCO_SHARD_INDEX", "2"), ("IOCO_SHARD_TOTAL", "4")]).unwrap(),
            "2/4"
        );
        assert_eq!(
            shard(&[("CI_NODE_INDEX", "1"), ("CI_NODE_TOTAL", "3")]).unwrap(),
            "1/3"
        );
        let bk = [
            ("BUILDKITE_PARALLEL_JOB", "0"),
            ("BUILDKITE_PARALLEL_JOB_COUNT", "5"),
        ];
        assert_eq!(shard(&bk).unwrap(), "1/5");
        assert_eq!(
            shard(&[("CIRCLE_NODE_INDEX", "2"), ("CIRCLE_NODE_TOTAL", "3")]).unwrap(),
            "3/3"
        );
        let k8s = [("JOB_COMPLETION_INDEX", "3"), ("IOCO_SHARD_TOTAL", "4")];
        assert_eq!(shard(&k8s).unwrap(), "4/4");
        assert!(ci(&k8s).unwrap().1.contains("Kubernetes"));
        // the explicit variables win over a CI system's
        let both = [
            ("IOCO_SHARD_INDEX", "1"),
            ("IOCO_SHARD_TOTAL", "2"),
            ("CI_NODE_INDEX", "3"),
            ("CI_NODE_TOTAL", "3"),
        ];
        assert_eq!(shard(&both).unwrap(), "1/2");
        // what is wrong is said
        assert!(shard(&[]).unwrap_err().contains("IOCO_SHARD_INDEX"));
        assert!(shard(&[("CI_NODE_INDEX", "1")])
            .unwrap_err()
            .contains("CI_NODE_TOTAL is not"));
        assert!(shard(&[("CI_NODE_INDEX", "0"), ("CI_NODE_TOTAL", "2")])
            .unwrap_err()
            .contains("1-based"));
        let past = [
            ("BUILDKITE_PARALLEL_JOB", "5"),
            ("BUILDKITE_PARALLEL_JOB_COUNT", "5"),
        ];
        assert!(shard(&past).unwrap_err().contains("0-based"));
        assert!(shard(&[("CI_NODE_INDEX", "x"), ("CI_NODE_TOTAL", "2")])
            .unwrap_err()
            .contains("not a whole number"));
    }
}
