//! Unit tests of robust SL+ST.
use super::matching::*;
use super::sketch::*;
use super::*;
use crate::method::Evidence;

mod corpus;
mod decision;
mod search;
mod units;

fn detector() -> RobustSlst {
    RobustSlst::new(RobustConfig::default()).unwrap()
}

/// J ≥ θ alone decides: no containment rule, no figure or word-agreement condition.
fn loose_config() -> RobustConfig {
    RobustConfig {
        contained: 0.0,
        min_figure_containment: 0.0,
        min_agreement: 0.0,
        min_term_containment: 0.0,
        figure_swaps: 0,
        flash_edits: 0,
        ..RobustConfig::default()
    }
}

#[test]
fn invalid_settings_are_rejected() {
    for cfg in [
        RobustConfig {
            min_block: 0,
            ..RobustConfig::default()
        },
        RobustConfig {
            term_similarity: 0.0,
            ..RobustConfig::default()
        },
        RobustConfig {
            single_similarity: 0.2,
            ..RobustConfig::default()
        },
        RobustConfig {
            anchor_terms: 1,
            ..RobustConfig::default()
        },
    ] {
        assert!(RobustSlst::new(cfg).is_err());
    }
}
