//! The trace of a run ([`Trace`]): labels as written (`coin?`, `coffee!`, `δ`), stored as
//! indices into a table of texts shared by every trace of a tester.
//!
//! A tester makes the text of each label of its specification once, in a table; a run's trace
//! is the list of label indices it recorded plus a reference to that table. Ending a run copies
//! the index list into its [`crate::RunResult`], each index in as few bytes as the table needs
//! (one for up to 256 texts), with no work per step. A text that is not in
//! the table (an output line the model does not know) is added to a private copy of the table
//! of that one trace.
//!
//! To everybody else a trace is a list of strings: that is its JSON (a list of strings, the
//! format of `ioco test --json` and the input of `ioco replay`), its `Debug` output, and what
//! equality compares (two traces with different tables but the same texts are equal).
//!
//! ```
//! use ioco_engine::Trace;
//!
//! let t: Trace = ["coin?", "coffee!", "δ"].into_iter().collect();
//! assert_eq!(t.len(), 3);
//! assert_eq!(&t[1], "coffee!");
//! assert_eq!(t.last(), Some("δ"));
//! assert_eq!(t, ["coin?", "coffee!", "δ"]);
//! let inputs: Vec<&str> = t.iter().filter(|l| l.ends_with('?')).collect();
//! assert_eq!(inputs, ["coin?"]);
//! assert_eq!(serde_json::to_string(&t).unwrap(), r#"["coin?","coffee!","δ"]"#);
//! let back: Trace = serde_json::from_str(r#"["coin?","coffee!","δ"]"#).unwrap();
//! assert_eq!(back, t);
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, LazyLock};

/// A table of label texts, shared by the traces that index into it.
pub type Names = Arc<Vec<Arc<str>>>;

static NO_NAMES: LazyLock<Names> = LazyLock::new(Names::default);

/// The trace of a run: labels as written (`coin?`, `coffee!`, `δ`), in order.
///
/// Stored as indices into a shared table of texts (see the [module documentation](self));
/// read it like a list of strings: [`Trace::iter`], indexing, [`Trace::last`], `for l in
/// &trace`. Build one with [`FromIterator`] (`["a?", "x!"].into_iter().collect()`) or
/// [`Trace::push`].
#[derive(Clone)]
pub struct Trace {
    /// Indices into `names`.
    labels: Labels,
    names: Names,
}

/// The indices of a trace, each in as few bytes as the table's size needs: one byte for a
/// table of at most 256 texts (almost every model), two for 65 536, else four. A run keeps
/// its trace (`--traces all`, the default) in new memory: the narrower, the fewer pages the
/// system has to give (issue #30 item 4: the kept traces were a tenth of the in-process time).
#[derive(Clone)]
enum Labels {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Labels {
    /// `indices` in the narrowest width that holds every index below `table`.
    fn narrow(indices: &[u32], table: usize) -> Labels {
        if table <= 1 << 8 {
            Labels::U8(indices.iter().map(|&l| l as u8).collect())
        } else if table <= 1 << 16 {
            Labels::U16(indices.iter().map(|&l| l as u16).collect())
        } else {
            Labels::U32(indices.to_vec())
        }
    }

    #[inline]
    fn len(&self) -> usize {
        match self {
            Labels::U8(v) => v.len(),
            Labels::U16(v) => v.len(),
            Labels::U32(v) => v.len(),
        }
    }

    #[inline]
    fn at(&self, i: usize) -> u32 {
        match self {
            Labels::U8(v) => v[i] as u32,
            Labels::U16(v) => v[i] as u32,
            Labels::U32(v) => v[i],
        }
    }

