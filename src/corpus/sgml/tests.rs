use std::io::Read;

use super::*;

#[test]
fn a_limit_keeps_memory_bounded_and_the_next_document_whole() {
    let long = "x ".repeat(3 << 20);
    let stream = format!(
        "<DOC>\n<DOCNO>a</DOCNO><TEXT>{long}</TEXT></DOC>\n<DOC>\n<DOCNO>b</DOCNO></DOC>\n\
         <DOC><DOCNO>c</DOCNO><TEXT>{long}"
    );
    let mut splitter = SgmlSplitter::new(stream.as_bytes(), "DOC").with_limit(1000);
    let a = splitter.next_document().unwrap().unwrap();
    assert_eq!(
        (a.bytes.len(), a.len, a.line),
        (1001, long.len() as u64 + 41, 1)
    );
    assert!(a.bytes.starts_with(b"<DOC>\n<DOCNO>a</DOCNO>"));
    let b = splitter.next_document().unwrap().unwrap();
    assert_eq!(b.bytes, b"<DOC>\n<DOCNO>b</DOCNO></DOC>");
    assert_eq!((b.len, b.line), (b.bytes.len() as u64, 3));
    // Each element's place in the stream, the long one read past included.
    let at = |e: &RawElement| &stream.as_bytes()[e.start as usize..];
    assert_eq!((a.start, at(&b).starts_with(&b.bytes)), (0, true));
    assert_eq!(b.start, a.len + 1);
    // Never closed: runs to the end, still counted.
    let c = splitter.next_document().unwrap().unwrap();
    assert_eq!(
        (c.bytes.len(), c.len, c.line),
        (1001, long.len() as u64 + 27, 5)
    );
    assert_eq!(c.start + c.len, stream.len() as u64);
    assert!(at(&c).starts_with(&c.bytes));
    assert!(splitter.next_document().unwrap().is_none());
}

const AP: &str = "<DOC>\n<DOCNO> AP900101-0001 </DOCNO>\n<FILEID>AP-NR-01-01-90 2359EST</FILEID>\n<HEAD>Markets Rally</HEAD>\n<TEXT>\n   NEW YORK (AP) _ Stocks rose on\nWednesday. AT&T gained <5%.\n</TEXT>\n</DOC>\n<doc>\n<docno>AP900101-0002</docno>\n<text>Second story.</text>\n<text>Its second part.</text>\n</doc>\n";

#[test]
fn reads_documents_case_insensitively_with_bare_ampersands() {
    let docs = read_sgml(AP, &SgmlOptions::trec()).unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].id, "AP900101-0001");
    assert!(docs[0].text.contains("AT&T gained <5%."));
    assert!(!docs[0].text.contains("Markets Rally"));
    assert_eq!(docs[1].id, "AP900101-0002");
    assert_eq!(docs[1].text, "Second story.\n\nIts second part.");
}

#[test]
fn headlines_come_first_when_asked() {
    let opts = SgmlOptions {
        include_headlines: true,
        ..SgmlOptions::trec()
    };
    let docs = read_sgml(AP, &opts).unwrap();
    assert!(docs[0].text.starts_with("Markets Rally\n\n"));
}

#[test]
fn missing_final_close_tag_and_unclosed_text_are_tolerated() {
    let sgml =
        "<DOC>\n<DOCNO>FT911-2</DOCNO>\n<TEXT>\nShares rose. <P> Unclosed paragraph tag here.\n";
    let docs = read_sgml(sgml, &SgmlOptions::trec()).unwrap();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].id, "FT911-2");
    let t = &docs[0].text;
    assert!(
        t.contains("Shares rose. \n\n  Unclosed paragraph tag here."),
        "{t:?}"
    );
}

#[test]
fn inner_tags_keep_byte_offsets() {
    let sgml = "<DOC><DOCNO>X</DOCNO><TEXT>Language: <F P=105> English </F> here.</TEXT></DOC>";
    let docs = read_sgml(sgml, &SgmlOptions::trec()).unwrap();
    let raw = "Language: <F P=105> English </F> here.";
    assert_eq!(docs[0].text.len(), raw.len());
    let at = raw.find(" here.").unwrap();
    assert_eq!(&docs[0].text[at..], " here.");
    assert_eq!(&docs[0].text[..10], "Language: ");
}

#[test]
fn entities_are_decoded_in_place() {
    let sgml = "<DOC><DOCNO>X</DOCNO><TEXT>Lot &amp; his wife; AT&T &lt;5% &#8217;tis &#x41;.</TEXT></DOC>";
    let t = &read_sgml(sgml, &SgmlOptions::trec()).unwrap()[0].text;
    assert_eq!(t, "Lot & his wife; AT&T <5% \u{2019}tis A.");
}

#[test]
fn doc_without_docno_is_an_error_with_its_line() {
    let sgml = "<DOC>\n<DOCNO>A</DOCNO><TEXT>x</TEXT></DOC>\n<DOC>\n<TEXT>y</TEXT>\n</DOC>\n";
    let err = read_sgml(sgml, &SgmlOptions::trec()).unwrap_err();
    assert_eq!(err.line, 3);
}

#[test]
fn docno_and_docid_tags_are_not_doc_tags() {
    assert!(!looks_like_trec("<DOCNO>x</DOCNO>"));
    assert!(looks_like_trec("\u{FEFF}\n <doc>\n"));
    assert!(looks_like_trec("<DOC id=\"1\">"));
}

#[test]
fn reuters_reads_as_it_ships() {
    let sgml = "<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n<REUTERS TOPICS=\"YES\" OLDID=\"5544\" NEWID=\"1\">\n<TEXT>&#2;\n<TITLE>BAHIA COCOA REVIEW</TITLE>\n<DATELINE>    SALVADOR, Feb 26 - </DATELINE><BODY>Showers continued throughout\nthe week. Comissaria Smith &amp; Co said.\n&#3;</BODY></TEXT>\n</REUTERS>\n<REUTERS NEWID=2><TEXT><BODY>Second.</BODY></TEXT></REUTERS>";
    let docs = read_sgml(sgml, &SgmlOptions::reuters()).unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!((docs[0].id.as_str(), docs[0].line), ("1", 2));
    assert!(
        docs[0]
            .text
            .starts_with("BAHIA COCOA REVIEW\n\nShowers continued"),
        "{:?}",
        docs[0].text
    );
    assert!(docs[0].text.contains("Smith & Co said."));
    assert!(!docs[0].text.contains("SALVADOR"));
    assert_eq!(docs[1].id, "2");
}

#[test]
fn splitter_streams_documents_across_small_reads() {
    // A reader that hands out 7 bytes at a time forces tags to straddle reads.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(7).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut splitter = SgmlSplitter::new(Trickle(AP.as_bytes()), "DOC");
    let mut ids = Vec::new();
    while let Some(raw) = splitter.next_document().unwrap() {
        let element = String::from_utf8(raw.bytes).unwrap();
        ids.push((
            parse_document(&element, raw.line, &SgmlOptions::trec())
                .unwrap()
                .id,
            raw.line,
        ));
    }
    assert_eq!(
        ids,
        [
            ("AP900101-0001".to_string(), 1),
            ("AP900101-0002".to_string(), 10)
        ]
    );
}

#[test]
fn text_without_doc_is_an_error() {
    assert!(read_sgml("just text", &SgmlOptions::trec()).is_err());
    assert_eq!(read_sgml("  \n", &SgmlOptions::trec()).unwrap(), vec![]);
}
