//! Extending a seed word by word: X-drop extension (as in BLAST, over words instead of
//! residues).
//!
//! From a seed's edge, the two texts are walked outwards in step: an equal word scores +1; where
//! the words differ, the walk looks a few words ahead on either side for the next two equal
//! words in a row (a substituted, inserted or deleted word — a typo, a scraping artefact, a
//! light edit) and pays one point per word skipped. The walk stops when the score falls more
//! than `x_drop` below the best score seen, or when no resynchronisation is in reach, and the
//! extension ends at the best-scoring point: always on an equal word, never on a skipped one.

use super::words::Word;

/// How far extension looks and how much it tolerates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExtendConfig {
    /// The most words skipped on one side to resynchronise after a difference.
    pub lookahead: usize,
    /// The walk stops when its score is this far below the best score seen.
    pub x_drop: i64,
}

/// One side of the walk: a sequence of word hashes read forwards or backwards from a position.
struct Side<'a> {
    words: &'a [Word],
    /// Forwards: the next word is `words[from + k]`; backwards: `words[from - 1 - k]`.
    from: usize,
    forwards: bool,
}

impl Side<'_> {
    fn len(&self) -> usize {
        if self.forwards {
            self.words.len() - self.from
        } else {
            self.from
        }
    }

    fn at(&self, k: usize) -> u64 {
        if self.forwards {
            self.words[self.from + k].hash
        } else {
            self.words[self.from - 1 - k].hash
        }
    }
}

/// The two sides of a walk from word `a_from` of `a` and `b_from` of `b`.
fn sides<'a>(
    a: &'a [Word],
    a_from: usize,
    b: &'a [Word],
    b_from: usize,
    forwards: bool,
) -> (Side<'a>, Side<'a>) {
    let side = |words, from| Side {
        words,
        from,
        forwards,
    };
    (side(a, a_from), side(b, b_from))
}

/// The nearest point at or after `(i, j)` — at least `min_skip` words skipped in all, at most
/// `lookahead` on each side — where the two sides agree on two words in a row: the words
/// skipped on each side.
fn nearest_pair(
    sa: &Side,
    sb: &Side,
    (i, j): (usize, usize),
    min_skip: usize,
    lookahead: usize,
) -> Option<(usize, usize)> {
    let (na, nb) = (sa.len(), sb.len());
    for cost in min_skip..=2 * lookahead {
        for di in cost.saturating_sub(lookahead)..=cost.min(lookahead) {
            let dj = cost - di;
            let (x, y) = (i + di, j + dj);
            if x + 1 < na && y + 1 < nb && sa.at(x) == sb.at(y) && sa.at(x + 1) == sb.at(y + 1) {
                return Some((di, dj));
            }
        }
    }
    None
}

/// How many words the extension takes on each side, walking from word `a_from` of `a` and
/// `b_from` of `b` — forwards (the words at and after the positions) or backwards (the words
/// before them).
pub fn extend(
    a: &[Word],
    a_from: usize,
    b: &[Word],
    b_from: usize,
    forwards: bool,
    config: ExtendConfig,
) -> (usize, usize) {
    let (sa, sb) = sides(a, a_from, b, b_from, forwards);
    let (na, nb) = (sa.len(), sb.len());
    let (mut i, mut j, mut score) = (0usize, 0usize, 0i64);
    let mut best = (0i64, 0usize, 0usize);
    loop {
        if i < na && j < nb && sa.at(i) == sb.at(j) {
            i += 1;
            j += 1;
            score += 1;
            if score > best.0 {
                best = (score, i, j);
            }
            continue;
        }
        // A difference (or an end): the nearest resynchronisation on two equal words in a row.
        let resync = nearest_pair(&sa, &sb, (i, j), 1, config.lookahead);
        let Some((di, dj)) = resync else { break };
        score -= (di + dj) as i64;
        if score < best.0 - config.x_drop {
            break;
        }
        i += di;
        j += dj;
    }
    (best.1, best.2)
}

/// The first point, walking from word `a_from` of `a` and `b_from` of `b` (forwards, or backwards
/// from before them), where the two texts agree on two words in a row, at most `lookahead` words
/// in on each side: how many words each side skips to reach it. A seed's edge words can differ
/// (units match on their term sets, not word for word); extension starts from this point
/// instead, so a passage never begins or ends on words the two texts do not share.
pub fn sync(
    a: &[Word],
    a_from: usize,
    b: &[Word],
    b_from: usize,
    forwards: bool,
    lookahead: usize,
) -> Option<(usize, usize)> {
    let (sa, sb) = sides(a, a_from, b, b_from, forwards);
    nearest_pair(&sa, &sb, (0, 0), 0, lookahead)
}

#[cfg(test)]
mod tests {
    use super::super::words::words;
    use super::*;

    const CONFIG: ExtendConfig = ExtendConfig {
        lookahead: 3,
        x_drop: 6,
    };

    #[test]
    fn stops_at_the_last_equal_word() {
        let a = words("alpha beta gamma delta one two");
        let b = words("alpha beta gamma delta three four five");
        assert_eq!(extend(&a, 0, &b, 0, true, CONFIG), (4, 4));
    }

    #[test]
    fn steps_over_a_substituted_word() {
        let a = words("learn how to take data from your gps and more");
        let b = words("leam how to take data from your gps but then");
        assert_eq!(extend(&a, 0, &b, 0, true, CONFIG), (8, 8));
    }

    #[test]
    fn finds_the_first_two_shared_words() {
        let a = words("The bachelor degree program is open");
        let b = words("Note the bachelor degree program is open");
        assert_eq!(sync(&a, 0, &b, 0, true, 3), Some((0, 1)));
        // Backwards from the ends: "open is" agree at once.
        assert_eq!(sync(&a, 6, &b, 7, false, 3), Some((0, 0)));
        assert_eq!(
            sync(&a, 0, &words("nothing alike here at all"), 0, true, 3),
            None
        );
    }

    #[test]
    fn walks_backwards_from_a_position() {
        let a = words("x y z the shared words here");
        let b = words("q the shared words here");
        // From the ends backwards: "here words shared the" are equal, then z ≠ q.
        assert_eq!(extend(&a, 7, &b, 5, false, CONFIG), (4, 4));
    }
}
