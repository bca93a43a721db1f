//! A text's language, as far as the stop-word lists need it (`--stopwords auto`).

use std::cell::Cell;

use whatlang::Lang;

/// How much of a text is read to tell its language: the opening is enough, and detection costs
/// time in proportion to what it reads.
const SAMPLE_BYTES: usize = 4096;

/// The ISO 639-1 code of `text`'s language, when whatlang tells it reliably and the language is
/// one with a built-in stop-word list; `None` otherwise.
///
/// # Example
/// ```
/// let ru = "Утром над городом прошёл сильный дождь, и улицы быстро опустели. \
///           К полудню небо прояснилось, а ветер стих.";
/// assert_eq!(slst::text::language(ru), Some("ru"));
/// assert_eq!(slst::text::language("12 34 56"), None);
/// ```
pub fn language(text: &str) -> Option<&'static str> {
    let mut end = text.len().min(SAMPLE_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let sample = &text[..end];
    // The last sample told on this thread, by its hash: a document's language is asked for
    // twice in a row (its sketch, then the record naming its list), and telling it costs far
    // more than hashing the sample.
    thread_local! {
        static LAST: Cell<Option<(u128, Option<&'static str>)>> = const { Cell::new(None) };
    }
    let key = xxhash_rust::xxh3::xxh3_128(sample.as_bytes());
    if let Some((last, code)) = LAST.get()
        && last == key
    {
        return code;
    }
    let told = whatlang::detect(sample)
        .filter(whatlang::Info::is_reliable)
        .and_then(|info| code(info.lang()));
    LAST.set(Some((key, told)));
    told
}

/// A language's ISO 639-1 code, for the languages with a built-in stop-word list.
fn code(lang: Lang) -> Option<&'static str> {
    Some(match lang {
        Lang::Ara => "ar",
        Lang::Aze => "az",
        Lang::Bel => "be",
        Lang::Ben => "bn",
        Lang::Cat => "ca",
        Lang::Cmn => "zh",
        Lang::Dan => "da",
        Lang::Deu => "de",
        Lang::Ell => "el",
        Lang::Eng => "en",
        Lang::Fin => "fi",
        Lang::Fra => "fr",
        Lang::Heb => "he",
        Lang::Hun => "hu",
        Lang::Ind => "id",
        Lang::Ita => "it",
        Lang::Nep => "ne",
        Lang::Nld => "nl",
        Lang::Nob => "no",
        Lang::Por => "pt",
        Lang::Ron => "ro",
        Lang::Rus => "ru",
        Lang::Slv => "sl",
        Lang::Spa => "es",
        Lang::Swe => "sv",
        Lang::Tam => "ta",
        Lang::Tur => "tr",
        Lang::Ukr => "uk",
        Lang::Uzb => "uz",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_told_has_a_built_in_list() {
        let told: Vec<&str> = Lang::all().iter().filter_map(|&l| code(l)).collect();
        assert_eq!(told.len(), 29);
        for code in told {
            assert!(crate::text::StopWords::builtin(code).is_some(), "{code}");
        }
    }

    #[test]
    fn russian_ukrainian_and_english_are_told_apart() {
        let uk = "Коефіцієнт Жаккара обчислюється таким чином. У відповідність кожному з \
                  векторів ставиться відповідна множина хешів.";
        assert_eq!(language(uk), Some("uk"));
        let en = "The cat sat on the mat, and the dog slept by the fire all afternoon.";
        assert_eq!(language(en), Some("en"));
        assert_eq!(language(""), None);
        // A sample cut inside a character is cut at the character before.
        let long = "ж".repeat(SAMPLE_BYTES);
        assert!(language(&format!("a{long}")).is_none_or(|c| c.len() == 2));
    }
}
