//! Reading a suite file test by test (issue #19 item 3: `ioco run` streams the suite): the JSON
//! of a [`Suite`] is parsed with one test case in memory at a time, nested suites included,
//! each test handed over with its path name (`w.0/t3`, as the suite runner names it) and the
//! role it runs under. A suite whose header fields come after its tests (not what
//! [`Suite::write_head`] writes) is still read; its tests are then held until the header is
//! complete.

use crate::testcase::{NamedTest, Suite, SuiteRole, TestCase};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::io::Read;

/// A test of a suite file, as it is read.
#[derive(Clone, Debug)]
pub struct StreamedTest {
    /// Its path name: the nested suites' `method.index/` prefixes and its own name.
    pub name: String,
    /// The role it runs under (a test in a distinguishing suite stays distinguishing).
    pub role: SuiteRole,
    /// The test.
    pub test: TestCase,
}

/// What the top-level header of a suite file says.
#[derive(Clone, Debug, Default)]
pub struct SuiteHeader {
    /// The `format` field.
    pub format: String,
    /// The `method` field.
    pub method: String,
    /// The `parameters` field.
    pub parameters: serde_json::Map<String, serde_json::Value>,
    /// The `role` field.
    pub role: SuiteRole,
}

/// Reads the suite JSON of `r`, calling `each` with every test in file order (the order of
/// the suite runner's flattening: a suite's own tests, then its nested suites). `each` returns
/// `false` to stop reading (the rest of the file is then not looked at). Errors are JSON
/// errors with their line and column.
pub fn read_suite<R: Read>(
    r: R,
    each: &mut dyn FnMut(StreamedTest) -> bool,
) -> Result<SuiteHeader, serde_json::Error> {
    let mut de =
        serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(1 << 16, r));
    let mut stopped = false;
    let seed = Level {
        prefix: String::new(),
        outer: SuiteRole::Conformance,
        index: None,
        each,
        stopped: &mut stopped,
    };
    match seed.deserialize(&mut de) {
        Ok(h) => {
            if !stopped {
                de.end()?;
            }
            Ok(h)
        }
        // the callback asked to stop: the rest of the file is not read
        Err(_) if stopped => Ok(SuiteHeader::default()),
        Err(e) => Err(e),
    }
}

/// The `format` field of the JSON object in `r`, read no further than it (every file this
/// tool writes names its format first); `None` when `r` is no JSON object or has no such
/// field. For telling file formats apart without reading a large file whole.
pub fn format_of<R: Read>(r: R) -> Option<String> {
    /// Finds the field and stops the parser there (an error ends it without reading on).
    struct Format<'a>(&'a mut Option<String>);
    impl<'de> Visitor<'de> for Format<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "format" {
                    *self.0 = map.next_value::<String>().ok();
                    return Err(de::Error::custom(STOP));
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let mut found = None;
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::new(r));
    let _ = de::Deserializer::deserialize_map(&mut de, Format(&mut found));
    found
}

/// One suite level being read.
struct Level<'a, 'f> {
    /// The path of the enclosing suites.
    prefix: String,
    /// The role of the enclosing suite.
    outer: SuiteRole,
    /// This suite's index among its parent's nested suites (`None` at the top).
    index: Option<usize>,
    each: &'a mut (dyn FnMut(StreamedTest) -> bool + 'f),
    stopped: &'a mut bool,
}

impl Level<'_, '_> {
    fn role(&self, own: SuiteRole) -> SuiteRole {
        if self.outer == SuiteRole::Distinguishing {
            SuiteRole::Distinguishing
        } else {
            own
        }
    }

    fn path(&self, method: &str) -> String {
        match self.index {
            None => self.prefix.clone(),
            Some(i) => format!("{}{method}.{i}/", self.prefix),
        }
    }
}

const STOP: &str = "stopped by the reader of the suite";

