//! `cargo run -p ioco-lang --example fmt -- FILE...`: prints the formatted files (what
//! `ioco fmt` does, usable without the CLI).
fn main() {
    for p in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&p).unwrap();
        match ioco_lang::fmt::format_named(&p, &src) {
            Ok(out) => print!("{}", out),
            Err(d) => eprintln!("{}", ioco_lang::render_plain(&d)),
        }
    }
}
