//! Inputs found by coverage-guided fuzzing (`fuzz/`, `scripts/fuzz.sh`), minimised: each once
//! made the library panic or break an invariant it documents.

use slst::corpus::sgml::{SgmlOptions, read_sgml};
use slst::corpus::{Item, SourceOptions, read_stream};

/// An id element holding only a tag (blanked to spaces) is no id: the document is skipped with
/// its line, not read with an id of spaces. Ids are trimmed after tags and entities are undone.
#[test]
fn trec_id_of_only_markup_is_no_id() {
    let err = read_sgml("<DOC><DOCNO><X>", &SgmlOptions::trec()).unwrap_err();
    assert!(err.detail.contains("without a non-empty <DOCNO>"), "{err:?}");
    let items: Vec<Item> =
        read_stream(&b"<DOC><DOCNO><X>"[..], "vol", &SourceOptions::default()).collect();
    assert!(matches!(&items[..], [Item::Skipped(s)] if s.location == "vol:1"), "{items:?}");
    let docs = read_sgml(
        "<DOC><DOCNO> A<B> </DOCNO><TEXT>x</TEXT></DOC><DOC><DOCNO>&#32;B&#32;</DOCNO></DOC>",
        &SgmlOptions::trec(),
    )
    .unwrap();
    assert_eq!(docs[0].id, "A");
    assert_eq!(docs[1].id, "B");
}