    /// Append `l`, widening first where it does not fit.
    fn push(&mut self, l: u32) {
        let fits = match self {
            Labels::U8(_) => l < 1 << 8,
            Labels::U16(_) => l < 1 << 16,
            Labels::U32(_) => true,
        };
        if !fits {
            let all: Vec<u32> = (0..self.len()).map(|i| self.at(i)).collect();
            *self = if l < 1 << 16 {
                Labels::U16(all.into_iter().map(|x| x as u16).collect())
            } else {
                Labels::U32(all)
            };
        }
        match self {
            Labels::U8(v) => v.push(l as u8),
            Labels::U16(v) => v.push(l as u16),
            Labels::U32(v) => v.push(l),
        }
    }
}

impl Trace {
    /// An empty trace.
    pub fn new() -> Trace {
        Trace {
            labels: Labels::U8(Vec::new()),
            names: NO_NAMES.clone(),
        }
    }

    /// A trace of `labels`, indices into `names` (every index must be in range).
    pub fn from_parts(labels: Vec<u32>, names: Names) -> Trace {
        Trace::from_indices(&labels, names)
    }

    /// A trace of a copy of `labels`, indices into `names` (every index must be in range),
    /// stored in as few bytes per step as the table's size needs.
    pub fn from_indices(labels: &[u32], names: Names) -> Trace {
        debug_assert!(labels.iter().all(|&l| (l as usize) < names.len()));
        Trace {
            labels: Labels::narrow(labels, names.len()),
            names,
        }
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True for the empty trace.
    pub fn is_empty(&self) -> bool {
        self.labels.len() == 0
    }

    /// The `i`-th label, if there is one.
    pub fn get(&self, i: usize) -> Option<&str> {
        (i < self.len()).then(|| &*self.names[self.labels.at(i) as usize])
    }

    /// The last label, if any.
    pub fn last(&self) -> Option<&str> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The labels, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            labels: &self.labels,
            front: 0,
            back: self.labels.len(),
            names: &self.names,
        }
    }

