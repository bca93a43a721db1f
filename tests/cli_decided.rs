//! `decided_by`: every comparison names the check of the decision that decided it, and
//! `condition` the named condition that check belongs to, in `compare --json` and its text, and
//! in the pair records of `slst batch` (JSON lines and the flat formats). Pairs written by hand after Reuters-21578 notices and stories, each checked by
//! reading: which condition should decide it, and that turning that condition off changes the
//! name.

#![cfg(feature = "cli")]

mod common;
use common::{slst, slst_in, stdout};

/// An orange-juice yield estimate: the same text for another month is a template.
fn estimate(yield_now: &str, before: &str, month: &str) -> String {
    format!(
        "ORANGE JUICE YIELD ESTIMATE\n\nThe department projected an average yield of \
         {yield_now} gallons of concentrate per box from the 1986/87 crop.\n    That compares \
         with {before} gallons per box previously and 1.38 gallons per box from the 1985/86 \
         crop.\n    The board said the estimates rest on maturity tests as of {month} 1.\n \
         Reuter\n"
    )
}

/// A quarterly earnings table of a company.
fn earnings(figures: [&str; 6]) -> String {
    let [s1, s2, n1, n2, r1, r2] = figures;
    format!(
        "ACME INC 1ST QTR NET\n\nShr {s1} cts vs {s2} cts\n    Net {n1} dlrs vs {n2} dlrs\n    \
         Revs {r1} mln vs {r2} mln\n    Note: the company said results reflect the sale of its \
         Texas unit.\n Reuter\n"
    )
}

/// A dividend notice, for one company or another.
fn dividend(headline: &str, company: &str) -> String {
    format!(
        "{headline}\n\n{company} declared a quarterly dividend of 25 cts a share.\n    The \
         dividend of {company} is payable April 15 to holders of record March 31.\n Reuter\n"
    )
}

/// A dividend notice that names its company in the headline and again in its text.
fn named_dividend(headline: &str, company: &str) -> String {
    format!(
        "{headline} SETS QUARTERLY DIVIDEND\n\nThe board of {company} declared a quarterly \
         dividend of 25 cts a share, the same as the prior quarter.\n    The dividend is payable \
         April 15 to holders of record March 31.\n    {company} said it expects to keep the \
         payout through the year.\n Reuter\n"
    )
}

/// A story of ten sentences with a figure each, and an edited copy: three sentences
/// replaced, with figures of their own.
fn harbour(edited: bool) -> String {
    let sentences = [
        "The council approved the harbour plan after a long debate on costs with 12 units.",
        "Officials said the dredging work would begin in the spring season with 340 units.",
        "The port authority expects cargo volumes to rise over three years with 5.6 units.",
        "Local shipping firms welcomed the decision in statements on Monday with 78 units.",
        "Environmental groups asked for a review of the dredging contract with 901 units.",
        "The mayor said the plan would create jobs for dock workers with 23 units.",
        "Critics argued that the projected traffic figures were too optimistic with 4.5 units.",
        "Engineers will survey the channel before the tender is issued with 66 units.",
        "The national government agreed to cover part of the bill with 17 units.",
        "A final vote on the financing package is expected next month with 250 units.",
    ];
    let mut text: Vec<&str> = sentences.to_vec();
    if edited {
        text[3] = "Shipping firms in the region declined to comment on the ruling with 555 staff.";
        text[6] = "Opponents said the traffic forecasts looked far too rosy with 444 ships.";
        text[9] = "Councillors will vote on how to pay for it within weeks with 777 boats.";
    }
    format!("HARBOUR PLAN APPROVED\n\n{}\n", text.join("\n"))
}

