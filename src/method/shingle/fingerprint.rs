//! Shingle fingerprints: Karp–Rabin over the terms' hashes, rolled in O(1) per shingle, or
//! CRC-32 of the shingle text (seed 001).

use super::ShingleHash;
use crate::text::Terms;

/// The Mersenne prime 2⁶¹ − 1, the modulus of the Karp–Rabin fingerprints.
pub const MERSENNE_61: u64 = (1 << 61) - 1;

/// The base of the Karp–Rabin polynomial: the 64-bit golden-ratio constant with its top four
/// bits cleared (so below 2⁶¹ − 1). Fixed, so fingerprints are the same on every run and
/// platform.
pub(super) const KARP_RABIN_BASE: u64 = 0x0E37_79B9_7F4A_7C15;

/// The fingerprints of every w-shingle of `terms`, in text order; one shingle of all the terms
/// when there are fewer than w (and none when there are no terms).
///
/// # Panics
/// When `w == 0`.
///
/// # Example
/// Seed 001's example: the canonical Belinsky quotation, 10-word shingles, CRC-32.
/// ```
/// use slst::method::{Terms, ShingleHash, shingle_fingerprints};
/// use slst::text::StopWords;
/// let t = Terms::new("разум дан человеку того чтобы разумно жил того только чтобы понимал \
///     неразумно живет", &StopWords::none());
/// assert_eq!(shingle_fingerprints(&t, 10, ShingleHash::Crc32),
///            [1313803605, 3217022851, 2285677181, 1772759749]);
/// ```
pub fn shingle_fingerprints(terms: &Terms, w: usize, hash: ShingleHash) -> Vec<u64> {
    assert!(w > 0, "a shingle holds at least one term");
    let n = terms.len();
    if n == 0 {
        return Vec::new();
    }
    let w = w.min(n);
    match hash {
        ShingleHash::Crc32 => (0..=n - w)
            .map(|i| u64::from(crc32fast::hash(terms.window(i, w).as_bytes())))
            .collect(),
        ShingleHash::Rabin => {
            let h: Vec<u64> = terms.iter().map(term_hash).collect();
            karp_rabin_windows(&h, w)
        }
    }
}

/// A term's hash for Karp–Rabin: XXH3-64 of its UTF-8 bytes, reduced mod 2⁶¹ − 1.
pub fn term_hash(term: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(term.as_bytes()) % MERSENNE_61
}

/// a·b mod 2⁶¹ − 1, for a, b < 2⁶¹ − 1.
pub(super) fn mul_mod(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    let r = (p as u64 & MERSENNE_61) + (p >> 61) as u64;
    if r >= MERSENNE_61 { r - MERSENNE_61 } else { r }
}

/// a + b mod 2⁶¹ − 1, for a, b < 2⁶¹ − 1.
pub(super) fn add_mod(a: u64, b: u64) -> u64 {
    let r = a + b;
    if r >= MERSENNE_61 { r - MERSENNE_61 } else { r }
}

/// The Karp–Rabin fingerprint Σ h_k·B^(w−1−k) mod 2⁶¹ − 1 of every window of `w` values of
/// `h` (each below 2⁶¹ − 1), rolled: F(i+1) = (F(i) − h_i·B^(w−1))·B + h_(i+w).
///
/// # Panics
/// When `w == 0` or `w > h.len()`.
pub fn karp_rabin_windows(h: &[u64], w: usize) -> Vec<u64> {
    assert!(
        w > 0 && w <= h.len(),
        "window of {w} over {} values",
        h.len()
    );
    let b = KARP_RABIN_BASE;
    let top = (1..w).fold(1, |acc, _| mul_mod(acc, b)); // B^(w−1)
    let mut f = h[..w].iter().fold(0, |acc, &x| add_mod(mul_mod(acc, b), x));
    let mut out = Vec::with_capacity(h.len() - w + 1);
    out.push(f);
    for i in 0..h.len() - w {
        let drop = mul_mod(h[i], top);
        f = add_mod(mul_mod(add_mod(f, MERSENNE_61 - drop), b), h[i + w]);
        out.push(f);
    }
    out
}
