//! # ioco-z3-lazy: libz3 loaded on the first solver call
//!
//! `ioco` links Z3 for its symbolic engine, but most runs never solve anything: Mealy suites,
//! explicit LTS tests, `compare`, `analyze`. Loading `libz3.so` (23 MB, 20 000 relocations,
//! C++ constructors, `libstdc++`) at process start costs about 1.4 ms of CPU on every command,
//! more than some whole runs take (issue #19: `ioco gen` on the small corpus machines was 1–3 ms
//! slower than hybrid-ADS, all of it process start).
//!
//! On x86_64 Linux this crate defines every `Z3_*` function of the C API itself, as a
//! trampoline (`jmp *slot`). A slot first points at a stub that loads the library with
//! `dlopen` (once, thread-safe), fills every slot from `dlsym`, and continues the call, so the
//! `z3` crate works unchanged. z3-sys's own build script, which would link libz3 at start-up,
//! is replaced in `.cargo/config.toml` (`[target.x86_64-unknown-linux-gnu.z3]`). The names and
//! the `SONAME` come from the library at build time (`build.rs`).
//!
//! Invariants:
//! - A command that never calls Z3 never loads it, and runs where libz3 is not installed.
//! - [`load`] reports a missing or broken library as an error (the symbolic engine turns it into
//!   "solver unavailable", i.e. Inconclusive, never Pass); a Z3 call that happens without
//!   [`load`] first and cannot be served ends the process with that error and exit code 2,
//!   never a crash.
//! - `IOCO_Z3_LIBRARY=/path/to/libz3.so` loads that library instead (and only that one).
//! - Everywhere else (other targets, `IOCO_Z3_EAGER=1`, no library readable at build time) the
//!   library is linked as usual and [`load`] is always `Ok`.

/// The environment variable that names the library to load instead of the one found at build
/// time (a path or a file name for `dlopen`).
pub const LIBRARY_VAR: &str = "IOCO_Z3_LIBRARY";

#[cfg(ioco_z3_lazy)]
mod imp {
    use super::LIBRARY_VAR;
    use std::ffi::{c_void, CStr, CString};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::OnceLock;

    include!(concat!(env!("OUT_DIR"), "/names.rs"));

    core::arch::global_asm!(
        include_str!(concat!(env!("OUT_DIR"), "/tramp.s")),
        options(att_syntax)
    );

    extern "C" {
        /// The jump slots of the trampolines (defined in `tramp.s`), one per [`NAMES`] entry.
        static ioco_z3_slots: [AtomicUsize; COUNT];
    }

    fn slots() -> &'static [AtomicUsize; COUNT] {
        // SAFETY: `ioco_z3_slots` is a writable, 8-aligned array of COUNT words defined in
        // tramp.s; it is only ever accessed atomically (the trampolines read one word).
        unsafe { &*std::ptr::addr_of!(ioco_z3_slots) }
    }

    /// What loading gave: Ok(the stub addresses, to tell unresolved slots) or why not.
    static LOADED: OnceLock<Result<Vec<usize>, String>> = OnceLock::new();

    pub(crate) fn load() -> &'static Result<Vec<usize>, String> {
        LOADED.get_or_init(|| {
            let stubs: Vec<usize> = slots().iter().map(|s| s.load(Ordering::Acquire)).collect();
            let mut errors = Vec::new();
            let mut handle = std::ptr::null_mut();
            let chosen = std::env::var(LIBRARY_VAR).ok().filter(|v| !v.is_empty());
            let candidates = match &chosen {
                Some(path) => vec![path.as_str()],
                None => vec![SONAME, BUILT_AGAINST, "libz3.so"],
            };
            for cand in candidates {
                let Ok(c) = CString::new(cand) else {
                    errors.push(format!("{cand:?} is not a file name"));
                    continue;
                };
                // SAFETY: a NUL-terminated path; dlopen has no other precondition.
                handle = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
                if !handle.is_null() {
                    break;
                }
                errors.push(dl_error());
            }
            if handle.is_null() {
                let what = chosen.as_deref().unwrap_or(SONAME);
                return Err(format!(
                    "the Z3 solver library ({what}) cannot be loaded: {} (hint: install Z3's \
                     runtime library, e.g. `apt-get install libz3-4`, or name one with \
                     {LIBRARY_VAR}=/path/to/libz3.so)",
                    errors.join("; ")
                ));
            }
            for (slot, name) in slots().iter().zip(NAMES.iter()) {
                // SAFETY: a live handle and a NUL-terminated name.
                let f: *mut c_void = unsafe { libc::dlsym(handle, name.as_ptr()) };
                if !f.is_null() {
                    slot.store(f as usize, Ordering::Release);
                }
            }
            Ok(stubs)
        })
    }

    fn dl_error() -> String {
        // SAFETY: dlerror returns NULL or a NUL-terminated string valid until the next call.
        let e = unsafe { libc::dlerror() };
        if e.is_null() {
            "unknown dlopen error".into()
        } else {
            unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
        }
    }

    /// Called by the common stub with the index of the function called: loads the library
    /// once and returns the function's address. It cannot return an error to a C caller, so a
    /// library that cannot be loaded, or lacks the function, ends the process with a message.
    #[no_mangle]
    extern "C" fn ioco_z3_lazy_resolve(index: usize) -> usize {
        let fail = |msg: String| -> ! {
            eprintln!("error: {msg}");
            std::process::exit(2)
        };
        match load() {
            Err(e) => fail(e.clone()),
            Ok(stubs) => {
                let Some(slot) = slots().get(index) else {
                    fail(format!("internal: no Z3 function number {index}"))
                };
                let f = slot.load(Ordering::Acquire);
                if stubs.get(index) == Some(&f) {
                    fail(format!(
                        "the loaded Z3 library has no function {} (it was built against {}; \
                         hint: install the same Z3 version, or rebuild ioco)",
                        NAMES[index].to_string_lossy(),
                        BUILT_AGAINST
                    ))
                }
                f
            }
        }
    }

    pub(crate) fn library() -> &'static str {
        SONAME
    }
}

/// Loads libz3 now if it is not loaded yet; an error says why it cannot be, with a hint. Call
/// it before the first Z3 call to get an error instead of an exit.
pub fn load() -> Result<(), String> {
    #[cfg(ioco_z3_lazy)]
    {
        imp::load().as_ref().map(|_| ()).map_err(Clone::clone)
    }
    #[cfg(not(ioco_z3_lazy))]
    {
        Ok(())
    }
}

/// Whether libz3 is loaded on first use (true) or at process start (false).
pub fn is_lazy() -> bool {
    cfg!(ioco_z3_lazy)
}

/// The library loaded on first use (its `SONAME`), if loading is lazy.
pub fn library() -> Option<&'static str> {
    #[cfg(ioco_z3_lazy)]
    {
        Some(imp::library())
    }
    #[cfg(not(ioco_z3_lazy))]
    {
        None
    }
}

/// Whether the library is loaded in this process (always true when it is linked at start).
pub fn is_loaded() -> bool {
    #[cfg(ioco_z3_lazy)]
    {
        // SAFETY: reading the process's list of loaded objects; RTLD_NOLOAD never loads.
        let name = std::ffi::CString::new(imp::library()).unwrap_or_default();
        let h = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD) };
        if h.is_null() {
            false
        } else {
            unsafe { libc::dlclose(h) };
            true
        }
    }
    #[cfg(not(ioco_z3_lazy))]
    {
        true
    }
}
