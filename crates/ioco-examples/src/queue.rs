//! A bounded FIFO queue over the data domain {0, 1}, after TorXakis's `Queue` example, made
//! finite so that its specification is a finite LTS (`examples/queue/queue.aut`, written by
//! `examples/queue/gen_queue_aut.py`).
//!
//! Inputs `enq_0`, `enq_1`, `deq`; outputs `out_0`, `out_1`, `empty`, `full`. The queue holds
//! at most [`CAPACITY`] values. `enq_v` appends `v` silently (the machine is then quiescent), or,
//! when the queue is full, answers `full` and changes nothing. `deq` answers `out_v` with the
//! oldest value `v` and removes it, or `empty` when there is none. (TorXakis's queue stays silent
//! on `deq` of an empty queue and has no bound; here both cases have an explicit answer.)

use crate::wire::{Effect, Machine};
use std::collections::VecDeque;

/// The capacity of the specified queue.
pub const CAPACITY: usize = 2;

/// The inputs of the queue.
pub const QUEUE_INPUTS: &[&str] = &["enq_0", "enq_1", "deq"];

/// How the queue behaves. Every mode except [`QueueMode::Correct`] is faulty, and its doc
/// comment names a shortest counterexample ioco finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum QueueMode {
    /// Conforms: a FIFO queue of capacity 2.
    Correct,
    /// Last in, first out. Counterexample: enq_0? enq_1? deq? · out_1! where out_0! is required.
    Lifo,
    /// Drops an element: a value enqueued while one value is held is lost (so the queue is
    /// never full). Counterexample: enq_0? enq_0? enq_0? · δ where full! is required; also
    /// enq_0? enq_1? deq? out_0! deq? · empty! where out_1! is required.
    Drop,
    /// Duplicates: every value is delivered twice before it leaves the queue.
    /// Counterexample: enq_0? deq? out_0! deq? · out_0! where empty! is required.
    Dup,
    /// Capacity off by one (too small): holds one value only.
    /// Counterexample: enq_0? enq_0? · full! where only δ is allowed.
    Small,
    /// Capacity off by one (too large): holds three values.
    /// Counterexample: enq_0? enq_0? enq_0? · δ where full! is required.
    Large,
    /// Crashes (panics: index out of bounds) on deq of an empty queue.
    /// Counterexample: deq? then the process is gone (where empty! is required).
    Crash,
    /// Hangs on enq into a full queue (a blocking queue): never reads or writes again.
    /// Observed as quiescence only by timeout: enq_0? enq_0? enq_0? · δ where full! is required.
    Hang,
}

impl QueueMode {
    /// All modes, the correct one first; `--bug N` is the N-th faulty mode (1-based).
    pub const ALL: [QueueMode; 8] = [
        QueueMode::Correct,
        QueueMode::Lifo,
        QueueMode::Drop,
        QueueMode::Dup,
        QueueMode::Small,
        QueueMode::Large,
        QueueMode::Crash,
        QueueMode::Hang,
    ];

    /// The mode's name on the command line.
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .expect("no skipped variants")
            .get_name()
            .to_string()
    }

    /// The faulty mode number `n` (1-based), as given to `--bug`.
    pub fn bug(n: usize) -> Option<QueueMode> {
        if n == 0 {
            None
        } else {
            Self::ALL.get(n).copied()
        }
    }

    fn capacity(self) -> usize {
        match self {
            QueueMode::Small => CAPACITY - 1,
            QueueMode::Large => CAPACITY + 1,
            _ => CAPACITY,
        }
    }
}

/// One held value and whether it was delivered once already (for [`QueueMode::Dup`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Slot {
    value: u8,
    delivered: bool,
}

/// The queue in one [`QueueMode`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Queue {
    mode: QueueMode,
    items: VecDeque<Slot>,
}

impl Queue {
    /// An empty queue.
    pub fn new(mode: QueueMode) -> Self {
        Queue {
            mode,
            items: VecDeque::new(),
        }
    }

    fn out(value: u8) -> Effect {
        Effect::Output(if value == 0 { "out_0" } else { "out_1" })
    }
}

impl Machine for Queue {
    fn inputs(&self) -> &'static [&'static str] {
        QUEUE_INPUTS
    }

    fn react(&mut self, input: &str) -> Vec<Effect> {
        let value = match input {
            "enq_0" => 0,
            "enq_1" => 1,
            _ => {
                // deq
                let slot = match self.mode {
                    QueueMode::Lifo => self.items.pop_back(),
                    QueueMode::Crash if self.items.is_empty() => {
                        return vec![Effect::Crash("index out of bounds: the queue is empty")]
                    }
                    QueueMode::Dup => match self.items.front_mut() {
                        Some(s) if !s.delivered => {
                            s.delivered = true;
                            return vec![Self::out(s.value)];
                        }
                        _ => self.items.pop_front(),
                    },
                    _ => self.items.pop_front(),
                };
                return match slot {
                    Some(s) => vec![Self::out(s.value)],
                    None => vec![Effect::Output("empty")],
                };
            }
        };
        if self.items.len() >= self.mode.capacity() {
            if self.mode == QueueMode::Hang {
                return vec![Effect::Hang];
            }
            return vec![Effect::Output("full")];
        }
        if self.mode == QueueMode::Drop && self.items.len() == 1 {
            return vec![];
        }
        self.items.push_back(Slot {
            value,
            delivered: false,
        });
        vec![]
    }
}
