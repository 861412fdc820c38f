//! The .ioco modelling language: parser, checker, formatter, translation to LTS/STS
