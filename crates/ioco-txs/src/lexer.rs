//! The tokens of a `.txs` file (to be written).
