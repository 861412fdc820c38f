//! The unconditional test suite `U(S, n)` (thesis Def. 2.41–2.43, Cor. 2.44; journal 003
//! Def. 41–43): every *n-bounded* trace (each state reached by at most `n` prefixes, `ε`
//! included) followed by one observation. It is n-complete and finite (traces have length
//! ≤ `|S|·n`, tight: thesis Ex. 2.45) but exponential; [`crate::suite`] uses it as the
//! fallback when the recursion through merges is cut off.

use crate::sa::Sa;

/// Enumerate the n-bounded traces that need a test: those `σ` from which no output step
/// stays n-bounded (the set is prefix-closed, and a test of `σx` observes after `σ`).
/// Chaos states are not extended. Calls `f(σ, S after σ)`; stops (returning `false`) after
/// `limit` calls.
pub fn bounded_words(sa: &Sa, n: usize, limit: u64, f: &mut dyn FnMut(&[u16], u32)) -> bool {
    if n == 0 {
        return true;
    }
    let mut cnt = vec![0usize; sa.n()];
    cnt[sa.initial as usize] = 1;
    let mut word = Vec::new();
    let mut emitted = 0u64;
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        sa: &Sa,
        n: usize,
        q: u32,
        cnt: &mut Vec<usize>,
        word: &mut Vec<u16>,
        emitted: &mut u64,
        limit: u64,
        f: &mut dyn FnMut(&[u16], u32),
    ) -> bool {
        let mut output_extended = false;
        if !sa.chaos[q as usize] {
            for &(mu, t) in sa.enabled(q) {
                if cnt[t as usize] < n {
                    cnt[t as usize] += 1;
                    word.push(mu);
                    let ok = dfs(sa, n, t, cnt, word, emitted, limit, f);
                    word.pop();
                    cnt[t as usize] -= 1;
                    if !ok {
                        return false;
                    }
                    output_extended |= sa.is_out(mu);
                }
            }
        }
        if !output_extended && !sa.chaos[q as usize] {
            *emitted += 1;
            if *emitted > limit {
                return false;
            }
            f(word, q);
        }
        true
    }
    dfs(
        sa,
        n,
        sa.initial,
        &mut cnt,
        &mut word,
        &mut emitted,
        limit,
        f,
    )
}

/// All n-bounded traces of `sa` (for tests and for the tightness example).
pub fn bounded_traces(sa: &Sa, n: usize) -> Vec<Vec<u16>> {
    let mut all = Vec::new();
    let mut cnt = vec![0usize; sa.n()];
    if n == 0 {
        return all;
    }
    cnt[sa.initial as usize] = 1;
    fn dfs(
        sa: &Sa,
        n: usize,
        q: u32,
        cnt: &mut Vec<usize>,
        w: &mut Vec<u16>,
        all: &mut Vec<Vec<u16>>,
    ) {
        all.push(w.clone());
        for &(mu, t) in sa.enabled(q) {
            if cnt[t as usize] < n {
                cnt[t as usize] += 1;
                w.push(mu);
                dfs(sa, n, t, cnt, w, all);
                w.pop();
                cnt[t as usize] -= 1;
            }
        }
    }
    dfs(sa, n, sa.initial, &mut cnt, &mut Vec::new(), &mut all);
    all
}
