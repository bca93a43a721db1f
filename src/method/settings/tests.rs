use super::*;
use crate::method::{Detector, WithDetector};

/// The built detector's `params`, as reports write them.
fn params_json(settings: &MethodSettings, method: Method) -> String {
    struct Params;
    impl WithDetector for Params {
        type Output = String;
        fn with<D: Detector>(self, d: &D) -> String {
            serde_json::to_string(&d.params()).unwrap_or_default()
        }
    }
    let detector = settings.detector(method).unwrap_or_else(|e| {
        panic!("{method}: {e}");
    });
    detector.visit(Params)
}

/// A valid value other than `current` for setting `name`.
fn another_value(name: &str, current: &Value) -> String {
    match name {
        "stopwords" => return "none".into(),
        "match_key" => return "length".into(),
        "hash" => return "crc32".into(),
        "sketch" => return "min".into(),
        "measure" => return "dice".into(),
        "stemmer" => return "french".into(),
        "moduli" => return "1000000009,1000000007".into(),
        "antecedents" => return "the,a".into(),
        // Out of range one step up (paper SL+ST's lengths stop at 35), or tied to another
        // setting (minima are a whole number of supershingles; single pairs need τ or more).
        "max_length" => return "20".into(),
        "minima" => return "98".into(),
        "supershingle_size" => return "12".into(),
        "term_similarity" => return "0.3".into(),
        _ => {}
    }
    match current {
        Value::Bool(b) => (!b).to_string(),
        Value::Number(n) if n.is_u64() => (n.as_u64().unwrap_or(0) + 1).to_string(),
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            format!("{}", if x < 0.85 { x + 0.1 } else { x - 0.1 })
        }
        other => panic!("no other value for {name} = {other}"),
    }
}

/// Every name a method takes reaches the detector that is built: setting it changes the
/// detector's reported `params` (for SL+ST, in either mode; `slst-flat` is always the paper's
/// method).
#[test]
fn every_setting_reaches_the_built_detector() {
    for mode in [SlstMode::Paper, SlstMode::Robust] {
        let defaults = MethodSettings {
            slst_mode: mode,
            ..MethodSettings::default()
        };
        for method in Method::ALL {
            let before = params_json(&defaults, method);
            let names = defaults.names(method);
            assert!(!names.is_empty(), "{method}");
            for name in &names {
                let field = Schema::of(method).field_of(name).to_string();
                let current = defaults.fields(method).map().remove(&field);
                let value = another_value(name, current.as_ref().unwrap_or(&Value::Null));
                let mut s = defaults.clone();
                s.set(method, name, &value)
                    .unwrap_or_else(|e| panic!("{method} {name} = {value}: {e}"));
                let after = params_json(&s, method);
                assert_ne!(before, after, "{method} ({mode:?}): {name} = {value}");
            }
            let e = defaults
                .clone()
                .set(method, "no_such_setting", "1")
                .unwrap_err();
            assert!(e.to_string().contains(method.name()), "{e}");
        }
    }
}

#[test]
fn a_value_of_the_wrong_type_is_named() {
    let mut s = MethodSettings::default();
    let e = s.set(Method::Slst, "min_block", "two").unwrap_err();
    assert_eq!(
        e.to_string(),
        "slst: setting min_block: cannot read \"two\" as its value"
    );
    let e = s.set(Method::Shingle, "hash", "md4").unwrap_err();
    assert!(e.to_string().contains("rabin"), "{e}");
}

/// The names are the configuration's fields, in order, less those that do not apply.
#[test]
fn names_follow_the_configuration() {
    let s = MethodSettings {
        slst_mode: SlstMode::Robust,
        ..MethodSettings::default()
    };
    let robust = s.names(Method::Slst);
    assert_eq!(robust[..3], ["min_block", "max_length", "length_tolerance"]);
    assert!(robust.iter().any(|n| n == "pair_keys"));
    // slst-flat reads a page's text with SL+ST's paper mode, whatever the mode of `slst`.
    assert_eq!(
        s.names(Method::SlstFlat),
        MethodSettings::default().names(Method::Slst)
    );
    assert_eq!(s.names(Method::SpecialChars), ["threshold"]);
    assert!(
        !s.names(Method::SentLen)
            .iter()
            .any(|n| n == "leading_terms")
    );
}

#[test]
fn thresholds_are_set_where_the_method_reads_them() {
    let mut s = MethodSettings::default();
    assert!(s.set_threshold(Method::MegaShingle, 0.5).is_err());
    assert!(s.set_threshold(Method::Md5, 0.5).is_err());
    s.set_threshold(Method::Shingle, 0.3).unwrap();
    assert_eq!(s.shingle.threshold, 0.3);
    s.set_threshold(Method::SpecialChars, 0.7).unwrap();
    assert_eq!(s.blocks.specialchars_threshold, 0.7);
    s.slst_mode = SlstMode::Robust;
    s.set_threshold(Method::Slst, 0.2).unwrap();
    assert_eq!((s.robust.threshold, s.slst.threshold), (0.2, 0.5));
}

/// A stop-word list read from a file stays when another setting is set (only its id is in the
/// serde form).
#[test]
fn a_custom_stop_list_survives_other_settings() {
    let mut s = MethodSettings {
        slst_mode: SlstMode::Robust,
        ..MethodSettings::default()
    };
    s.robust.stopwords = StopWords::parse("mine", "alpha\nbeta");
    s.set(Method::Slst, "window", "12").unwrap();
    assert_eq!(s.robust.stopwords.id(), "mine");
    assert!(s.robust.stopwords.contains("alpha"));
    assert_eq!(s.robust.window, 12);
}
