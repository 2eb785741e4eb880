//! Which games the tools play, and where: what each game pair of a match
//! (or each game of datagen) starts from ([`openings`]: rule sets,
//! openings files, seeded random plies) and which pairs one machine of
//! several plays ([`shard`]). Read by `matches`, `datagen` and `pasang
//! openings`; tools, not the core.

pub mod openings;
pub mod shard;
