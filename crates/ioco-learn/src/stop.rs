//! Stopping a learning session from outside (Ctrl-C): the session ends at its next query with
//! the hypothesis so far, unverified, as when a budget runs out. The `ioco` binary's signal
//! handler calls [`stop`] when [`active`] says a session is running (and kills the systems
//! under test, so that a query waiting for one ends at once).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// Ask every learning session in progress (and any later one) to stop. Returns whether one was
/// in progress.
pub fn stop() -> bool {
    STOP.store(true, Ordering::SeqCst);
    active()
}

/// Whether a learning session is in progress.
pub fn active() -> bool {
    ACTIVE.load(Ordering::SeqCst) > 0
}

/// Whether [`stop`] was called.
pub fn stopped() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Marks a session as in progress while it lives.
pub(crate) struct Active;

impl Active {
    pub(crate) fn new() -> Active {
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        Active
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}
