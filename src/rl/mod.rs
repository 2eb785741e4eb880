//! Pasang for reinforcement learning: a fixed, compact action space
//! ([`action`]), AlphaZero-style observation planes ([`planes`]), the
//! board's symmetries on both ([`symmetry`]), and many games stepped at
//! once ([`batch`]), which the Python module's environments wrap
//! (docs/rl.md).

pub mod action;
pub mod batch;
pub mod planes;
pub mod symmetry;
pub mod teacher;
