//! How many blocks Kosinov's weight function gives under other readings of the thesis (seed 004),
//! on real pages: the evidence behind results/web/README.md.
//!
//! ```text
//! cargo run --release --example block_readings -- corpora/web-versions/pages corpora/web-mirror/pages
//! ```
//!
//! For each folder of `.html` pages, each preset and each reading, it prints how many pages end in
//! 1, 2, 3, … blocks when the cutting runs until no text is left (no block cap). Readings:
//!
//! - `literal`: what `slst` does (SPEC §7.2–7.3): l and p are the text left in the subtree and in
//!   its parent's subtree after earlier cuts, the natural log, `html` at depth 1. The example
//!   checks that its own tree gives the block count of [`slst::web::parse_page`] on every page.
//! - `p-original`: l is what is left, p the parent's length before any cut.
//! - `static`: l and p as in the uncut page (weights computed once); a cut takes what is left.
//! - `depth+1`: depth counted from the document node (`html` at depth 2).
//! - `text-nodes`: every run of text is a DOM node of its own, one level below its element.
//! - `words`: lengths in words instead of characters.
//!
//! The log base is not a reading: both factors scale by 1/ln b, their product by a positive
//! constant, and the heaviest node stays the same.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use scraper::{Html, Node};
use slst::web::segment::weight;
use slst::web::{Preset, SegmentConfig, parse_page};

const INVISIBLE: &[&str] = &[
    "head", "script", "style", "template", "noscript", "svg", "math", "iframe", "object", "canvas",
    "select", "datalist",
];

#[derive(Clone, Copy)]
struct N {
    parent: Option<usize>,
    depth: usize,
    end: usize,
    chars: usize,
    words: usize,
}

fn hidden(e: &scraper::node::Element) -> bool {
    e.attr("hidden").is_some()
        || e.attr("style").is_some_and(|s| {
            let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            let s = s.to_ascii_lowercase();
            s.contains("display:none") || s.contains("visibility:hidden")
        })
}

/// The page's visible elements in preorder (text runs as nodes of their own with `text_nodes`).
fn tree(html: &str, text_nodes: bool) -> Vec<N> {
    let doc = Html::parse_document(html);
    let mut nodes: Vec<N> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut invisible = 0usize;
    for edge in doc.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(node) => match node.value() {
                Node::Element(e) => {
                    if invisible > 0 || INVISIBLE.contains(&e.name()) || hidden(e) {
                        invisible += 1;
                        continue;
                    }
                    nodes.push(N {
                        parent: open.last().copied(),
                        depth: open.len() + 1,
                        end: 0,
                        chars: 0,
                        words: 0,
                    });
                    open.push(nodes.len() - 1);
                }
                Node::Text(t) if invisible == 0 => {
                    let Some(&at) = open.last() else { continue };
                    let words = t.split_whitespace().count();
                    if words == 0 {
                        continue;
                    }
                    let chars = t
                        .split_whitespace()
                        .map(|w| w.chars().count())
                        .sum::<usize>()
                        + words
                        - 1;
                    if text_nodes {
                        nodes.push(N {
                            parent: Some(at),
                            depth: nodes[at].depth + 1,
                            end: nodes.len() + 1,
                            chars,
                            words,
                        });
                    } else {
                        nodes[at].chars += chars;
                        nodes[at].words += words;
                    }
                }
                _ => {}
            },
            ego_tree::iter::Edge::Close(node) => {
                if let Node::Element(_) = node.value() {
                    if invisible > 0 {
                        invisible -= 1;
                    } else if let Some(i) = open.pop() {
                        nodes[i].end = nodes.len();
                    }
                }
            }
        }
    }
    nodes
}

#[derive(Clone, Copy, PartialEq)]
enum Reading {
    Literal,
    POriginal,
    Static,
    DepthPlusOne,
    TextNodes,
    Words,
}

const READINGS: [(Reading, &str); 6] = [
    (Reading::Literal, "literal"),
    (Reading::POriginal, "p-original"),
    (Reading::Static, "static"),
    (Reading::DepthPlusOne, "depth+1"),
    (Reading::TextNodes, "text-nodes"),
    (Reading::Words, "words"),
];

/// Cut until no text is left; the number of blocks.
fn blocks(nodes: &[N], preset: Preset, reading: Reading) -> usize {
    let n = nodes.len();
    if n == 0 {
        return 0;
    }
    let own = |x: &N| {
        if reading == Reading::Words {
            x.words
        } else {
            x.chars
        }
    };
    let mut rem: Vec<usize> = nodes.iter().map(own).collect();
    for i in (1..n).rev() {
        if let Some(p) = nodes[i].parent {
            rem[p] += rem[i];
        }
    }
    let orig = rem.clone();
    let mut count = 0;
    while rem[0] > 0 {
        let mut best = (0, f64::NEG_INFINITY);
        for (i, x) in nodes.iter().enumerate() {
            if rem[i] == 0 {
                continue;
            }
            let (l, p) = match reading {
                Reading::Static => (orig[i], x.parent.map_or(orig[i], |p| orig[p])),
                Reading::POriginal => (rem[i], x.parent.map_or(orig[i], |p| orig[p])),
                _ => (rem[i], x.parent.map_or(rem[i], |p| rem[p])),
            };
            let d = x.depth + usize::from(reading == Reading::DepthPlusOne);
            let w = weight(preset, l as f64, p as f64, d);
            if w > best.1 {
                best = (i, w);
            }
        }
        let node = best.0;
        let taken = rem[node];
        for r in &mut rem[node..nodes[node].end] {
            *r = 0;
        }
        let mut up = nodes[node].parent;
        while let Some(p) = up {
            rem[p] -= taken;
            up = nodes[p].parent;
        }
        count += 1;
    }
    count
}

fn pages(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            pages(&p, out);
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
}

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: block_readings DIR…  (folders of .html pages)");
        std::process::exit(2);
    }
    for dir in dirs {
        let mut files = Vec::new();
        pages(Path::new(&dir), &mut files);
        println!(
            "{dir}: {} pages; pages by block count (uncapped)",
            files.len()
        );
        for preset in [Preset::Few, Preset::Default, Preset::Many] {
            let mut hist: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::new(); READINGS.len()];
            let mut agree = 0;
            for f in &files {
                let html = std::fs::read_to_string(f).unwrap();
                let plain = tree(&html, false);
                let split = tree(&html, true);
                for (k, (reading, _)) in READINGS.iter().enumerate() {
                    let t = if *reading == Reading::TextNodes {
                        &split
                    } else {
                        &plain
                    };
                    let b = blocks(t, preset, *reading);
                    *hist[k].entry(b).or_default() += 1;
                    if *reading == Reading::Literal {
                        let config = SegmentConfig {
                            preset,
                            max_blocks: Some(usize::MAX),
                        };
                        agree +=
                            usize::from(parse_page(&html, &config).segmentation.blocks.len() == b);
                    }
                }
            }
            println!(
                "  preset {} (literal agrees with slst on {agree} of {} pages)",
                preset.name(),
                files.len()
            );
            for (k, (_, name)) in READINGS.iter().enumerate() {
                let cells: Vec<String> = hist[k].iter().map(|(b, c)| format!("{b}:{c}")).collect();
                println!("    {name:<11} {}", cells.join(" "));
            }
        }
    }
}
