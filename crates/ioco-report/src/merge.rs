//! Merging the results of a session's shards (`ioco test --shard K/N` on N machines) into the
//! results of one session: the runs of every shard in run order, the verdict of them all.
//!
//! Shards must be of one session: the same mode and master seed (run k's seed is derived from
//! them, so the same run index means the same run), and no run in two of them. Coverage
//! numbers cannot be added up (two shards may visit the same states): the merged summary has
//! the largest of the shards', a lower bound, and says so; the HTML report recounts coverage
//! over all runs from the model.

use ioco_engine::result::{CoverageSummary, Summary};

/// Merge `parts` (named by `names`, for messages) into one summary.
pub fn merge(parts: Vec<Summary>, names: &[String]) -> Result<Summary, String> {
    // the first run found in a part that an earlier part (or the same one) has
    let mut twice = None;
    let mut from: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    'parts: for (i, p) in parts.iter().enumerate() {
        for r in &p.runs {
            if let Some(j) = from.insert(r.run, i) {
                twice = Some((r.run, j, i));
                break 'parts;
            }
        }
    }
    merge_checked(parts, names, twice)
}

/// [`merge`] of parts that hold only some of their runs (read by [`crate::read::load`]
/// without the passing ones, counted in their `omitted`): `runs[i]` are the indices of every
/// run of part `i`, ascending. The same checks, messages and summary as [`merge`] of the
/// parts with all their runs; the runs left out are the ones the parts left out.
pub fn merge_sorted(
    parts: Vec<Summary>,
    names: &[String],
    runs: &[Vec<usize>],
) -> Result<Summary, String> {
    // part i's runs are distinct: the first of them an earlier part has, in run order
    let twice = runs.iter().enumerate().find_map(|(i, mine)| {
        mine.iter().find_map(|&k| {
            runs[..i]
                .iter()
                .position(|earlier| earlier.binary_search(&k).is_ok())
                .map(|j| (k, j, i))
        })
    });
    merge_checked(parts, names, twice)
}

/// [`merge`] once the first run in two parts is known: `(run, earlier part, part)`.
fn merge_checked(
    parts: Vec<Summary>,
    names: &[String],
    twice: Option<(usize, usize, usize)>,
) -> Result<Summary, String> {
    let Some(first) = parts.first() else {
        return Err("no results to merge".into());
    };
    let (mode, seed) = (first.mode.clone(), first.seed);
    let name = |i: usize| {
        names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("part {}", i + 1))
    };
    for (i, p) in parts.iter().enumerate() {
        if p.mode != mode || p.seed != seed {
            return Err(format!(
                "{} is of another session ({} testing, seed {}) than {} ({mode} testing, seed \
                 {seed}): only the shards of one session (same command, same --seed) merge",
                name(i),
                p.mode,
                p.seed,
                name(0)
            ));
        }
    }
    let mut parameters = first.parameters.clone();
    parameters.remove("shard");
    // the shards of one session share the options of the system (`--shard` is not one)
    let replay_options = first.replay_options.clone();
    let shards: Vec<String> = parts
        .iter()
        .filter_map(|p| {
            p.parameters
                .get("shard")
                .and_then(|s| s.as_str())
                .map(String::from)
        })
        .collect();
    let mut coverage = CoverageSummary::default();
    let mut duration: f64 = 0.0;
    let mut runs = Vec::new();
    let mut omitted = ioco_engine::result::Omitted::default();
    if let Some((run, j, i)) = twice {
        return Err(format!(
            "run {run} is in {} and in {}: merge the results of different shards",
            name(j),
            name(i)
        ));
    }
    for p in parts {
        let c = &p.coverage;
        coverage.states_total = coverage.states_total.max(c.states_total);
        coverage.states_visited = coverage.states_visited.max(c.states_visited);
        coverage.transitions_total = coverage.transitions_total.max(c.transitions_total);
        coverage.transitions_visited = coverage.transitions_visited.max(c.transitions_visited);
        coverage.suspension_states = coverage.suspension_states.max(c.suspension_states);
        duration = duration.max(p.duration_ms);
        if p.parameters.get("interrupted").is_some_and(|v| v == true) {
            parameters.insert("interrupted".into(), true.into());
        }
        omitted.runs += p.omitted.runs;
        omitted.steps += p.omitted.steps;
        omitted.quiescence.add(p.omitted.quiescence);
        runs.extend(p.runs);
    }
    runs.sort_by_key(|r| r.run);
    let mut s = Summary::new(mode, seed, runs);
    s.coverage = coverage;
    s.omitted = omitted;
    s.duration_ms = duration;
    s.parameters = parameters;
    s.replay_options = replay_options;
    s.parameters.insert(
        "merged".into(),
        format!("{} result files", names.len().max(1)).into(),
    );
    if !shards.is_empty() {
        s.parameters
            .insert("shards".into(), shards.join(", ").into());
    }
    // the coverage is the largest of the parts: the reports say so (`coverage_scope`)
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ioco_engine::result::{RunResult, RunVerdict};

    fn part(seed: u64, runs: &[usize], fail: Option<usize>) -> Summary {
        let rs = runs
            .iter()
            .map(|&k| {
                let mut r = RunResult::new(k, k as u64 * 11);
                if fail == Some(k) {
                    r.verdict = RunVerdict::Fail;
                }
                r
            })
            .collect();
        Summary::new("online", seed, rs)
    }

    #[test]
    fn shards_merge_into_one_session() {
        let names = vec!["a.json".to_string(), "b.json".to_string()];
        let m = merge(
            vec![part(7, &[0, 2], None), part(7, &[1, 3], Some(3))],
            &names,
        )
        .unwrap();
        assert_eq!(
            m.runs.iter().map(|r| r.run).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        assert_eq!(m.verdict, RunVerdict::Fail);
        let e = merge(vec![part(7, &[0], None), part(8, &[1], None)], &names).unwrap_err();
        assert!(e.contains("b.json is of another session"), "{e}");
        let e = merge(vec![part(7, &[0, 1], None), part(7, &[1], None)], &names).unwrap_err();
        assert!(e.contains("run 1 is in a.json and in b.json"), "{e}");
    }
}
