//! Pasang for reinforcement learning: a fixed, compact action space
//! ([`action`]), AlphaZero-style observation planes ([`planes`]), the
//! board's symmetries on both ([`symmetry`]), many games stepped at
//! once ([`batch`]), which the Python module's environments wrap, and the
//! engine's distribution over the legal moves as a teacher ([`teacher`])
//! (docs/rl.md).

pub mod action;
pub mod batch;
pub mod planes;
pub mod symmetry;
pub mod teacher;
