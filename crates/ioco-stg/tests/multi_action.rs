//! Multi-actions (`a? | b?`, `@sync`) are outside the product of seed 004 (one gate per
//! switch): a specification or purpose with one is rejected with its location and a hint.

use ioco_stg::{Product, ProductError};

fn model(src: &str) -> ioco_lang::Model {
    ioco_lang::parse_str("m.ioco", src)
        .unwrap_or_else(|d| panic!("{}", ioco_lang::render_plain(&d)))
}

fn rejected(r: Result<Product, ProductError>) -> ProductError {
    match r {
        Ok(_) => panic!("accepted"),
        Err(e) => e,
    }
}

/// A specification (`multi`: its first switch a multi-action) or, with `to = "accept"`, a
/// purpose.
fn src(multi: bool, to: &str) -> String {
    let first = if multi { "a? | b?" } else { "a?" };
    format!("model P {{\n  input a, b\n  output c\n  init s\n  s -- {first} --> t\n  t -- c! --> {to}\n}}\n")
}

#[test]
fn a_multi_action_in_the_specification_or_purpose_is_rejected() {
    let (spec, purpose) = (model(&src(false, "s")), model(&src(false, "accept")));
    if let Err(e) = Product::new(&spec, &purpose) {
        panic!("{e}");
    }
    let (mspec, mpurpose) = (model(&src(true, "s")), model(&src(true, "accept")));
    for (s, p, what) in [
        (&mspec, &purpose, "specification"),
        (&spec, &mpurpose, "test purpose"),
    ] {
        let e = rejected(Product::new(s, p));
        assert!(e.message.starts_with("m.ioco:5:3: "), "{}", e);
        assert!(
            e.message
                .contains(&format!("the {what} `P` has a multi-action")),
            "{}",
            e
        );
        assert!(e.hint.contains("consecutive switches"), "{}", e);
    }
}

#[test]
fn a_sync_declaration_is_rejected() {
    let sync = model(&format!("@sync(a | b)\n{}", src(true, "s")));
    let e = rejected(Product::new(&sync, &model(&src(false, "accept"))));
    assert!(e.message.contains("`@sync` multi-actions"), "{}", e);
    assert!(e.hint.contains("explicit engine"), "{}", e);
}
