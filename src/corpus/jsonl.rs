//! JSON lines: one JSON object per line, with the id and the text in named fields.

use serde_json::Value;

/// The id field's (and a Parquet or Arrow id column's) default name.
pub const ID_FIELD: &str = "id";
/// The text field's (and a Parquet or Arrow text column's) default name.
pub const TEXT_FIELD: &str = "text";

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
            id_field: ID_FIELD.into(),
            text_field: TEXT_FIELD.into(),
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
    let id = match object.get(&options.id_field) {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => {
            return Err(format!(
                "field {:?} is not a non-empty string or a number",
                options.id_field
            ));
        }
        None => {
            return Err(format!(
                "no field {:?} ({}; name the id field with --id-field)",
                options.id_field,
                fields_seen(&object)
            ));
        }
    };
    if !object.contains_key(&options.text_field) {
        // The longest string is the likeliest text.
        let hint = object
            .iter()
            .filter(|(k, _)| **k != options.id_field)
            .filter_map(|(k, v)| v.as_str().map(|s| (s.len(), k)))
            .max_by_key(|&(len, _)| len)
            .map_or_else(
                || "name the text field with --text-field".to_string(),
                |(_, k)| format!("use --text-field {k}"),
            );
        return Err(format!(
            "no field {:?} in {id} ({}; {hint})",
            options.text_field,
            fields_seen(&object)
        ));
    }
    match object.remove(&options.text_field) {
        Some(Value::String(text)) => Ok((id, text)),
        _ => Err(format!(
            "field {:?} of {id} is not a string",
            options.text_field
        )),
    }
}

/// "fields: a, b, c" (the first 10), or "no other fields".
fn fields_seen(object: &serde_json::Map<String, Value>) -> String {
    if object.is_empty() {
        return "no other fields".into();
    }
    let mut names: Vec<&str> = object.keys().map(String::as_str).take(10).collect();
    if object.len() > 10 {
        names.push("…");
    }
    format!("fields: {}", names.join(", "))
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
        // A missing field is named with the fields the record has, and the likeliest text.
        assert_eq!(
            parse_line(
                r#"{"doc":"a","title":"T","content":"Longer text.","n":3}"#,
                &o
            )
            .unwrap_err(),
            "no field \"body\" in a (fields: doc, title, content, n; use --text-field content)"
        );
        assert_eq!(
            parse_line(r#"{"url":"u","body":"x"}"#, &o).unwrap_err(),
            "no field \"doc\" (fields: url, body; name the id field with --id-field)"
        );
        assert!(
            parse_line("[1]", &o)
                .unwrap_err()
                .contains("not a JSON object")
        );
        assert!(parse_line("{", &o).unwrap_err().starts_with("not JSON"));
    }
}
