//! Ground truth: which pairs of documents are near-duplicates.

use std::collections::{HashMap, HashSet};

/// An unordered pair of document ids, stored with the smaller id first.
pub type IdPair = (String, String);

/// Order a pair canonically.
pub fn id_pair(a: &str, b: &str) -> IdPair {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// Labelled pairs: the positives, and (for pair files) the listed negatives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Truth {
    /// Pairs that are near-duplicates.
    pub positives: HashSet<IdPair>,
    /// Pairs listed as not near-duplicates (pair files only).
    pub negatives: HashSet<IdPair>,
}

impl Truth {
    /// Every pair listed, positive or negative.
    pub fn listed(&self) -> impl Iterator<Item = &IdPair> {
        self.positives.iter().chain(&self.negatives)
    }
}

/// Read a pair file: `id_a<TAB>id_b<TAB>label` per line (a header line allowed; blank lines and
/// `#` comments skipped). A label is positive when it is in `positive` (default `1`); every other
/// label is a listed negative. A pair listed twice is positive when either line says so.
///
/// # Errors
/// The 1-based line and what is wrong with it.
///
/// # Example
/// ```
/// use slst::eval::truth::read_pairs;
/// let t = read_pairs("docno_a\tdocno_b\trelation\nA\tB\tlight\nA\tC\theavy\n", &["light"]).unwrap();
/// assert_eq!((t.positives.len(), t.negatives.len()), (1, 1));
/// ```
pub fn read_pairs(text: &str, positive: &[&str]) -> Result<Truth, (usize, String)> {
    let positive: Vec<&str> = if positive.is_empty() {
        vec!["1"]
    } else {
        positive.to_vec()
    };
    let mut truth = Truth::default();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        if fields.len() < 3 {
            if k == 0 {
                continue;
            }
            return Err((
                k + 1,
                format!(
                    "expected id_a<TAB>id_b<TAB>label, found {} field(s)",
                    fields.len()
                ),
            ));
        }
        let label = fields[2];
        if k == 0
            && !positive.contains(&label)
            && !matches!(label, "0" | "1")
            && label.parse::<f64>().is_err()
        {
            // A header such as "docno_a docno_b relation".
            let looks_like_header = fields[..2]
                .iter()
                .any(|f| f.contains("id") || f.contains("doc"));
            if looks_like_header {
                continue;
            }
        }
        let pair = id_pair(fields[0], fields[1]);
        if positive.contains(&label) {
            truth.negatives.remove(&pair);
            truth.positives.insert(pair);
        } else if !truth.positives.contains(&pair) {
            truth.negatives.insert(pair);
        }
    }
    Ok(truth)
}

/// Read a cluster file: `cluster_id<TAB>doc_id` per line, or one cluster per line as
/// `cluster_id<TAB>id id id` (the ids separated by spaces); a header line is allowed. Every pair
/// inside a cluster is positive.
///
/// # Errors
/// The 1-based line and what is wrong with it.
///
/// # Example
/// ```
/// use slst::eval::truth::read_clusters;
/// let t = read_clusters("cluster_id\tdoc_id\n1\tA\n1\tB\n2\tC\n").unwrap();
/// assert_eq!(t.positives.len(), 1);
/// let t = read_clusters("cluster_id\tdocnos\nx\tA B C\n").unwrap();
/// assert_eq!(t.positives.len(), 3);
/// ```
pub fn read_clusters(text: &str) -> Result<Truth, (usize, String)> {
    let mut clusters: HashMap<String, Vec<String>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        if fields.len() != 2 {
            return Err((
                k + 1,
                format!(
                    "expected cluster_id<TAB>doc_id or cluster_id<TAB>ids, found {} fields",
                    fields.len()
                ),
            ));
        }
        let ids: Vec<&str> = fields[1].split_whitespace().collect();
        if k == 0 && (fields[0].contains("cluster") || fields[1].contains("doc")) {
            continue; // header
        }
        let entry = clusters.entry(fields[0].to_string()).or_insert_with(|| {
            order.push(fields[0].to_string());
            Vec::new()
        });
        entry.extend(ids.iter().map(|s| s.to_string()));
    }
    let mut truth = Truth::default();
    for c in order {
        let ids = &clusters[&c];
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                if a != b {
                    truth.positives.insert(id_pair(a, b));
                }
            }
        }
    }
    Ok(truth)
}

/// Read a file of pairs to ignore: `id_a<TAB>id_b…` per line (a header line allowed; further
/// fields ignored).
pub fn read_ignore(text: &str) -> HashSet<IdPair> {
    text.lines()
        .enumerate()
        .filter_map(|(k, line)| {
            let f: Vec<&str> = line
                .trim_end_matches('\r')
                .split('\t')
                .map(str::trim)
                .collect();
            let header = k == 0
                && f.iter()
                    .take(2)
                    .any(|x| x.contains("id") || x.contains("doc"));
            (f.len() >= 2 && !f[0].is_empty() && !header && !line.starts_with('#'))
                .then(|| id_pair(f[0], f[1]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_labels_and_header() {
        let t = read_pairs("a\tb\t1\nb\tc\t0\nc\ta\t1\n", &[]).unwrap();
        assert_eq!(
            t.positives,
            [id_pair("a", "b"), id_pair("a", "c")].into_iter().collect()
        );
        assert_eq!(t.negatives, [id_pair("b", "c")].into_iter().collect());
        let t = read_pairs(
            "docno_a\tdocno_b\trelation\nX\tY\tlight\nX\tZ\theavy\n",
            &["light", "heavy"],
        )
        .unwrap();
        assert_eq!(t.positives.len(), 2);
        assert!(read_pairs("a\tb\t1\njunk\n", &[]).is_err());
    }

    #[test]
    fn clusters_both_layouts() {
        let t = read_clusters("1\tA\n1\tB\n1\tC\n2\tD\n").unwrap();
        assert_eq!(t.positives.len(), 3);
        let t = read_clusters("cluster_id\tdocs\n1\t4 16\n2\t32 55 60\n").unwrap();
        assert_eq!(t.positives.len(), 4);
        assert!(read_clusters("1\tA\tB\n").is_err());
    }

    #[test]
    fn ignore_list() {
        let i = read_ignore("docno_a\tdocno_b\tx\nK1\tK2\t3\n");
        assert_eq!(i, [id_pair("K1", "K2")].into_iter().collect());
    }
}