/// The documents, by file name.
fn documents() -> Vec<(&'static str, String)> {
    let grain = [
        "Wheat prices rose sharply in Chicago trading today as buyers returned.",
        "Dealers said export demand from Egypt and China lifted the market.",
        "Corn and soybeans followed wheat higher in active dealings.",
        "Analysts expect the rally to continue into next week if the weather stays dry.",
        "Traders noted that farmers were holding back their grain.",
    ];
    vec![
        ("est-march.txt", estimate("1.47", "1.46", "March")),
        ("est-april.txt", estimate("1.50", "1.47", "April")),
        ("est-march-corrected.txt", estimate("1.47", "1.45", "March")),
        (
            "earn-q1.txt",
            earnings(["12", "10", "1,234,000", "1,100,000", "45.6", "40.2"]),
        ),
        (
            "earn-q2.txt",
            earnings(["31", "28", "3,402,000", "2,900,000", "88.1", "80.7"]),
        ),
        (
            "div-boston.txt",
            dividend(
                "QUARTERLY DIVIDEND SET",
                "First Boston Corporation of Manhattan",
            ),
        ),
        (
            "div-brands.txt",
            dividend(
                "QUARTERLY DIVIDEND SET",
                "American Brands Incorporated of Greenwich",
            ),
        ),
        (
            "div-boston-named.txt",
            named_dividend("FIRST BOSTON CORP", "First Boston"),
        ),
        (
            "div-brands-named.txt",
            named_dividend("AMERICAN BRANDS INC", "American Brands"),
        ),
        (
            "prime-scotia.txt",
            "BANK OF NOVA SCOTIA CUTS PRIME RATE TO 8-3/4 PCT\n".into(),
        ),
        (
            "prime-royal.txt",
            "ROYAL BANK OF CANADA CUTS PRIME RATE TO 8-3/4 PCT\n".into(),
        ),
        (
            "prime-toronto.txt",
            "TORONTO DOMINION BANK CUTS PRIME RATE TO 8-3/4 PCT\n".into(),
        ),
        ("harbour.txt", harbour(false)),
        ("harbour-edited.txt", harbour(true)),
        (
            "grain.txt",
            format!("GRAIN FUTURES RALLY\n\n{}\n", grain.join("\n")),
        ),
        (
            "grain-recut.txt",
            "GRAIN FUTURES RALLY IN CHICAGO\n\nWheat prices rose sharply in Chicago trading today \
             as buyers returned, and dealers said export demand from Egypt and China lifted the \
             market. Corn and soybeans followed wheat higher in active dealings; analysts expect \
             the rally to continue into next week if the weather stays dry. Traders noted that \
             farmers were holding back their grain.\n"
                .into(),
        ),
        (
            "metals-firm.txt",
            "The copper market closed firmer on steady buying from dealers in London.\nTin \
             prices slipped after heavy selling by producers across Asian markets.\n"
                .into(),
        ),
        (
            "metals-weak.txt",
            "The copper market closed weaker on light selling from dealers in London.\nTin \
             prices slipped after strong buying by consumers across Asian markets.\n"
                .into(),
        ),
    ]
}

fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in documents() {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// `compare --json` of two documents of the corpus: its decision and what decided it.
fn decided(dir: &std::path::Path, a: &str, b: &str, flags: &[&str]) -> (bool, String) {
    let mut args = vec!["compare", "--json", a, b];
    args.extend_from_slice(flags);
    let o = slst_in(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let name = v["decided_by"].as_str().unwrap().to_string();
    assert_eq!(v["condition"], condition_of(&name), "{v}");
    (v["duplicate"].as_bool().unwrap(), name)
}

/// The named condition each check belongs to, written out by hand (docs/methods.md).
fn condition_of(check: &str) -> &str {
    match check {
        "blocks" => "resemblance",
        "figures-in-blocks" | "figures-in-documents" | "other-figures" => "figures-differ",
        "headline-leads" | "headline-edits" | "other-words" | "headline-subjects" => {
            "parties-differ"
        }
        other => other,
    }
}

/// A pair, its decision and what decides it; the flags that turn that condition off, and what
/// decides the pair then (empty: the flags turn a condition on, which then decides it).
type Case<'a> = (&'a str, &'a str, bool, &'a str, &'a [&'a str], &'a str);

/// Each pair is decided by the condition written beside it; with that condition off, by
/// another (the next condition in order, or none).
#[test]
fn each_condition_decides_the_pair_it_was_written_for() {
    let dir = corpus();
    #[rustfmt::skip]
    let cases: &[Case] = &[
        // The same estimate with one figure corrected: J ≥ θ (one place with other figures is
        // allowed; none, and the correction is refused).
        ("est-march.txt", "est-march-corrected.txt", true, "resemblance", &["--figure-swaps", "1"], "other-figures"),
        // Three sentences of ten replaced, with figures of their own: the shared text decides.
        ("harbour.txt", "harbour-edited.txt", true, "blocks", &["--matched-containment-from", "0"], "figures-in-documents"),
        // The same words cut into other sentences, a ticker added to the headline.
        ("grain.txt", "grain-recut.txt", true, "words", &["--vocabulary", "0"], "below-threshold"),
        // The estimate for another month.
        ("est-march.txt", "est-april.txt", false, "other-figures", &["--figure-swaps", "0"], "resemblance"),
        ("est-march.txt", "est-april.txt", false, "figures-in-blocks", &["--min-figures", "1"], ""),
        // Another quarter's earnings table.
        ("earn-q1.txt", "earn-q2.txt", false, "figures-in-documents", &["--min-figure-containment", "0"], "other-figures"),
        // Two metal reports that share half their words, sentence by sentence.
        ("metals-firm.txt", "metals-weak.txt", false, "loose-words", &["--min-agreement", "0"], "other-words"),
        // The same prime-rate flash for another bank: another first word, or other names.
        ("prime-royal.txt", "prime-toronto.txt", false, "headline-leads", &["--no-flash-leads"], "headline-edits"),
        ("prime-scotia.txt", "prime-toronto.txt", false, "headline-edits", &["--flash-edits", "0"], "other-words"),
        // The same dividend notice for another company, named in the text or in the headline.
        ("div-boston.txt", "div-brands.txt", false, "other-words", &["--min-term-containment", "0"], "resemblance"),
        ("div-boston-named.txt", "div-brands-named.txt", false, "headline-subjects", &["--no-headline-subjects"], "resemblance"),
    ];
    let mut wrong = Vec::new();
    for &(a, b, duplicate, name, off, then) in cases {
        let mut check = |flags: &[&str], got: (bool, String), want: (bool, &str)| {
            if (got.0, got.1.as_str()) != want {
                wrong.push(format!("{a} {b} {flags:?}: {got:?}, not {want:?}"));
            }
        };
        // `--min-figures` is off by default: the case turns it on, and names nothing else.
        if then.is_empty() {
            check(off, decided(dir.path(), a, b, off), (false, name));
            continue;
        }
        check(&[], decided(dir.path(), a, b, &[]), (duplicate, name));
        // Symmetric: the same condition decides b against a.
        check(&["b a"], decided(dir.path(), b, a, &[]), (duplicate, name));
        let other = decided(dir.path(), a, b, off);
        check(off, other.clone(), (other.0, then));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn compare_says_what_decided_in_its_text_and_other_methods_name_their_rule() {
    // The Quick start pair: the answer lies whole in the article.
    let pair = [
        "corpora/clough/g0pA_taskb.txt",
        "corpora/clough/orig_taskb.txt",
    ];
    let o = slst(&["compare", pair[0], pair[1], "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (&v["duplicate"], &v["decided_by"]),
        (&true.into(), &"containment".into())
    );
    let text = stdout(&slst(&["compare", pair[0], pair[1]]));
    assert!(
        text.contains("\ndecided by: containment (one document's sentences lie in the other)\n"),
        "{text}"
    );
    // Paper mode and the other methods have one rule.
    for (method, duplicate, name) in [
        (["--mode", "paper"], false, "below-threshold"),
        (["--method", "shingle"], false, "below-threshold"),
    ] {
        let o = slst(&["compare", pair[0], pair[1], "--json", method[0], method[1]]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(
            (v["duplicate"].as_bool(), v["decided_by"].as_str()),
            (Some(duplicate), Some(name))
        );
    }
    let dir = corpus();
    let (duplicate, name) = decided(
        dir.path(),
        "est-march.txt",
        "est-april.txt",
        &["--method", "shingle"],
    );
    assert_eq!((duplicate, name.as_str()), (true, "rule"));
    // A refusal's name, its note above it.
    let text = stdout(&slst_in(
        dir.path(),
        &["compare", "est-march.txt", "est-april.txt"],
    ));
    assert!(
        text.contains("note: the same words around other figures")
            && text.contains("\ndecided by: other-figures, condition figures-differ\n"),
        "{text}"
    );
}

/// Every pair record names what decided it: the duplicates their clause, the templates their
/// refusal — in JSON lines and in the last column of TSV.
#[test]
fn batch_pair_records_carry_what_decided_them() {
    let dir = corpus();
    let run = |extra: &[&str]| {
        let mut args = vec!["batch", ".", "-q", "--templates", "report"];
        args.extend_from_slice(extra);
        let o = slst_in(dir.path(), &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
    };
    let jsonl = run(&[]);
    let records: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let name = |a: &str, b: &str| {
        records
            .iter()
            .find(|r| r["a"] == a && r["b"] == b)
            .and_then(|r| r["decided_by"].as_str())
    };
    assert_eq!(
        name("est-april.txt", "est-march.txt"),
        Some("other-figures")
    );
    assert_eq!(
        name("est-march-corrected.txt", "est-march.txt"),
        Some("resemblance")
    );
    assert_eq!(name("grain-recut.txt", "grain.txt"), Some("words"));
    assert_eq!(name("harbour-edited.txt", "harbour.txt"), Some("blocks"));
    assert_eq!(
        name("earn-q1.txt", "earn-q2.txt"),
        Some("figures-in-documents")
    );
    // A loose match is no template: not reported.
    assert_eq!(name("metals-firm.txt", "metals-weak.txt"), None);
    // Templates carry their refusal, duplicates an accepting clause; each its condition.
    for r in &records {
        let check = r["decided_by"].as_str().unwrap();
        let refused = !["resemblance", "containment", "blocks", "words"].contains(&check);
        assert_eq!(r.get("template").is_some(), refused, "{r}");
        assert_eq!(r["condition"], condition_of(check), "{r}");
        let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys[keys.len() - 2..], ["decided_by", "condition"]);
    }
    let tsv = run(&["--out-format", "tsv"]);
    let rows: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!((rows[0][9], rows[0][10]), ("decided_by", "condition"));
    assert!(rows[1..].iter().all(|r| r[10] == condition_of(r[9])));
    assert_eq!(rows.len(), records.len() + 1);
    let mut from_tsv: Vec<&str> = rows[1..].iter().map(|r| r[9]).collect();
    let mut from_jsonl: Vec<&str> = records
        .iter()
        .map(|r| r["decided_by"].as_str().unwrap())
        .collect();
    from_tsv.sort_unstable();
    from_jsonl.sort_unstable();
    assert_eq!(from_tsv, from_jsonl);
}
