//! The .ioco modelling language: parser, checker, formatter, translation to LTS/STS
pub mod ast;
pub mod diag;
pub mod lexer;
pub mod parser;
pub mod span;
pub mod ir;
