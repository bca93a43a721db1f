//! Every key's postings, as the walk reads them: which documents hold each key after a given
//! document, with the lengths of the sentences they hold it with.
//!
//! The postings are most of a corpus run's memory, so they are kept lean: per slot, where the
//! postings after its document's start (4 bytes); per posting of a key held by two documents or
//! more, its document and lengths, in 4 bytes up to 2²⁰ documents ([`Packing`]; 6 past them) — keys
//! held by one document (half of Reuters-21578's slots, a fifth of the synthetic corpus's) have
//! none, and no list keeps its first document's postings, which no walk reads. They are made
//! in passes over buckets of the keys' first terms, each sorting only its own keys, so the
//! sort's buffers are one pass's, not every slot's. The passes go largest first and the buffers
//! shrink to each next one's, so the last pass, when the postings are largest, has the smallest
//! buffers. Every pass lists the documents' slots again, but only what each key is made of: it
//! hashes the keys it takes, not the ones it leaves.

use rdst::RadixKey;

/// A posting as sorted: its key's low [`KEY_BITS`] bits with, above them, the lengths of the
/// sentences its slot witnesses ([`Slot::lengths`]), so that they move with it through the sort
/// rather than being fetched at random afterwards; and its holder (document rank << 32 | its
/// place in its pass).
///
/// [`Slot::lengths`]: super::super::keys::Slot::lengths
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub(super) packed: u64,
    pub(super) holder: u64,
}

/// The bits of a key a posting keeps (with its pass, what tells keys apart). Two keys of a pass
/// equal in them are one key: as for any collision of the 64-bit keys, that can only add
/// candidate pairs (about one key in 10⁶ at 10⁸ distinct keys), never lose one, unless the
/// two together are held by more than `max_df` documents.
const KEY_BITS: u32 = 48;
const KEY_LOW: u64 = (1 << KEY_BITS) - 1;

/// The bits of `key` a posting keeps ([`KEY_BITS`]): what tells keys apart in the postings,
/// and in [`Postings::left_out`].
pub(in super::super) fn kept_bits(key: u64) -> u64 {
    key & KEY_LOW
}

impl Entry {
    pub(super) fn new(key: u64, lengths: [u8; 2], holder: u64) -> Self {
        let lengths = u64::from(u16::from_le_bytes(lengths)) << KEY_BITS;
        Entry {
            packed: key & KEY_LOW | lengths,
            holder,
        }
    }

    pub(super) fn key(self) -> u64 {
        self.packed & KEY_LOW
    }

    pub(super) fn lengths(self) -> [u8; 2] {
        ((self.packed >> KEY_BITS) as u16).to_le_bytes()
    }
}

/// Bytes of a key the radix sort orders by: 5, so that it makes 9 passes instead of 12. Keys
/// equal in them and not in all [`KEY_BITS`] (about one key in 10⁵ on a corpus of 10⁷ keys) are
/// told apart afterwards, so that each key's document frequency — what makes it boilerplate — is
/// its own.
const KEY_BYTES: usize = 5;
pub(super) const KEY_MASK: u64 = (1 << (8 * KEY_BYTES)) - 1;

/// Postings sort by key, then document (a radix sort over those bytes, least significant
/// first; the slot number does not matter to the order).
impl RadixKey for Entry {
    const LEVELS: usize = KEY_BYTES + 4;

    #[inline]
    fn get_level(&self, level: usize) -> u8 {
        if level < 4 {
            (self.holder >> (32 + 8 * level)) as u8
        } else {
            (self.packed >> (8 * (level - 4))) as u8
        }
    }
}

/// Postings sorted in one pass at most, unless that takes more than [`PASS_BITS`] passes:
/// 2^24 entries, 256 MiB and 128 MiB of links. A corpus with more slots is sorted in passes
/// over buckets of its keys' first terms ([`bucket`]), so that the sort's buffers are one
/// pass's, not every slot's.
pub(super) const PASS_ENTRIES: usize = 1 << 24;
/// The most passes of the postings build: 2^5.
pub(super) const PASS_BITS: u32 = 5;

/// Marks the last posting of a key's list in [`Postings::holders`].
pub(super) const LAST: u32 = 1 << 31;
/// No postings after a slot's own: its key is held by no later document, or left out.
pub(super) const NONE: u32 = u32::MAX;