    /// The labels as shared strings, in order.
    pub fn shared(&self) -> impl Iterator<Item = &Arc<str>> + '_ {
        (0..self.len()).map(|i| &self.names[self.labels.at(i) as usize])
    }

    /// Append `label` (a new entry of this trace's table, which is copied first if it is
    /// shared with other traces).
    pub fn push(&mut self, label: impl Into<Arc<str>>) {
        let names = Arc::make_mut(&mut self.names);
        let at = u32::try_from(names.len()).expect("fewer than 2^32 labels");
        names.push(label.into());
        self.labels.push(at);
    }

    /// The labels joined by `sep` (e.g. `" "` for messages).
    pub fn join(&self, sep: &str) -> String {
        let mut s = String::new();
        for (i, l) in self.iter().enumerate() {
            if i > 0 {
                s.push_str(sep);
            }
            s.push_str(l);
        }
        s
    }

    /// The labels as owned strings.
    pub fn to_strings(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

impl Default for Trace {
    fn default() -> Trace {
        Trace::new()
    }
}

/// Iterator over the labels of a [`Trace`], as `&str`.
#[derive(Clone)]
pub struct Iter<'a> {
    labels: &'a Labels,
    /// The next index from the front, and one past the next from the back.
    front: usize,
    back: usize,
    names: &'a [Arc<str>],
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.front == self.back {
            return None;
        }
        let l = self.labels.at(self.front);
        self.front += 1;
        Some(&*self.names[l as usize])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        Some(&*self.names[self.labels.at(self.back) as usize])
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Trace {
    type Item = &'a str;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl std::ops::Index<usize> for Trace {
    type Output = str;

    fn index(&self, i: usize) -> &str {
        &self.names[self.labels.at(i) as usize]
    }
}

/// Interns the texts: equal texts share one table entry.
impl<S: AsRef<str>> FromIterator<S> for Trace {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Trace {
        let mut index: HashMap<Arc<str>, u32> = HashMap::new();
        let mut names = Vec::new();
        let labels: Vec<u32> = iter
            .into_iter()
            .map(|s| {
                let s = s.as_ref();
                if let Some(&i) = index.get(s) {
                    return i;
                }
                let i = u32::try_from(names.len()).expect("fewer than 2^32 labels");
                let text: Arc<str> = s.into();
                names.push(text.clone());
                index.insert(text, i);
                i
            })
            .collect();
        Trace {
            labels: Labels::narrow(&labels, names.len()),
            names: Arc::new(names),
        }
    }
}

impl PartialEq for Trace {
    fn eq(&self, other: &Trace) -> bool {
        if Arc::ptr_eq(&self.names, &other.names) {
            let n = self.len();
            return n == other.len() && (0..n).all(|i| self.labels.at(i) == other.labels.at(i));
        }
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Trace {}

impl<S: AsRef<str>> PartialEq<[S]> for Trace {
    fn eq(&self, other: &[S]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().map(AsRef::as_ref))
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for Trace {
    fn eq(&self, other: &[S; N]) -> bool {
        *self == other[..]
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for Trace {
    fn eq(&self, other: &Vec<S>) -> bool {
        *self == other[..]
    }
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Trace {
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        s.collect_seq(self.iter())
    }
}

/// In JSON a trace is its labels as written: `["coin?", "coffee!", "δ"]`.
impl schemars::JsonSchema for Trace {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Trace".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        Vec::<String>::json_schema(generator)
    }
}

impl<'de> Deserialize<'de> for Trace {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Trace, D::Error> {
        Ok(Vec::<String>::deserialize(d)?.into_iter().collect())
    }
}

/// Splits a multi-label at its top-level `|` (outside parentheses and double-quoted strings),
/// blanks trimmed: `A(1)|B("x|y")` → [`A(1)`, `B("x|y")`]; `A 1 | B 2` → [`A 1`, `B 2`]; a
/// single gate is one part.
pub fn split_multi(text: &str) -> Vec<&str> {
    split_top(text, '|')
}

/// `text` split at `sep` outside parentheses and double-quoted strings (a backslash escapes
/// inside a string), blanks trimmed.
///
/// For the label syntax (arguments at `,`, multi-labels at `|`): every separator splits, so an
/// empty part stays (`a,,b` → `a`, ``, `b`) and a missing argument is not silently dropped.
/// A wire line's words are split by `ioco_sut::wire::split_words` instead, at runs of blanks,
/// with no empty words and no grouping by parentheses (its doc says why).
pub fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let (mut in_str, mut escaped) = (false, false);
    for (i, c) in text.char_indices() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// `a,B(1,2),c` → [`a`, `B(1,2)`, `c`]: split at the top-level commas (not inside
/// parentheses or double-quoted strings), blanks trimmed.
pub fn split_args(inner: &str) -> Vec<&str> {
    split_top(inner, ',')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table as a tester makes it, and a trace over it.
    fn tester_like() -> (Names, Trace) {
        let names: Names = Arc::new(["τ", "δ", "coin?", "coffee!"].map(Arc::from).to_vec());
        let t = Trace::from_parts(vec![2, 3, 1, 2], names.clone());
        (names, t)
    }

    #[test]
    fn json_is_a_list_of_strings_both_ways() {
        let (_, t) = tester_like();
        let old: Vec<Arc<str>> = ["coin?", "coffee!", "δ", "coin?"].map(Arc::from).to_vec();
        let j = serde_json::to_string(&t).unwrap();
        assert_eq!(j, serde_json::to_string(&old).unwrap());
        assert_eq!(j, r#"["coin?","coffee!","δ","coin?"]"#);
        let back: Trace = serde_json::from_str(&j).unwrap();
        assert_eq!(back, t);
        // Interned afresh: one entry per distinct text.
        assert_eq!(back.names.len(), 3);
        let empty: Trace = serde_json::from_str("[]").unwrap();
        assert!(empty.is_empty());
        assert_eq!(serde_json::to_string(&Trace::new()).unwrap(), "[]");
        assert!(serde_json::from_str::<Trace>(r#"["a?", 3]"#).is_err());
    }

    #[test]
    fn equality_compares_texts_across_tables() {
        let (names, t) = tester_like();
        let same: Trace = ["coin?", "coffee!", "δ", "coin?"].into_iter().collect();
        assert!(!Arc::ptr_eq(&same.names, &names));
        assert_eq!(t, same);
        assert_eq!(same, t);
        let shorter = Trace::from_parts(vec![2, 3, 1], names.clone());
        assert_ne!(t, shorter);
        let other = Trace::from_parts(vec![2, 3, 1, 3], names);
        assert_ne!(t, other);
        assert_eq!(t, ["coin?", "coffee!", "δ", "coin?"]);
        assert_eq!(t, vec!["coin?", "coffee!", "δ", "coin?"]);
        assert_eq!(
            t,
            vec![
                String::from("coin?"),
                "coffee!".into(),
                "δ".into(),
                "coin?".into()
            ]
        );
        assert_ne!(t, ["coin?"]);
    }

    #[test]
    fn a_pushed_text_goes_to_a_copy_of_a_shared_table() {
        let (names, mut t) = tester_like();
        let kept = t.clone();
        t.push(String::from("garbage!"));
        assert_eq!(t.len(), 5);
        assert_eq!(t.last(), Some("garbage!"));
        assert_eq!(&t[4], "garbage!");
        // The shared table and the other trace are untouched.
        assert_eq!(names.len(), 4);
        assert!(Arc::ptr_eq(&kept.names, &names));
        assert_eq!(kept, ["coin?", "coffee!", "δ", "coin?"]);
        // A table owned by one trace grows in place.
        let before = Arc::as_ptr(&t.names);
        t.push("δ");
        assert_eq!(Arc::as_ptr(&t.names), before);
        assert_eq!(t.join(" "), "coin? coffee! δ coin? garbage! δ");
    }

    #[test]
    fn reading_and_collecting() {
        let t: Trace = vec![String::from("a?"), "x!".into(), "a?".into()]
            .into_iter()
            .collect();
        assert_eq!(t.names.len(), 2, "equal texts share an entry");
        assert_eq!(t.get(1), Some("x!"));
        assert_eq!(t.get(3), None);
        assert_eq!(t.iter().rev().collect::<Vec<_>>(), ["a?", "x!", "a?"]);
        assert_eq!(t.iter().len(), 3);
        let mut seen = Vec::new();
        for l in &t {
            seen.push(l);
        }
        assert_eq!(seen, ["a?", "x!", "a?"]);
        assert_eq!(t.to_strings(), ["a?", "x!", "a?"]);
        assert_eq!(format!("{t:?}"), r#"["a?", "x!", "a?"]"#);
        assert_eq!(Trace::default().last(), None);
        assert_eq!(Trace::new().join(" "), "");
        let shared: Vec<&Arc<str>> = t.shared().collect();
        assert!(Arc::ptr_eq(shared[0], shared[2]));
    }

    #[test]
    fn indices_take_the_width_the_table_needs_and_widen_on_a_push() {
        let table =
            |n: usize| -> Names { Arc::new((0..n).map(|i| Arc::from(format!("l{i}"))).collect()) };
        let small = Trace::from_indices(&[0, 255, 7], table(256));
        assert!(matches!(small.labels, Labels::U8(_)));
        assert_eq!(small, ["l0", "l255", "l7"]);
        let mid = Trace::from_indices(&[256, 3, 65_535], table(65_536));
        assert!(matches!(mid.labels, Labels::U16(_)));
        assert_eq!(mid, ["l256", "l3", "l65535"]);
        let wide = Trace::from_indices(&[65_536, 1], table(65_537));
        assert!(matches!(wide.labels, Labels::U32(_)));
        assert_eq!(wide, ["l65536", "l1"]);
        // a trace over a full one-byte table whose push needs a 257th entry widens first
        let mut t = Trace::from_indices(&[255, 0, 9], table(256));
        let same_table = t.clone();
        t.push("garbage!");
        assert!(matches!(t.labels, Labels::U16(_)));
        assert_eq!(t, ["l255", "l0", "l9", "garbage!"]);
        assert_eq!(t.iter().next_back(), Some("garbage!"));
        assert_eq!(same_table, ["l255", "l0", "l9"]);
        // equal over the same table whatever the widths
        let a = Trace::from_indices(&[1, 2], table(300));
        let mut b = Trace::from_indices(&[1], a.names.clone());
        b.labels = Labels::U32(vec![1, 2]);
        assert_eq!(a, b);
    }
}