impl<'de> DeserializeSeed<'de> for Level<'_, '_> {
    type Value = SuiteHeader;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<SuiteHeader, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Level<'_, '_> {
    type Value = SuiteHeader;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a test suite (an object with format, method, role, tests, suites)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SuiteHeader, A::Error> {
        let mut h = SuiteHeader::default();
        let (mut format, mut method, mut role, mut tests) = (None, None, None, None);
        // tests read before the header was complete
        let mut held: Vec<NamedTest> = Vec::new();
        let mut nested = 0usize;
        let mut suites_seen = false;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "format" => format = Some(map.next_value::<String>()?),
                "method" => method = Some(map.next_value::<String>()?),
                "parameters" => h.parameters = map.next_value()?,
                "role" => role = Some(map.next_value::<SuiteRole>()?),
                "tests" if tests.is_none() => {
                    let known = method.as_ref().filter(|_| role.is_some());
                    let n = match known {
                        Some(m) => {
                            let prefix = self.path(m);
                            let role = self.role(role.unwrap_or_default());
                            map.next_value_seed(Tests {
                                prefix,
                                role,
                                each: &mut *self.each,
                                stopped: &mut *self.stopped,
                            })?
                        }
                        None => {
                            held = map.next_value()?;
                            held.len()
                        }
                    };
                    tests = Some(n);
                }
                "suites" if !suites_seen => {
                    suites_seen = true;
                    let m = method.clone().ok_or_else(|| {
                        de::Error::custom("`method` must come before the nested `suites`")
                    })?;
                    let r = role.unwrap_or_default();
                    nested = map.next_value_seed(Nested {
                        prefix: self.path(&m),
                        role: self.role(r),
                        each: &mut *self.each,
                        stopped: &mut *self.stopped,
                    })?;
                }
                "tests" | "suites" => return Err(de::Error::duplicate_field("tests")),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let _ = nested;
        h.format = format.ok_or_else(|| de::Error::missing_field("format"))?;
        h.method = method.ok_or_else(|| de::Error::missing_field("method"))?;
        h.role = role.unwrap_or_default();
        if tests.is_none() {
            return Err(de::Error::missing_field("tests"));
        }
        let prefix = self.path(&h.method);
        let role = self.role(h.role);
        for t in held {
            if !(self.each)(StreamedTest {
                name: format!("{prefix}{}", t.name),
                role,
                test: t.test,
            }) {
                *self.stopped = true;
                return Err(de::Error::custom(STOP));
            }
        }
        Ok(h)
    }
}

/// The `tests` array of a suite whose header is known.
struct Tests<'a, 'f> {
    prefix: String,
    role: SuiteRole,
    each: &'a mut (dyn FnMut(StreamedTest) -> bool + 'f),
    stopped: &'a mut bool,
}

impl<'de> DeserializeSeed<'de> for Tests<'_, '_> {
    type Value = usize;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Tests<'_, '_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of named tests")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut n = 0;
        while let Some(t) = seq.next_element::<NamedTest>()? {
            n += 1;
            if !(self.each)(StreamedTest {
                name: format!("{}{}", self.prefix, t.name),
                role: self.role,
                test: t.test,
            }) {
                *self.stopped = true;
                return Err(de::Error::custom(STOP));
            }
        }
        Ok(n)
    }
}

/// The `suites` array: each element a suite level of its own.
struct Nested<'a, 'f> {
    prefix: String,
    role: SuiteRole,
    each: &'a mut (dyn FnMut(StreamedTest) -> bool + 'f),
    stopped: &'a mut bool,
}

impl<'de> DeserializeSeed<'de> for Nested<'_, '_> {
    type Value = usize;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Nested<'_, '_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of nested suites")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut i = 0;
        loop {
            let level = Level {
                prefix: self.prefix.clone(),
                outer: self.role,
                index: Some(i),
                each: &mut *self.each,
                stopped: &mut *self.stopped,
            };
            match seq.next_element_seed(level)? {
                Some(_) => i += 1,
                None => return Ok(i),
            }
        }
    }
}

