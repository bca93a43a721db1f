//! The one source of randomness of `synth` and `sample`: ChaCha8 with an explicit key and stream.
//!
//! Every draw goes through the few methods here, built on `next_u64` alone, so the numbers do not
//! depend on the algorithms of a general random-number crate (whose `gen_range` and `shuffle`
//! have changed between versions). ChaCha8 is a fixed cipher: the same key and stream give the
//! same words on every machine, in every thread count and in every version of `rand_chacha`.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// A seeded generator: ChaCha8 keyed with the seed (8 little-endian bytes, then 24 zero bytes) on
/// a numbered stream, so that independent tasks (choosing documents, editing document `i`) draw
/// from independent streams and do not shift each other when one of them changes.
#[derive(Debug, Clone)]
pub struct SeededRng(ChaCha8Rng);

impl SeededRng {
    /// The generator of `seed` on `stream`.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(stream);
        SeededRng(rng)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (rejection sampling, so without bias).
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0)");
        let n = n as u64;
        let zone = (u64::MAX / n) * n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// A uniform number in [0, 1) with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Shuffle in place (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// `k` distinct indices of `0..n`, in the order drawn (a partial Fisher–Yates shuffle).
    ///
    /// # Panics
    /// If `k > n`.
    pub fn choose(&mut self, n: usize, k: usize) -> Vec<usize> {
        assert!(k <= n, "choose({n}, {k})");
        let mut pool: Vec<usize> = (0..n).collect();
        for i in 0..k {
            let j = i + self.below(n - i);
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_pinned() {
        // The first words of ChaCha8 with key = seed 1 (little-endian) and stream 0. If a new
        // version of rand_chacha changed them, every synthetic corpus would change: this test says
        // so before anyone is surprised.
        let mut rng = SeededRng::new(1, 0);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        let mut again = SeededRng::new(1, 0);
        assert_eq!(first, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        assert_ne!(first, {
            let mut other = SeededRng::new(1, 1);
            (0..3).map(|_| other.next_u64()).collect::<Vec<_>>()
        });
        assert_eq!(first, PINNED);
    }

    /// Recorded from the first run of `stream_is_pinned`.
    const PINNED: [u64; 3] = [
        7037237572835827407,
        5440448899038119230,
        14725191807199933458,
    ];

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = SeededRng::new(7, 3);
        let mut seen = [0usize; 5];
        for _ in 0..1000 {
            seen[rng.below(5)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
    }

    #[test]
    fn choose_gives_distinct_indices() {
        let mut rng = SeededRng::new(0, 0);
        let mut c = rng.choose(10, 10);
        c.sort_unstable();
        assert_eq!(c, (0..10).collect::<Vec<_>>());
        assert_eq!(rng.choose(10, 3).len(), 3);
    }
}
