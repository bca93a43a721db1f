//! JSON lines: one JSON object per line, with the id and the text in named fields.

use serde_json::Value;

/// Which fields of each JSON object hold the document's id and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonlOptions {
    /// The id field (default `id`); a string or a number.
    pub id_field: String,
    /// The text field (default `text`); a string.
    pub text_field: String,
}

impl Default for JsonlOptions {
    fn default() -> Self {
        JsonlOptions {
            id_field: "id".into(),
            text_field: "text".into(),
        }
    }
}

/// Parse one line into (id, text).
///
/// # Errors
/// A message saying what is wrong with the line (not JSON, not an object, a field missing or
/// of the wrong type).
///
/// # Example
/// ```
/// use slst::corpus::jsonl::{parse_line, JsonlOptions};
/// let (id, text) = parse_line(r#"{"id": 7, "text": "Hello."}"#, &JsonlOptions::default()).unwrap();
/// assert_eq!((id.as_str(), text.as_str()), ("7", "Hello."));
/// ```
pub fn parse_line(line: &str, options: &JsonlOptions) -> Result<(String, String), String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(mut object) = value else {
        return Err("not a JSON object".into());
    };
    let id = match object.remove(&options.id_field) {
        Some(Value::String(s)) if !s.trim().is_empty() => s,
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => {
            return Err(format!(
                "field {:?} is not a non-empty string or a number",
                options.id_field
            ));
        }
        None => return Err(format!("no field {:?}", options.id_field)),
    };
    let text = match object.remove(&options.text_field) {
        Some(Value::String(s)) => s,
        Some(_) => {
            return Err(format!(
                "field {:?} of {id} is not a string",
                options.text_field
            ));
        }
        None => return Err(format!("no field {:?} in {id}", options.text_field)),
    };
    Ok((id, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_fields_and_errors() {
        let o = JsonlOptions {
            id_field: "doc".into(),
            text_field: "body".into(),
        };
        assert_eq!(
            parse_line(r#"{"doc":"a","body":"x"}"#, &o).unwrap(),
            ("a".to_string(), "x".to_string())
        );
        assert!(
            parse_line(r#"{"doc":"a"}"#, &o)
                .unwrap_err()
                .contains("no field \"body\"")
        );
        assert!(
            parse_line("[1]", &o)
                .unwrap_err()
                .contains("not a JSON object")
        );
        assert!(parse_line("{", &o).unwrap_err().starts_with("not JSON"));
    }
}
