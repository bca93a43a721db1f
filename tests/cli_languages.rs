//! Built-in stop-word lists beyond English (`--stopwords russian`, `ukrainian`, …): the list's
//! words leave sentence lengths, its id is reported, and SL+ST finds edited copies of Russian and
//! Ukrainian text with them (the seed papers' languages).

#![cfg(feature = "cli")]

mod common;
use common::{shared_seeds, slst, stderr, stdout};

use std::path::Path;

/// A few Russian sentences written for these tests (lengths counted by hand below).
const RU_RAIN: &str = "tests/fixtures/languages/ru-rain.txt";

fn json(args: &[&str]) -> serde_json::Value {
    let o = slst(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// Each sentence's length (terms) in `profile --json`, by the sentence's first word.
fn lengths(file: &str, stopwords: &str) -> (serde_json::Value, Vec<u64>) {
    let v = json(&["profile", "--json", "--stopwords", stopwords, file]);
    let lengths = v["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["length"].as_u64().unwrap())
        .collect();
    (v, lengths)
}

#[test]
fn the_russian_list_leaves_sentence_lengths_and_is_reported() {
    // "Утром [над] городом прошёл сильный дождь." 5; "Улицы быстро опустели, [и] [только]
    // редкие прохожие спешили [к] остановкам [с] зонтами." 8; "[К] полудню небо прояснилось,
    // [а] ветер стих." 5; "Дети снова вышли [во] двор, [чтобы] пускать кораблики [по] лужам." 7;
    // "Вечером [все] соседи собрались [на] крыльце [и] долго обсуждали погоду." 7; "[Она] [ещё]
    // [не] знала, [что] [всё] [уже] решено." 2 — `ещё` and `всё` are the list's `еще` and `все`.
    for name in ["russian", "ru", "ru-nltk-151"] {
        let (v, lengths) = lengths(RU_RAIN, name);
        assert_eq!(lengths, [5, 8, 5, 7, 7, 2], "{name}");
        assert_eq!(v["length_string"], "585772");
        assert_eq!(v["stopwords"], "ru-nltk-151");
    }
    // The English list removes no Russian word: every word counts.
    let (v, lengths) = lengths(RU_RAIN, "english");
    assert_eq!(lengths, [6, 12, 7, 10, 10, 8]);
    assert_eq!(v["stopwords"], "en-nltk-179");
    let o = slst(&["profile", "--stopwords", "russian", RU_RAIN]);
    assert!(
        stdout(&o).contains("stop words: ru-nltk-151"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn an_edited_russian_text_is_found_with_the_russian_list() {
    let text = std::fs::read_to_string(common::repo().join(RU_RAIN)).unwrap();
    // Sentences reordered (the last first), a word changed (its length kept), one dropped.
    let edited = text
        .replace("Вечером все соседи", "Вечером все жильцы")
        .replace(" Она ещё не знала, что всё уже решено.", "")
        .replace("Утром", "Она ещё не знала, что всё уже решено. Утром");
    let (_, lengths_b) = with_file(&edited, |b| lengths(b, "ru"));
    assert_eq!(lengths_b, [2, 5, 8, 5, 7, 7]);
    with_file(&edited, |b| found(RU_RAIN, b, "russian", "ru-nltk-151"));
}

/// `compare` in both modes finds `b` a near-duplicate of `a` with the list `name` (id `id`).
fn found(a: &str, b: &str, name: &str, id: &str) {
    for mode in ["paper", "robust"] {
        let v = json(&[
            "compare",
            "--json",
            "--mode",
            mode,
            "--stopwords",
            name,
            a,
            b,
        ]);
        assert_eq!(v["duplicate"], true, "{mode}: {v}");
        assert!(!v["blocks"].as_array().unwrap().is_empty(), "{mode}");
        assert_eq!(v["params"]["stopwords"], id, "{mode}");
    }
}

/// `f` with the path of a temporary file holding `text`.
fn with_file<T>(text: &str, f: impl FnOnce(&str) -> T) -> T {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.txt");
    std::fs::write(&path, text).unwrap();
    f(path.to_str().unwrap())
}

/// `compare --method all --json` of `a` and `b` with the list `name`, with the records' stop-word
/// ids taken out (the list's id, and the document's with `auto`).
fn every_method(a: &str, b: &str, name: &str) -> serde_json::Value {
    let mut v = json(&[
        "compare",
        "--method",
        "all",
        "--json",
        "--stopwords",
        name,
        a,
        b,
    ]);
    for record in v.as_array_mut().unwrap() {
        record["params"]
            .as_object_mut()
            .unwrap()
            .remove("stopwords");
        for side in ["a", "b"] {
            record[side].as_object_mut().unwrap().remove("stopwords");
        }
    }
    v
}

#[test]
fn auto_takes_each_documents_language_and_names_the_list_per_document() {
    let english = "corpora/clough/g0pA_taskb.txt";
    let v = json(&["compare", "--json", "--stopwords", "auto", RU_RAIN, english]);
    assert_eq!(v["a"]["stopwords"], "ru-nltk-151");
    assert_eq!(v["b"]["stopwords"], "en-nltk-179");
    assert_eq!(v["params"]["stopwords"], "auto");
    // Without `auto`, the documents' records name no list of their own.
    let v = json(&["compare", "--json", "--stopwords", "ru", RU_RAIN, english]);
    assert!(v["a"].get("stopwords").is_none());
    // Profile reports the list chosen, and counts as the Russian list does.
    let (v, lengths) = lengths(RU_RAIN, "auto");
    assert_eq!(lengths, [5, 8, 5, 7, 7, 2]);
    assert_eq!(v["stopwords"], "ru-nltk-151");
    // Every method, on English and on Russian text, is as with the language's own list.
    let other = "corpora/clough/orig_taskb.txt";
    assert_eq!(
        every_method(english, other, "auto"),
        every_method(english, other, "english")
    );
    let text = std::fs::read_to_string(common::repo().join(RU_RAIN)).unwrap();
    let edited = text.replace("Вечером все соседи", "Вечером все жильцы");
    with_file(&edited, |b| {
        let auto = every_method(RU_RAIN, b, "auto");
        assert_eq!(auto, every_method(RU_RAIN, b, "russian"));
        assert_ne!(auto, every_method(RU_RAIN, b, "english"));
    });
}

#[test]
fn synth_refuses_auto_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.jsonl");
    let truth = dir.path().join("truth.tsv");
    let o = slst(&[
        "synth",
        "--docs",
        "4",
        "--stopwords",
        "auto",
        "--out",
        out.to_str().unwrap(),
        "--truth",
        truth.to_str().unwrap(),
        "no-such-corpus",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("--stopwords = auto: one list"), "{err}");
    assert!(!out.exists() && !truth.exists());
}

#[test]
fn an_unknown_list_name_is_refused_with_the_built_in_names() {
    let o = slst(&["profile", "--stopwords", "klingon", RU_RAIN]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.starts_with("slst: error: klingon: cannot read: "),
        "{err}"
    );
    for name in [
        "russian, ru",
        "ukrainian, uk",
        "english, en",
        "none",
        "auto",
    ] {
        assert!(err.contains(name), "{name}: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

/// The first `n` paragraphs of a seed paper of at least 800 bytes (its prose, not its headings,
/// references or page furniture), as one text.
fn seed_prose(seeds: &Path, file: &str, n: usize) -> String {
    let text = std::fs::read_to_string(seeds.join(file)).unwrap();
    let paragraphs: Vec<&str> = text.lines().filter(|l| l.len() >= 800).take(n).collect();
    assert_eq!(paragraphs.len(), n, "{file}");
    paragraphs.join("\n\n")
}

/// An edited copy: the second sentence dropped, the fourth and fifth swapped, and `from`
/// replaced by `to` (a word for a word).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from}");
    let mut sentences: Vec<&str> = text.split_inclusive(". ").collect();
    assert!(sentences.len() > 10);
    sentences.swap(3, 4);
    sentences.remove(1);
    sentences.concat().replacen(from, to, 1)
}

#[test]
fn edited_seed_paragraphs_are_found_in_russian_and_ukrainian() {
    let Some(seeds) = shared_seeds() else { return };
    let cases = [
        (
            "000_1ed9e52e72259a4f.txt",
            "russian",
            "ru-nltk-151",
            "огромное",
            "большое",
        ),
        (
            "004_5af928cae171d628.txt",
            "ru",
            "ru-nltk-151",
            "документов",
            "текстов",
        ),
        (
            "003_b3807afdef5de029.txt",
            "ukrainian",
            "uk-iso-73",
            "значення",
            "величини",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut originals = Vec::new();
    for (file, name, id, from, to) in cases {
        let prose = seed_prose(&seeds, file, 5);
        let a = dir.path().join(format!("a-{file}"));
        let b = dir.path().join(format!("b-{file}"));
        std::fs::write(&a, &prose).unwrap();
        std::fs::write(&b, edit(&prose, from, to)).unwrap();
        found(a.to_str().unwrap(), b.to_str().unwrap(), name, id);
        // `auto` tells the paper's language and takes its list.
        let (v, _) = lengths(a.to_str().unwrap(), "auto");
        assert_eq!(v["stopwords"], id, "{file}");
        originals.push(a);
    }
    // Different papers are not: the test can fail.
    let v = json(&[
        "compare",
        "--json",
        "--stopwords",
        "russian",
        originals[0].to_str().unwrap(),
        originals[1].to_str().unwrap(),
    ]);
    assert_eq!(v["duplicate"], false, "{v}");
}

#[test]
fn seed_sentence_lengths_leave_out_the_lists_words() {
    let Some(seeds) = shared_seeds() else { return };
    let length_of = |file: &str, sentence: &str, stopwords: &str| {
        let text = std::fs::read_to_string(seeds.join(file)).unwrap();
        assert!(text.contains(sentence), "{file}: {sentence}");
        let (_, lengths) = with_file(sentence, |f| lengths(f, stopwords));
        assert_eq!(lengths.len(), 1, "{sentence}");
        lengths[0]
    };
    // 000: "Методы комплектования [при] [этом] зависят [от] изначально поставленных задач."
    let ru = "Методы комплектования при этом зависят от изначально поставленных задач.";
    assert_eq!(length_of("000_1ed9e52e72259a4f.txt", ru, "russian"), 6);
    assert_eq!(length_of("000_1ed9e52e72259a4f.txt", ru, "english"), 9);
    // 003: "[Цей] метод [є] узагальненим методом порівняння двох множин на схожість." (Stopwords-ISO's
    // Ukrainian list holds neither `на` nor `і`.)
    let uk = "Цей метод є узагальненим методом порівняння двох множин на схожість.";
    assert_eq!(length_of("003_b3807afdef5de029.txt", uk, "ukrainian"), 8);
    assert_eq!(length_of("003_b3807afdef5de029.txt", uk, "english"), 10);
}

/// Feng Jinbo's SL+ST paper (seed 002, traditional characters), §2's first paragraph; its words
/// and signature are worked out in tests/golden.rs.
const FENG_PARAGRAPH: &str = "以單詞或者n-grams為單位提取特征碼時,提取出的特征過多,為優(yōu)化性能,\
通常需要過濾某些特征,從一定程度上降低了準確率。本文以句子作為一個基本提取單位,將匹配出的兩個文檔間的公共句子塊作為一個特征。";

#[test]
fn an_edited_chinese_paragraph_is_found_with_the_chinese_list() {
    if let Some(seeds) = shared_seeds() {
        let paper = std::fs::read_to_string(seeds.join("002_9263c3c4b181bbca.txt")).unwrap();
        assert!(paper.contains(FENG_PARAGRAPH));
    }
    // Full-width commas for the ASCII ones, a word for a word (匹配 "match" → 比對 "compare").
    let edited = FENG_PARAGRAPH.replace(',', "，").replace("匹配", "比對");
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&a, FENG_PARAGRAPH).unwrap();
    std::fs::write(&b, &edited).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    found(a, b, "chinese", "zh-nltk-841");
    let (v, auto) = lengths(b, "auto");
    assert_eq!(v["stopwords"], "zh-nltk-841");
    assert_eq!(auto, [27, 19]);
    // No word of the English list is in the paragraph: every word counts, 34 and 23.
    assert_eq!(lengths(b, "english").1, [34, 23]);
}

#[test]
fn batch_pair_records_name_each_documents_list_with_auto() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    let ru = std::fs::read_to_string(common::repo().join(RU_RAIN)).unwrap();
    std::fs::write(corpus.join("ru-a.txt"), &ru).unwrap();
    let edited = ru.replace("Вечером все соседи", "Вечером все жильцы");
    std::fs::write(corpus.join("ru-b.txt"), edited).unwrap();
    for name in ["g0pA_taskb.txt", "orig_taskb.txt"] {
        let from = common::repo().join("corpora/clough").join(name);
        std::fs::copy(from, corpus.join(name)).unwrap();
    }
    let batch = |stopwords: &str, out: &str| {
        let out = dir.path().join(out);
        let args = [
            "batch",
            corpus.to_str().unwrap(),
            "-q",
            "--stopwords",
            stopwords,
            "--out",
            out.to_str().unwrap(),
        ];
        let o = slst(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        std::fs::read_to_string(out).unwrap()
    };
    // Each pair names its documents' lists: Russian for the Russian pair, English for the
    // English one.
    let lists = |jsonl: &str| -> Vec<(String, String, String)> {
        let record = |l: &str| -> serde_json::Value { serde_json::from_str(l).unwrap() };
        let text = |v: &serde_json::Value| v.as_str().unwrap_or("-").to_string();
        let mut out: Vec<_> = jsonl
            .lines()
            .map(record)
            .map(|v| {
                (
                    text(&v["a"]),
                    text(&v["stopwords_a"]),
                    text(&v["stopwords_b"]),
                )
            })
            .collect();
        out.sort();
        out
    };
    let auto = lists(&batch("auto", "auto.jsonl"));
    let expected = [
        ("g0pA_taskb.txt", "en-nltk-179", "en-nltk-179"),
        ("ru-a.txt", "ru-nltk-151", "ru-nltk-151"),
    ]
    .map(|(a, x, y)| (a.to_string(), x.to_string(), y.to_string()));
    assert_eq!(auto, expected);
    // TSV: the same two columns, last.
    let tsv = batch("auto", "auto.tsv");
    let mut rows: Vec<&str> = tsv.lines().collect();
    assert!(
        rows[0].ends_with("\tdecided_by\tcondition\tstopwords_a\tstopwords_b"),
        "{tsv}"
    );
    rows.sort();
    assert!(rows[1].ends_with("\ten-nltk-179\ten-nltk-179"), "{tsv}");
    assert!(rows[2].ends_with("\tru-nltk-151\tru-nltk-151"), "{tsv}");
    // A list of the run's own: no field, and empty columns.
    assert!(
        lists(&batch("ru", "ru.jsonl"))
            .iter()
            .all(|(_, x, y)| x == "-" && y == "-")
    );
    let tsv = batch("english", "en.tsv");
    assert!(tsv.lines().count() > 1, "{tsv}");
    assert!(tsv.lines().skip(1).all(|r| r.ends_with("\t\t")), "{tsv}");
}

/// Seed 000 (a Russian paper on building text collections), a paragraph of four sentences.
const RU_COLLECTIONS: &str = "Задача формирования тематической коллекции может быть частью других задач, таких как поиск плагиата, построение рубрикатора, составление реферата и др. \
Методы комплектования при этом зависят от изначально поставленных задач. \
Тексты могут копироваться с других сайтов, присылаться владельцами, сканироваться и распознаваться с бумажного носителя. \
По возможности тексты, включаемые в коллекцию, проходят ручную очистку и приводятся к читаемому виду (в основном это касается коммерческих электронных библиотек и полнотекстовых баз данных).";

#[test]
fn robust_stemming_takes_the_lists_language() {
    if let Some(seeds) = shared_seeds() {
        let paper = std::fs::read_to_string(seeds.join("000_1ed9e52e72259a4f.txt")).unwrap();
        assert!(paper.contains(RU_COLLECTIONS));
    }
    // Words that differ only in their endings: a case or a number changed, in every sentence.
    let mut edited = RU_COLLECTIONS.to_string();
    for (from, to) in [
        ("тематической коллекции", "тематических коллекций"),
        ("поставленных задач", "поставленной задачи"),
        ("с других сайтов", "с другого сайта"),
        (
            "проходят ручную очистку и приводятся",
            "проходит ручную очистку и приводится",
        ),
    ] {
        assert!(edited.contains(from), "{from}");
        edited = edited.replace(from, to);
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&a, RU_COLLECTIONS).unwrap();
    std::fs::write(&b, &edited).unwrap();
    let weakest = |stopwords: &str, stem: bool| {
        let mut args = vec![
            "compare",
            "--json",
            "--mode",
            "robust",
            "--stopwords",
            stopwords,
        ];
        if stem {
            args.push("--stem");
        }
        args.extend([a.to_str().unwrap(), b.to_str().unwrap()]);
        let v = json(&args);
        assert_eq!(v["blocks"].as_array().unwrap().len(), 1, "{v}");
        v["blocks"][0]["min_term_similarity"].as_f64().unwrap()
    };
    // Unstemmed, half the terms of the weakest sentence pair differ; stemmed by the Russian
    // Snowball stemmer (the list's language, or the list auto chose), none does. The English
    // stemmer leaves Cyrillic words as they are: it would give 0.5 too.
    assert_eq!(weakest("russian", false), 0.5);
    assert_eq!(weakest("russian", true), 1.0);
    assert_eq!(weakest("auto", true), 1.0);
}