/// Every test of an in-memory suite as [`read_suite`] hands them over (for tests and for
/// callers that already hold the suite).
pub fn flatten(s: &Suite) -> Vec<StreamedTest> {
    fn go(s: &Suite, prefix: &str, outer: SuiteRole, out: &mut Vec<StreamedTest>) {
        let role = if outer == SuiteRole::Distinguishing {
            outer
        } else {
            s.role
        };
        for t in &s.tests {
            out.push(StreamedTest {
                name: format!("{prefix}{}", t.name),
                role,
                test: t.test.clone(),
            });
        }
        for (i, sub) in s.suites.iter().enumerate() {
            go(sub, &format!("{prefix}{}.{i}/", sub.method), role, out);
        }
    }
    let mut out = Vec::new();
    go(s, "", s.role, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testcase::{NamedTest, Verdict};

    fn t(name: &str, steps: &[&str]) -> NamedTest {
        let steps: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
        NamedTest {
            name: name.into(),
            purpose: None,
            test: TestCase::word(&steps),
        }
    }

    fn suite() -> Suite {
        let mut inner = Suite::new("merge");
        inner.role = SuiteRole::Distinguishing;
        inner.tests.push(t("d0", &["b?", "y!"]));
        let mut deeper = Suite::new("w");
        deeper.tests.push(t("e0", &["a?"]));
        inner.suites.push(deeper);
        let mut s = Suite::new("n-complete");
        s.tests.push(t("t0", &["a?", "x!"]));
        s.tests.push(NamedTest {
            name: "t1".into(),
            purpose: Some("tree".into()),
            test: TestCase::leaf(Verdict::Pass),
        });
        s.suites.push(inner);
        s.suites.push(Suite::new("empty"));
        s
    }

    fn read(text: &str) -> (SuiteHeader, Vec<(String, SuiteRole, TestCase)>) {
        let mut got = Vec::new();
        let h = read_suite(text.as_bytes(), &mut |x| {
            got.push((x.name, x.role, x.test));
            true
        })
        .unwrap();
        (h, got)
    }

    #[test]
    fn streams_every_test_as_the_runner_flattens_them() {
        let s = suite();
        let want: Vec<_> = flatten(&s)
            .into_iter()
            .map(|x| (x.name, x.role, x.test))
            .collect();
        assert_eq!(
            want.iter().map(|w| w.0.as_str()).collect::<Vec<_>>(),
            ["t0", "t1", "merge.0/d0", "merge.0/w.0/e0"]
        );
        // the nested suite inside a distinguishing one stays distinguishing
        assert_eq!(want[3].1, SuiteRole::Distinguishing);
        for text in [
            serde_json::to_string(&s).unwrap(),
            serde_json::to_string_pretty(&s).unwrap(),
        ] {
            let (h, got) = read(&text);
            assert_eq!(got, want);
            assert_eq!(h.method, "n-complete");
            assert_eq!(h.format, Suite::FORMAT);
        }
        // the streaming writer's output reads back the same
        let mut buf = Vec::new();
        s.write_streaming(std::iter::empty(), &mut buf).unwrap();
        assert_eq!(read(std::str::from_utf8(&buf).unwrap()).1, want);
    }

    #[test]
    fn the_format_is_read_without_the_rest() {
        let text = serde_json::to_string(&suite()).unwrap();
        // a truncated file still names its format: nothing after it is read
        assert_eq!(
            format_of(&text.as_bytes()[..40]).as_deref(),
            Some(Suite::FORMAT)
        );
        assert_eq!(
            format_of(r#"{"a":[1,{"b":2}],"format":"x"}"#.as_bytes()).as_deref(),
            Some("x")
        );
        assert_eq!(format_of(r#"{"a":1}"#.as_bytes()), None);
        assert_eq!(format_of("[1]".as_bytes()), None);
        assert_eq!(format_of("not json".as_bytes()), None);
    }

    #[test]
    fn a_header_after_the_tests_is_still_read() {
        let text = r#"{"tests":[{"name":"a","test":{"kind":"word","steps":["a?"]}}],
            "role":"distinguishing","method":"m","format":"ioco-suite/1"}"#;
        let (h, got) = read(text);
        assert_eq!(h.role, SuiteRole::Distinguishing);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1, SuiteRole::Distinguishing);
    }

    #[test]
    fn stopping_reads_no_further_and_errors_have_positions() {
        let text = serde_json::to_string_pretty(&suite()).unwrap();
        let mut n = 0;
        read_suite(text.as_bytes(), &mut |_| {
            n += 1;
            false
        })
        .unwrap();
        assert_eq!(n, 1);
        let e = read_suite(&text.as_bytes()[..text.len() / 2], &mut |_| true).unwrap_err();
        assert!(e.line() > 1, "{e}");
        let e = read_suite(
            r#"{"format":"ioco-suite/1","method":"m"}"#.as_bytes(),
            &mut |_| true,
        )
        .unwrap_err();
        assert!(e.to_string().contains("tests"), "{e}");
    }
}
