//! The examples of the language reference (docs/language.md) are valid: every ```ioco block that
//! is a complete file (it starts with an item and elides nothing with `...`) parses and formats;
//! those showing `exit`, `>>>` and `@sync` (self-contained) also check.

#[test]
fn complete_examples_of_the_reference_load() {
    let doc = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/language.md"),
    )
    .unwrap();
    let mut blocks = Vec::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        match &mut cur {
            None if line.trim_start() == "```ioco" => cur = Some(String::new()),
            Some(b) if line.trim_start() == "```" => {
                blocks.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    let starts = ["model ", "system ", "type ", "fn ", "@"];
    let mut n = 0;
    let mut checked = 0;
    for b in &blocks {
        let first = b.trim_start();
        if b.contains("...")
            || b.contains("import ")
            || !starts.iter().any(|s| first.starts_with(s))
        {
            continue;
        }
        n += 1;
        let (_, errs) = ioco_lang::parser::parse(0, b);
        assert!(errs.is_empty(), "{}\n{:?}", b, errs);
        ioco_lang::format(b).unwrap();
        if b.contains(">>>") || b.contains("-- exit") || b.contains("@sync(") {
            checked += 1;
            if let Err(d) = ioco_lang::parse_str("doc.ioco", b) {
                panic!("{}\n{}", b, ioco_lang::render_plain(&d));
            }
        }
    }
    assert!(n >= 6, "only {} complete examples", n);
    assert!(checked >= 2, "only {} checked examples", checked);
}
