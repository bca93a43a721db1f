//! Clusters: connected components of the duplicate graph.

/// The connected components (two or more documents each) of the graph whose edges are
/// `pairs`, over documents `0..n`. Each cluster is sorted ascending, so its first member is its
/// representative (the earliest document); clusters are ordered by representative.
///
/// # Example
/// ```
/// let c = slst::batch::clusters(6, [(4, 5), (0, 2), (2, 4)].into_iter());
/// assert_eq!(c, vec![vec![0, 2, 4, 5]]);
/// ```
pub fn clusters(n: usize, pairs: impl Iterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut linked = vec![false; n];
    for (a, b) in pairs {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        // The smaller root wins, so a component's root is its earliest document.
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[hi] = lo;
        linked[a] = true;
        linked[b] = true;
    }
    let mut by_root: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (x, &is_linked) in linked.iter().enumerate() {
        if is_linked {
            let r = find(&mut parent, x);
            by_root[r].push(x);
        }
    }
    by_root.into_iter().filter(|c| c.len() >= 2).collect()
}
