//! Generates the trampolines of `ioco-z3-lazy` (see `src/lib.rs`): one per function that the
//! system's `libz3.so` exports, read from the library's dynamic symbol table, and the
//! library's `SONAME` to `dlopen` at run time.
//!
//! Only on x86_64 Linux (GNU), and not with `IOCO_Z3_EAGER=1`. Anywhere else, or when the
//! library cannot be read here, this script links `libz3` the usual way (at process start), so
//! the build never depends on the trampolines.

use object::read::elf::{ElfFile64, FileHeader};
use object::{Endianness, Object, ObjectSymbol, SymbolKind};
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ioco_z3_lazy)");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=IOCO_Z3_EAGER");
    println!("cargo:rerun-if-env-changed=Z3_LIBRARY_PATH_OVERRIDE");
    let target = |k: &str| env::var(k).unwrap_or_default();
    let lazy_target = target("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && target("CARGO_CFG_TARGET_OS") == "linux"
        && target("CARGO_CFG_TARGET_ENV") == "gnu";
    let eager = env::var("IOCO_Z3_EAGER").is_ok_and(|v| v == "1");
    if !lazy_target || eager {
        // z3-sys links libz3 itself on these targets; linking it here too is harmless and
        // covers a `.cargo/config.toml` that replaced z3-sys's build script anyway.
        link_eagerly(None);
        return;
    }
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    match find_library().and_then(|lib| generate(&lib, &out).map(|()| lib)) {
        Ok(lib) => {
            println!("cargo:rerun-if-changed={}", lib.display());
            println!("cargo:rustc-cfg=ioco_z3_lazy");
        }
        Err(e) => {
            println!("cargo:warning=ioco-z3-lazy: {e}; libz3 is linked at process start instead");
            link_eagerly(None);
        }
    }
}

/// Links libz3 at process start, as z3-sys does.
fn link_eagerly(dir: Option<&Path>) {
    if let Some(d) = dir {
        println!("cargo:rustc-link-search=native={}", d.display());
    }
    if let Ok(p) = env::var("Z3_LIBRARY_PATH_OVERRIDE") {
        println!("cargo:rustc-link-search=native={p}");
    }
    println!("cargo:rustc-link-lib=z3");
}

