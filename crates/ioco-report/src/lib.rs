//! Reports: summaries, JSON, JUnit, Markdown