/// Every key's postings, as the walk reads them.
pub(super) struct Postings {
    /// Per global slot: the first posting after its own document's in its key's list (they
    /// run to the list's [`LAST`]), or [`NONE`]. Four bytes a slot, where a range would take
    /// eight: at scale this column is the largest the join keeps.
    pub(super) after: Vec<u32>,
    /// The document of each posting, as its rank in (size, index) order (below 2³¹), list
    /// after list, [`LAST`] set on each list's last; only keys held by two documents or more
    /// (and at most `max_df`) have a list, and it leaves out its first document's postings
    /// ([`first_run`]). With the lengths of its sentences in the bits the rank leaves free,
    /// when they fit ([`Packing`]).
    pub(super) holders: Vec<u32>,
    /// The lengths of the sentences each posting's slot witnesses ([`Slot::lengths`]), when
    /// they do not fit in its holder (else empty).
    ///
    /// [`Slot::lengths`]: super::super::keys::Slot::lengths
    pub(super) lengths: Vec<[u8; 2]>,
    /// Per global sentence: the postings its slots have after their own (what walking it
    /// costs), at most `u32::MAX`: a choice of which sentences to walk, which no count of
    /// that size would change. Four bytes a sentence.
    pub(super) cost: Vec<u32>,
    /// Per global slot, when only rare keys are looked up ([`super::rare`]): which of the
    /// sentences it witnesses look it up ([`super::rare::looks`]); else empty (all of them).
    pub(super) looks: Vec<u8>,
    /// Keys left out as boilerplate, as their [`kept_bits`], sorted: a sentence is not
    /// witnessed by one ([`super::walk`] counts the sentences its walk assumed without them).
    pub(super) left_out: Vec<u64>,
}

/// How a posting's lengths share its 32 bits with its document's rank and [`LAST`]: the rank
/// in the low `shift` bits, then the lengths' code (first · base + second, base one above the
/// corpus's longest kept sentence). With sentences of up to 35 terms (the default longest),
/// the code takes 11 bits, so up to 2²⁰ documents are packed; a larger corpus (or one that
/// keeps longer sentences) keeps the lengths in a column of their own, two bytes a posting
/// more. Packed, the walk reads one column instead of two, and the lists take a third less.
pub(super) struct Packing {
    /// Bits of the rank (0: not packed).
    shift: u32,
    /// Kept sentences' lengths are below it.
    base: u32,
    /// The lengths of each code; empty when not packed.
    table: Vec<[u8; 2]>,
}

impl Packing {
    /// How `n` documents' postings of sentences of at most `longest` terms (as [`Slot::lengths`]
    /// gives them: 255 at most) are packed.
    ///
    /// [`Slot::lengths`]: super::super::keys::Slot::lengths
    pub(super) fn new(n: usize, longest: usize) -> Self {
        let base = longest.min(u8::MAX as usize) as u32 + 1;
        let bits = |x: u32| u32::BITS - x.leading_zeros();
        let shift = bits(n.saturating_sub(1).min(u32::MAX as usize) as u32).max(1);
        if n as u64 > 1u64 << shift || shift + bits(base * base - 1) > 31 {
            return Packing {
                shift: 0,
                base,
                table: Vec::new(),
            };
        }
        let table = (0..base * base)
            .map(|code| [(code / base) as u8, (code % base) as u8])
            .collect();
        Packing { shift, base, table }
    }

    pub(super) fn packed(&self) -> bool {
        self.shift > 0
    }

    /// A packed holder: `rank` with `lengths` (each below the base).
    pub(super) fn pack(&self, rank: u32, lengths: [u8; 2]) -> u32 {
        let code = u32::from(lengths[0]) * self.base + u32::from(lengths[1]);
        code << self.shift | rank
    }

    /// The rank and lengths of the posting at `at`, whose holder is `holder`.
    #[inline]
    pub(super) fn unpack(&self, holder: u32, lengths: &[[u8; 2]], at: usize) -> (u32, [u8; 2]) {
        let holder = holder & !LAST;
        if self.packed() {
            let rank = holder & ((1 << self.shift) - 1);
            (rank, self.table[(holder >> self.shift) as usize])
        } else {
            (holder, lengths[at])
        }
    }
}

/// Buckets of the keys' first terms, which the postings are sorted in passes over.
pub(super) const BUCKETS: usize = 1 << PASS_BITS;

/// The bucket of the keys made with `first` as their first term
/// ([`KeyTerms::first`]): a multiplicative hash of it, so that a pass lists the
/// slots it takes without hashing the keys of the slots it leaves.
///
/// [`KeyTerms::first`]: super::super::keys::KeyTerms::first
pub(super) fn bucket(first: u64) -> usize {
    (first.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - PASS_BITS)) as usize
}