/// The `libz3.so` the build would link: `Z3_LIBRARY_PATH_OVERRIDE`, pkg-config's directories,
/// `LIBRARY_PATH`, then the usual system directories.
fn find_library() -> Result<PathBuf, String> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Ok(p) = env::var("Z3_LIBRARY_PATH_OVERRIDE") {
        dirs.push(p.into());
    }
    if let Ok(lib) = pkg_config::Config::new()
        .cargo_metadata(false)
        .env_metadata(false)
        .probe("z3")
    {
        dirs.extend(lib.link_paths);
    }
    if let Ok(p) = env::var("LIBRARY_PATH") {
        dirs.extend(env::split_paths(&p));
    }
    for d in [
        "/usr/lib/x86_64-linux-gnu",
        "/lib/x86_64-linux-gnu",
        "/usr/lib64",
        "/usr/local/lib",
        "/usr/lib",
    ] {
        dirs.push(d.into());
    }
    dirs.iter()
        .map(|d| d.join("libz3.so"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "no libz3.so in {}",
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// Writes `tramp.s` (trampolines, stubs, slots) and `names.rs` (the names, the SONAME).
fn generate(lib: &Path, out: &Path) -> Result<(), String> {
    let data = fs::read(lib).map_err(|e| format!("cannot read {}: {e}", lib.display()))?;
    let elf = ElfFile64::<Endianness>::parse(&*data)
        .map_err(|e| format!("{} is not a 64-bit ELF library: {e}", lib.display()))?;
    let mut names: Vec<String> = elf
        .dynamic_symbols()
        .filter(|s| s.is_definition() && s.kind() == SymbolKind::Text)
        .filter_map(|s| s.name().ok().map(str::to_string))
        .filter(|n| {
            n.starts_with("Z3_") && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
        .collect();
    names.sort();
    names.dedup();
    if names.len() < 100 {
        return Err(format!(
            "{} exports only {} Z3_ functions",
            lib.display(),
            names.len()
        ));
    }
    let soname = soname(&elf, &data).unwrap_or_else(|| {
        fs::read_link(lib)
            .ok()
            .and_then(|t| t.file_name().map(|f| f.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "libz3.so".into())
    });
    let resolved = fs::canonicalize(lib).unwrap_or_else(|_| lib.to_path_buf());

    let mut s = String::new();
    s.push_str(".pushsection .text.ioco_z3_lazy,\"ax\",@progbits\n");
    for (i, n) in names.iter().enumerate() {
        let _ = write!(
            s,
            "    .p2align 4\n    .globl {n}\n    .hidden {n}\n    .type {n},@function\n{n}:\n    \
             jmp *(ioco_z3_slots+{off})(%rip)\n    .size {n}, .-{n}\n.Lioco_z3_stub{i}:\n    \
             movl ${i}, %r11d\n    jmp .Lioco_z3_common\n",
            off = 8 * i
        );
    }
    // Saves every argument register (integer, vector, %al of varargs calls), asks the
    // resolver for the function (which loads the library once), restores them and jumps, so
    // the call proceeds as if it had gone there directly. %r11 carries the index (it is free at
    // a call). At entry %rsp is 8 mod 16; after %rbp, eight registers and 128 bytes it is 0.
    s.push_str(
        "    .p2align 4\n.Lioco_z3_common:\n    pushq %rbp\n    movq %rsp, %rbp\n    \
         pushq %rdi\n    pushq %rsi\n    pushq %rdx\n    pushq %rcx\n    pushq %r8\n    \
         pushq %r9\n    pushq %rax\n    pushq %r10\n    subq $128, %rsp\n",
    );
    for r in 0..8 {
        let _ = writeln!(s, "    movdqu %xmm{r}, {}(%rsp)", 16 * r);
    }
    s.push_str("    movq %r11, %rdi\n    call ioco_z3_lazy_resolve@PLT\n    movq %rax, %r11\n");
    for r in 0..8 {
        let _ = writeln!(s, "    movdqu {}(%rsp), %xmm{r}", 16 * r);
    }
    s.push_str(
        "    addq $128, %rsp\n    popq %r10\n    popq %rax\n    popq %r9\n    popq %r8\n    \
         popq %rcx\n    popq %rdx\n    popq %rsi\n    popq %rdi\n    popq %rbp\n    \
         jmp *%r11\n.popsection\n",
    );
    s.push_str(
        ".pushsection .data.ioco_z3_lazy,\"aw\",@progbits\n    .p2align 3\n    \
         .globl ioco_z3_slots\n    .hidden ioco_z3_slots\nioco_z3_slots:\n",
    );
    for i in 0..names.len() {
        let _ = writeln!(s, "    .quad .Lioco_z3_stub{i}");
    }
    s.push_str(".popsection\n");
    fs::write(out.join("tramp.s"), s).map_err(|e| format!("cannot write tramp.s: {e}"))?;

    let mut r = String::new();
    let _ = writeln!(r, "pub(crate) const COUNT: usize = {};", names.len());
    let _ = writeln!(r, "pub(crate) const SONAME: &str = {soname:?};");
    let _ = writeln!(
        r,
        "pub(crate) const BUILT_AGAINST: &str = {:?};",
        resolved.display().to_string()
    );
    r.push_str("pub(crate) static NAMES: [&core::ffi::CStr; COUNT] = [\n");
    for n in &names {
        let _ = writeln!(r, "    c\"{n}\",");
    }
    r.push_str("];\n");
    fs::write(out.join("names.rs"), r).map_err(|e| format!("cannot write names.rs: {e}"))
}

/// The library's `DT_SONAME`.
fn soname(elf: &ElfFile64<Endianness>, data: &[u8]) -> Option<String> {
    let endian = elf.endian();
    let sections = elf.elf_header().sections(endian, data).ok()?;
    let (dyns, link) = sections.dynamic(endian, data).ok()??;
    let strings = sections.strings(endian, data, link).ok()?;
    dyns.iter().find_map(|d| {
        use object::read::elf::Dyn;
        (d.d_tag(endian) == object::elf::DT_SONAME)
            .then(|| d.string(endian, strings).ok())
            .flatten()
            .map(|b| String::from_utf8_lossy(b).into_owned())
    })
}
