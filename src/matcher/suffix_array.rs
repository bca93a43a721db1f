//! Suffix arrays with LCP over integer alphabets, behind one small trait.
//!
//! Two builders: [`Libsais`] (SA-IS, linear time, from the `libsais` crate) is used for real
//! work; [`NaiveSorter`] (comparison sort, O(n² log n) in the worst case) is the obviously correct
//! oracle the tests check it against.

/// A suffix array with its LCP array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuffixArrayLcp {
    /// `sa[r]` is the start of the suffix of rank `r`.
    pub sa: Vec<u32>,
    /// `lcp[r]` is the length of the longest common prefix of the suffixes of ranks `r - 1` and
    /// `r`; `lcp[0] = 0`.
    pub lcp: Vec<u32>,
}

/// Something that sorts the suffixes of an integer text.
pub trait SuffixSorter {
    /// The suffix array and LCP array of `text`, whose symbols lie in `0..alphabet_size`.
    /// `text` may be permuted during the call but is restored before it returns.
    fn sort(&self, text: &mut [i32], alphabet_size: usize) -> SuffixArrayLcp;
}

/// Suffix sorting by the `libsais` C library (SA-IS with PLCP/LCP), single-threaded.
///
/// Chosen over the `suffix` crate because that crate is `&str`-only, has no generalized table,
/// and its LCP is quadratic and runs across separators; `libsais` takes an integer alphabet, so
/// each document gets its own separator symbol and a sentence symbol can carry leading terms.
#[derive(Debug, Clone, Copy, Default)]
pub struct Libsais;

impl SuffixSorter for Libsais {
    fn sort(&self, text: &mut [i32], alphabet_size: usize) -> SuffixArrayLcp {
        use libsais::SuffixArrayConstruction;
        use libsais::suffix_array::AlphabetSize;
        assert!(
            text.len() < i32::MAX as usize && alphabet_size < i32::MAX as usize,
            "text of {} symbols is beyond the 32-bit suffix array",
            text.len()
        );
        debug_assert!(text.iter().all(|&c| c >= 0 && (c as usize) < alphabet_size));
        if text.is_empty() {
            return SuffixArrayLcp {
                sa: Vec::new(),
                lcp: Vec::new(),
            };
        }
        let construction = SuffixArrayConstruction::for_text_mut(text)
            .in_owned_buffer32()
            .single_threaded();
        // SAFETY: every symbol is non-negative and below `alphabet_size` (callers build the text
        // that way; checked above in debug builds).
        let construction =
            unsafe { construction.with_alphabet_size(AlphabetSize::new(alphabet_size as i32)) };
        let (sa, lcp) = construction
            .run()
            .and_then(|sa| sa.plcp_construction().single_threaded().run())
            .and_then(|plcp| plcp.lcp_construction().single_threaded().run())
            .map(|all| {
                let (sa, lcp, _, _) = all.into_parts();
                (sa.to_vec(), lcp.to_vec())
            })
            .unwrap_or_else(|e| panic!("libsais failed on a valid text: {e:?}"));
        SuffixArrayLcp {
            sa: sa.into_iter().map(|x| x as u32).collect(),
            lcp: lcp.into_iter().map(|x| x.max(0) as u32).collect(),
        }
    }
}

/// Suffix sorting by comparing suffixes directly: the test oracle.
#[derive(Debug, Clone, Copy, Default)]
pub struct NaiveSorter;

impl SuffixSorter for NaiveSorter {
    fn sort(&self, text: &mut [i32], _alphabet_size: usize) -> SuffixArrayLcp {
        let text = &*text;
        let mut sa: Vec<u32> = (0..text.len() as u32).collect();
        sa.sort_by(|&x, &y| text[x as usize..].cmp(&text[y as usize..]));
        let lcp = (0..sa.len())
            .map(|r| {
                if r == 0 {
                    return 0;
                }
                let (x, y) = (&text[sa[r - 1] as usize..], &text[sa[r] as usize..]);
                x.iter().zip(y).take_while(|(p, q)| p == q).count() as u32
            })
            .collect();
        SuffixArrayLcp { sa, lcp }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn libsais_equals_naive(mut text in proptest::collection::vec(0i32..4, 0..200)) {
            let expected = NaiveSorter.sort(&mut text.clone(), 4);
            let before = text.clone();
            let got = Libsais.sort(&mut text, 4);
            prop_assert_eq!(&text, &before, "text restored");
            prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn banana() {
        // b a n a n a  ->  a=0 b=1 n=2
        let mut t = vec![1, 0, 2, 0, 2, 0];
        let r = Libsais.sort(&mut t, 3);
        assert_eq!(r.sa, [5, 3, 1, 0, 4, 2]);
        assert_eq!(r.lcp, [0, 1, 3, 0, 0, 2]);
    }
}