/// Where each of consecutive parts of the given sizes starts, and (last) where the last ends.
pub(super) fn offsets(sizes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut offsets = vec![0];
    for size in sizes {
        offsets.push(offsets[offsets.len() - 1] + size);
    }
    offsets
}

/// `v` cut into consecutive parts of the given lengths.
pub(in super::super) fn split_parts<T>(
    mut v: &mut [T],
    lengths: impl Iterator<Item = usize>,
) -> Vec<&mut [T]> {
    let mut parts = Vec::new();
    for length in lengths {
        let (part, tail) = std::mem::take(&mut v).split_at_mut(length);
        parts.push(part);
        v = tail;
    }
    parts
}

/// The lengths of about `count` pieces of sorted `entries` that cut no run of keys equal in
/// their sorted bytes: pieces to work on in parallel.
pub(super) fn pieces_at_keys(entries: &[Entry], count: usize) -> Vec<usize> {
    let mut lengths = Vec::with_capacity(count);
    let mut start = 0;
    for i in 1..=count {
        let mut end = (entries.len() * i / count).max(start);
        while end > 0
            && end < entries.len()
            && entries[end].packed & KEY_MASK == entries[end - 1].packed & KEY_MASK
        {
            end += 1;
        }
        lengths.push(end - start);
        start = end;
    }
    lengths
}

/// The postings of the first document holding a key, from its list (sorted by document): the
/// walk reads a list only after the walking document's own postings, so no walk reads these.
pub(super) fn first_run(list: &[Entry]) -> usize {
    let first = list[0].holder >> 32;
    list.iter().take_while(|e| e.holder >> 32 == first).count()
}

/// The documents holding a key, from its list (sorted by document).
pub(super) fn documents(list: &[Entry]) -> usize {
    1 + list
        .windows(2)
        .filter(|w| w[0].holder >> 32 != w[1].holder >> 32)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_keeps_its_key_bits_and_its_lengths_apart() {
        let key = 0xfedc_ba98_7654_3210;
        let e = Entry::new(key, [255, 7], 3 << 32 | 9);
        assert_eq!(e.key(), key & 0xffff_ffff_ffff);
        assert_eq!(e.lengths(), [255, 7]);
        assert_eq!(e.key(), Entry::new(key, [1, 2], 0).key());
        // The radix sort's bytes are the key's, never the lengths'.
        assert_eq!(e.packed & KEY_MASK, key & KEY_MASK);
    }

    /// A posting's rank and lengths come back as packed, with [`LAST`] set or not, up to the
    /// largest rank and lengths; corpora whose ranks and lengths need more than 31 bits keep the
    /// lengths apart.
    #[test]
    fn packed_holders_give_back_rank_and_lengths() {
        let fits = |n: usize, longest: usize| Packing::new(n, longest).packed();
        // 36 × 36 codes take 11 bits: 2²⁰ documents, not one more.
        assert!(fits(1 << 20, 35) && !fits((1 << 20) + 1, 35));
        assert!(fits(1 << 15, 255) && !fits((1 << 15) + 1, 255));
        // Lengths clamped at 255 as the slots give them.
        assert!(fits(2, 300) && !fits(1 << 16, 300));
        assert!(fits(1, 35) && fits(0, 0));
        for (n, longest) in [(1, 35), (2, 1), (1000, 35), (1 << 20, 35), (1 << 15, 255)] {
            let packing = Packing::new(n, longest);
            let (top, long) = (n.max(1) as u32 - 1, longest.min(255) as u8);
            for rank in [0, top / 2, top] {
                for lengths in [
                    [0, 0],
                    [1, long],
                    [long, 1],
                    [long, long],
                    [long / 2, long.min(3)],
                ] {
                    let holder = packing.pack(rank, lengths);
                    assert_eq!(holder & LAST, 0, "{n} {longest}");
                    for last in [0, LAST] {
                        let back = packing.unpack(holder | last, &[], 0);
                        assert_eq!(back, (rank, lengths), "{n} {longest} {last}");
                    }
                }
            }
        }
        // Not packed: the holder is the rank, the lengths are the column's.
        let apart = Packing::new((1 << 20) + 1, 35);
        assert_eq!(apart.unpack(7 | LAST, &[[1, 2], [3, 4]], 1), (7, [3, 4]));
    }
}
