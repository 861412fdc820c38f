//! # ioco-txs: TorXakis models as a first-class input
//!
//! A `.txs` file (TorXakis's modelling language) is read by [`parser`] into the syntax tree of
//! [`ast`] and lowered by [`lower`] into the syntax tree of the `.ioco` language
//! ([`ioco_lang::ast::File`]), which the `.ioco` checker then turns into the one IR every
//! engine runs on. Diagnostics point into the `.txs` text.
//!
//! Pipeline: [`lexer`] → [`parser`] → [`lower`] → [`ioco_lang::check`].

pub mod ast;
pub mod lexer;
pub mod parser;
