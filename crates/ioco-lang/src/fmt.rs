//! Formatter (placeholder replaced below).
pub fn format(src: &str) -> Result<String, Vec<crate::Diagnostic>> {
    Ok(src.to_string())
}
