//! TorXakis's text of values (`ioco_lang::txs_text`, and its XML, `txs_xml`): printing then
//! parsing is the identity on random values of random data types, also with blanks between the
//! tokens (as TorXakis's `fromString` accepts them).

use ioco_lang::ir::{AdtDef, CtorDef, Defs, Type, Value};
use ioco_lang::span::Span;
use ioco_lang::txs_text::{from_string, to_string};
use ioco_lang::txs_xml::{from_xml, to_xml};
use proptest::prelude::*;

/// A field type: 0 = Bool, 1 = Int, 2 = a range, 3.. = a data type.
fn field_type(code: u8, ntypes: usize) -> Type {
    match code % (4 + ntypes as u8) {
        0 => Type::Bool,
        1 => Type::Int,
        2 => Type::Range(-5, 5),
        3 => Type::STRING,
        k => Type::Adt((k - 4) as u32),
    }
}

/// Random data types: `shape[t][c]` are the field codes of constructor `c` of type `t`.
/// Constructor 0 of each type has no data-type fields, so every type has finite values.
fn make_defs(shape: &[Vec<Vec<u8>>]) -> Defs {
    let n = shape.len();
    let types = shape
        .iter()
        .enumerate()
        .map(|(t, ctors)| AdtDef {
            name: format!("T{t}"),
            ctors: ctors
                .iter()
                .enumerate()
                .map(|(c, fields)| CtorDef {
                    name: format!("C{t}x{c}"),
                    fields: fields
                        .iter()
                        .enumerate()
                        .map(|(i, code)| {
                            let code = if c == 0 { code % 4 } else { *code };
                            (format!("f{i}"), field_type(code, n))
                        })
                        .collect(),
                })
                .collect(),
            span: Span::default(),
        })
        .collect();
    Defs {
        types,
        functions: vec![],
        ..Defs::default()
    }
}

/// A value of `ty`, drawn from `seed` (a simple LCG), at most `depth` constructors deep.
fn make_value(defs: &Defs, ty: Type, seed: &mut u64, depth: u32) -> Value {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let r = *seed >> 33;
    match ty {
        Type::Bool => Value::Bool(r & 1 == 0),
        Type::Int => Value::Int(match r % 4 {
            0 => i64::MIN,
            1 => i64::MAX,
            _ => (r as i64 % 2001) - 1000,
        }),
        Type::Range(lo, hi) => Value::Int(lo + (r as i64 % (hi - lo + 1))),
        Type::Str(..) => {
            // quotes, backslashes, control characters, non-ASCII (no spaces or punctuation:
            // `spaced` below loosens the text around punctuation)
            const CHARS: [char; 7] = ['a', 'Z', '"', '\\', '\n', '\t', 'é'];
            let len = (r % 6) as usize;
            let mut x = r;
            let s: String = (0..len)
                .map(|_| {
                    x = x.wrapping_mul(31).wrapping_add(7);
                    CHARS[(x % CHARS.len() as u64) as usize]
                })
                .collect();
            Value::Str(s.into())
        }
        Type::Adt(t) => {
            let def = &defs.types[t as usize];
            let c = if depth == 0 {
                0
            } else {
                r as usize % def.ctors.len()
            };
            let fields: Vec<Value> = def.ctors[c]
                .fields
                .iter()
                .map(|(_, fty)| make_value(defs, *fty, seed, depth.saturating_sub(1)))
                .collect();
            Value::Adt(t, c as u32, fields.into())
        }
    }
}

/// The text with blanks after every `(` and `,` and before every `)` and `,`.
fn spaced(text: &str) -> String {
    text.replace('(', "( ")
        .replace(',', " ,  ")
        .replace(')', " )")
}

fn shape() -> impl Strategy<Value = Vec<Vec<Vec<u8>>>> {
    prop::collection::vec(
        prop::collection::vec(prop::collection::vec(0u8..8, 0..4), 1..4),
        1..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn print_then_parse_is_the_identity(shape in shape(), seed in any::<u64>(), depth in 0u32..5) {
        let defs = make_defs(&shape);
        let mut s = seed;
        for t in 0..defs.types.len() {
            let ty = Type::Adt(t as u32);
            let v = make_value(&defs, ty, &mut s, depth);
            let text = to_string(&defs, &v);
            prop_assert!(!text.contains(' '), "{}", text);
            prop_assert_eq!(from_string(&defs, ty, &text), Ok(v.clone()), "{}", text);
            let loose = format!(" ({}) ", spaced(&text));
            prop_assert_eq!(from_string(&defs, ty, &loose), Ok(v.clone()), "{}", loose);
            let xml = to_xml(&defs, &v);
            prop_assert!(!xml.contains('\n'), "{}", xml);
            prop_assert_eq!(from_xml(&defs, ty, &xml), Ok(v), "{}", xml);
        }
        for ty in [Type::Int, Type::Bool] {
            let v = make_value(&defs, ty, &mut s, 0);
            let text = to_string(&defs, &v);
            prop_assert_eq!(from_string(&defs, ty, &text), Ok(v), "{}", text);
        }
    }

    #[test]
    fn parsing_never_panics(shape in shape(), text in "[A-Za-z0-9(), \"\\\\<>/&;#-]{0,40}") {
        let defs = make_defs(&shape);
        for t in 0..defs.types.len() {
            let _ = from_string(&defs, Type::Adt(t as u32), &text);
        }
        let _ = from_string(&defs, Type::Int, &text);
        let _ = from_string(&defs, Type::Bool, &text);
        let _ = from_xml(&defs, Type::Adt(0), &text);
    }
}
