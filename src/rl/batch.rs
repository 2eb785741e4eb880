//! Many games stepped at once, for vectorised environments: each game
//! takes an action id per step, and the caller's buffers get every game's
//! planes, legal-action mask, reward, end flag and side to move. A game
//! that ends starts again at once (the buffers then show the new game),
//! as Gymnasium's vector environments do in their same-step mode. Games
//! are stepped on rayon's threads. A batch's whole state is a short text
//! ([`Batch::state`]), so a copy continues exactly as the original.

use rayon::prelude::*;

use crate::movegen::legal_moves;
use crate::moves::{MAX_MOVES, Move};
use crate::notation::{format_position, parse_position, start_position};
use crate::outcome::Status;
use crate::position::{Player, Position};
use crate::rules::Rules;

use super::action::{ACTIONS, encode};
use super::planes::{LEN, write};

/// Fewest games a thread takes at a time: below this a game's step (about
/// a microsecond) costs less than handing it to another thread.
const MIN_GAMES_PER_TASK: usize = 64;

/// One game of the batch.
#[derive(Clone)]
struct Slot {
    position: Position,
    ply: u16,
    /// The ids of the legal moves and the moves, in the same order: the
    /// mask's set entries, cleared one by one at the next step.
    ids: [u16; MAX_MOVES],
    moves: [Option<Move>; MAX_MOVES],
    count: u8,
    rng: Stream,
}

/// A game's random stream (SplitMix64): its whole state is one number,
/// which [`Batch::state`] writes out and [`Batch::restore`] reads back.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `bound` (> 0), by Lemire's multiply-shift: its bias
    /// is below bound / 2^64, nothing at these bounds.
    fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next()) * bound as u128) >> 64) as usize
    }
}

/// The buffers a step writes, one row per game: `observations` is games x
/// [`LEN`] bytes, `masks` games x [`ACTIONS`] bytes (1 for a legal id),
/// the others one entry per game.
pub struct Buffers<'a> {
    /// The planes of each game's position, by its side to move.
    pub observations: &'a mut [u8],
    /// Each game's legal ids, as 0/1 bytes.
    pub masks: &'a mut [u8],
    /// The reward of the player who moved: 1 won, -1 lost, 0 otherwise.
    pub rewards: &'a mut [f32],
    /// 1 where the step ended the game (the row shows the next game).
    pub terminations: &'a mut [u8],
    /// The side to move after the step: 0 South, 1 North.
    pub to_play: &'a mut [u8],
}

/// What is wrong with a step's input.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum BatchError {
    /// Buffers or actions of the wrong length.
    #[error("{what} has {got} entries; {expected} expected")]
    Length {
        /// Which buffer.
        what: &'static str,
        /// Its length.
        got: usize,
        /// The length needed.
        expected: usize,
    },
    /// A state that [`Batch::state`] did not write for this batch.
    #[error("not a state of this batch: {0}")]
    State(String),
    /// An action no legal move of its game has.
    #[error("game {game}: action {action} is not legal (legal: {legal:?})")]
    Illegal {
        /// The game's index.
        game: usize,
        /// The action given.
        action: i64,
        /// The game's legal ids.
        legal: Vec<u16>,
    },
}

/// A batch of games under one rule set.
pub struct Batch {
    rules: Rules,
    start: Position,
    slots: Vec<Slot>,
}

/// The seed of game `index` from the batch's seed (SplitMix64's mix, so
/// neighbouring games get unrelated streams).
fn game_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed.wrapping_add((index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Slot {
    fn new(start: Position, seed: u64) -> Slot {
        Slot {
            position: start,
            ply: 0,
            ids: [0; MAX_MOVES],
            moves: [None; MAX_MOVES],
            count: 0,
            rng: Stream(seed),
        }
    }

    /// Clears the mask's entries of the last position, lists the legal
    /// moves and writes the row.
    fn show(&mut self, rules: &Rules, observation: &mut [u8], mask: &mut [u8], to_play: &mut u8) {
        for &id in &self.ids[..usize::from(self.count)] {
            mask[usize::from(id)] = 0;
        }
        let moves = legal_moves(&self.position, rules);
        self.count = 0;
        for &mv in moves.iter() {
            if let Ok(id) = encode(mv) {
                let at = usize::from(self.count);
                self.ids[at] = id as u16;
                self.moves[at] = Some(mv);
                self.count += 1;
                mask[id] = 1;
            }
        }
        write(&self.position, rules, observation);
        *to_play = self.position.side_to_move().index() as u8;
    }

    fn restart(&mut self, start: Position) {
        self.position = start;
        self.ply = 0;
    }

    /// Plays the legal move with id `action` (checked before); returns
    /// the mover's reward and whether the game ended.
    fn play(&mut self, action: i64, rules: &Rules, start: Position) -> (f32, bool) {
        let at = self.ids[..usize::from(self.count)]
            .iter()
            .position(|&id| i64::from(id) == action)
            .expect("actions are checked before the step");
        let mover = self.position.side_to_move();
        let mv = self.moves[at].expect("a listed move");
        self.position = self.position.play(mv);
        self.ply = self.ply.saturating_add(1);
        match Status::of(&self.position, rules) {
            Status::InPlay => (0.0, false),
            Status::Over { winner, .. } => {
                self.restart(start);
                (reward(winner, mover), true)
            }
        }
    }

    fn is_legal(&self, action: i64) -> bool {
        self.ids[..usize::from(self.count)]
            .iter()
            .any(|&id| i64::from(id) == action)
    }
}

/// `mover`'s reward for a game won by `winner`.
fn reward(winner: Option<Player>, mover: Player) -> f32 {
    match winner {
        None => 0.0,
        Some(winner) if winner == mover => 1.0,
        Some(_) => -1.0,
    }
}

impl Batch {
    /// `games` games at the start of `rules`' pattern, game i's random
    /// stream seeded from `seed` and i.
    pub fn new(games: usize, rules: Rules, seed: u64) -> Batch {
        let start = start_position(rules.pattern);
        Batch {
            rules,
            start,
            slots: (0..games)
                .map(|index| Slot::new(start, game_seed(seed, index)))
                .collect(),
        }
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the batch holds no game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The rules the games are played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Game `index`'s position and plies played, if there is one.
    pub fn game(&self, index: usize) -> Option<(Position, usize)> {
        self.slots
            .get(index)
            .map(|slot| (slot.position, usize::from(slot.ply)))
    }

    fn check(&self, buffers: &Buffers<'_>) -> Result<(), BatchError> {
        let n = self.slots.len();
        for (what, got, expected) in [
            ("observations", buffers.observations.len(), n * LEN),
            ("masks", buffers.masks.len(), n * ACTIONS),
            ("rewards", buffers.rewards.len(), n),
            ("terminations", buffers.terminations.len(), n),
            ("to_play", buffers.to_play.len(), n),
        ] {
            if got != expected {
                return Err(BatchError::Length {
                    what,
                    got,
                    expected,
                });
            }
        }
        Ok(())
    }

    /// Every game back to the start (with new random streams when `seed`
    /// is given), written into `buffers`, whose masks are cleared whole.
    pub fn reset(&mut self, seed: Option<u64>, buffers: Buffers<'_>) -> Result<(), BatchError> {
        self.check(&buffers)?;
        let start = self.start;
        self.show_all(buffers, |index, slot| {
            if let Some(seed) = seed {
                slot.rng = Stream(game_seed(seed, index));
            }
            slot.restart(start);
            slot.count = 0;
        });
        Ok(())
    }

    /// Every game, after `prepare` (given its index), written whole into
    /// `buffers`: masks cleared, rewards and end flags zero.
    fn show_all(&mut self, buffers: Buffers<'_>, prepare: impl Fn(usize, &mut Slot) + Sync) {
        let rules = self.rules;
        buffers.masks.fill(0);
        buffers.rewards.fill(0.0);
        buffers.terminations.fill(0);
        self.slots
            .par_iter_mut()
            .zip(buffers.observations.par_chunks_mut(LEN))
            .zip(buffers.masks.par_chunks_mut(ACTIONS))
            .zip(buffers.to_play.par_iter_mut())
            .enumerate()
            .with_min_len(MIN_GAMES_PER_TASK)
            .for_each(|(index, (((slot, observation), mask), to_play))| {
                prepare(index, slot);
                slot.show(&rules, observation, mask, to_play);
            });
    }

    /// The games where `which` is true back to the start (their streams
    /// reseeded when `seed` is given, each from the seed and its index,
    /// as [`Batch::reset`] does), their rows rewritten, reward and end
    /// flag cleared; the other games and rows are left as they are. The
    /// masks must be the ones the last call wrote.
    pub fn reset_games(
        &mut self,
        which: &[bool],
        seed: Option<u64>,
        buffers: Buffers<'_>,
    ) -> Result<(), BatchError> {
        self.check(&buffers)?;
        if which.len() != self.slots.len() {
            return Err(BatchError::Length {
                what: "reset_mask",
                got: which.len(),
                expected: self.slots.len(),
            });
        }
        let (rules, start) = (self.rules, self.start);
        self.slots
            .par_iter_mut()
            .zip(buffers.observations.par_chunks_mut(LEN))
            .zip(buffers.masks.par_chunks_mut(ACTIONS))
            .zip(buffers.rewards.par_iter_mut())
            .zip(buffers.terminations.par_iter_mut())
            .zip(buffers.to_play.par_iter_mut())
            .enumerate()
            .with_min_len(MIN_GAMES_PER_TASK)
            .filter(|(index, _)| which[*index])
            .for_each(
                |(index, (((((slot, observation), mask), reward), terminated), to_play))| {
                    if let Some(seed) = seed {
                        slot.rng = Stream(game_seed(seed, index));
                    }
                    slot.restart(start);
                    *reward = 0.0;
                    *terminated = 0;
                    slot.show(&rules, observation, mask, to_play);
                },
            );
        Ok(())
    }

    /// The batch's whole state as text: a line per game, its position
    /// string, plies played and random stream. [`Batch::restore`] on a
    /// batch of the same rules and size takes it back.
    pub fn state(&self) -> String {
        self.slots
            .iter()
            .map(|slot| {
                format!(
                    "{} | {} | {}\n",
                    format_position(&slot.position),
                    slot.ply,
                    slot.rng.0
                )
            })
            .collect()
    }

    /// Takes back a [`Batch::state`] and writes every game's row into
    /// `buffers` (masks cleared whole; rewards and end flags zero).
    pub fn restore(&mut self, state: &str, buffers: Buffers<'_>) -> Result<(), BatchError> {
        self.check(&buffers)?;
        let lines: Vec<&str> = state.lines().collect();
        if lines.len() != self.slots.len() {
            return Err(BatchError::State(format!(
                "{} games, this batch has {}",
                lines.len(),
                self.slots.len()
            )));
        }
        let mut slots = Vec::with_capacity(lines.len());
        for (index, line) in lines.iter().enumerate() {
            let bad = |why: String| BatchError::State(format!("game {index}: {why}"));
            let [position, ply, stream] = line.split(" | ").collect::<Vec<_>>()[..] else {
                return Err(bad("not 'position | ply | stream'".into()));
            };
            let position = parse_position(position).map_err(|error| bad(error.to_string()))?;
            let mut slot = Slot::new(position, 0);
            slot.ply = ply.parse().map_err(|_| bad(format!("ply '{ply}'")))?;
            slot.rng = Stream(
                stream
                    .parse()
                    .map_err(|_| bad(format!("stream '{stream}'")))?,
            );
            slots.push(slot);
        }
        self.slots = slots;
        self.show_all(buffers, |_, _| {});
        Ok(())
    }

    /// Plays `actions[i]` in game i, writing what follows into `buffers`.
    /// The masks must be the ones the last call wrote (only the entries
    /// it set are cleared). An illegal action changes nothing and is an
    /// error naming the game.
    pub fn step(&mut self, actions: &[i64], buffers: Buffers<'_>) -> Result<(), BatchError> {
        self.check(&buffers)?;
        if actions.len() != self.slots.len() {
            return Err(BatchError::Length {
                what: "actions",
                got: actions.len(),
                expected: self.slots.len(),
            });
        }
        if let Some(game) = (0..actions.len()).find(|&i| !self.slots[i].is_legal(actions[i])) {
            let slot = &self.slots[game];
            return Err(BatchError::Illegal {
                game,
                action: actions[game],
                legal: slot.ids[..usize::from(slot.count)].to_vec(),
            });
        }
        let (rules, start) = (self.rules, self.start);
        self.slots
            .par_iter_mut()
            .zip(actions.par_iter())
            .zip(buffers.observations.par_chunks_mut(LEN))
            .zip(buffers.masks.par_chunks_mut(ACTIONS))
            .zip(buffers.rewards.par_iter_mut())
            .zip(buffers.terminations.par_iter_mut())
            .zip(buffers.to_play.par_iter_mut())
            .with_min_len(MIN_GAMES_PER_TASK)
            .for_each(
                |((((((slot, &action), observation), mask), reward), terminated), to_play)| {
                    let (gain, over) = slot.play(action, &rules, start);
                    *reward = gain;
                    *terminated = u8::from(over);
                    slot.show(&rules, observation, mask, to_play);
                },
            );
        Ok(())
    }

    /// A legal action of each game, drawn uniformly from the game's own
    /// random stream, into `actions`.
    pub fn sample(&mut self, actions: &mut [i64]) -> Result<(), BatchError> {
        if actions.len() != self.slots.len() {
            return Err(BatchError::Length {
                what: "actions",
                got: actions.len(),
                expected: self.slots.len(),
            });
        }
        for (slot, action) in self.slots.iter_mut().zip(actions.iter_mut()) {
            let count = usize::from(slot.count);
            *action = if count == 0 {
                0
            } else {
                i64::from(slot.ids[slot.rng.below(count)])
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rl::planes::planes;

    struct Owned {
        observations: Vec<u8>,
        masks: Vec<u8>,
        rewards: Vec<f32>,
        terminations: Vec<u8>,
        to_play: Vec<u8>,
    }

    impl Owned {
        fn new(n: usize) -> Owned {
            Owned {
                observations: vec![0; n * LEN],
                masks: vec![0; n * ACTIONS],
                rewards: vec![0.0; n],
                terminations: vec![0; n],
                to_play: vec![0; n],
            }
        }
        fn buffers(&mut self) -> Buffers<'_> {
            Buffers {
                observations: &mut self.observations,
                masks: &mut self.masks,
                rewards: &mut self.rewards,
                terminations: &mut self.terminations,
                to_play: &mut self.to_play,
            }
        }
    }

    /// The batch's rows equal what the single-game functions give for
    /// the same games, through several restarts, and the rewards follow
    /// the results.
    #[test]
    fn a_batch_agrees_with_single_games() {
        let rules = Rules::default();
        let n = 70;
        let mut batch = Batch::new(n, rules, 7);
        let mut out = Owned::new(n);
        batch.reset(None, out.buffers()).unwrap();
        let mut shadows: Vec<(Position, usize)> = vec![(batch.start, 0); n];
        let mut actions = vec![0i64; n];
        let mut ended = 0;
        for _ in 0..300 {
            batch.sample(&mut actions).unwrap();
            batch.step(&actions, out.buffers()).unwrap();
            for game in 0..n {
                let (position, ply) = shadows[game];
                let mover = position.side_to_move();
                let mv = crate::rl::action::decode(actions[game], &position, &rules).unwrap();
                let after = position.play(mv);
                match Status::of(&after, &rules) {
                    Status::InPlay => {
                        assert_eq!(out.terminations[game], 0);
                        assert_eq!(out.rewards[game], 0.0);
                        shadows[game] = (after, ply + 1);
                    }
                    Status::Over { winner, .. } => {
                        ended += 1;
                        assert_eq!(out.terminations[game], 1);
                        assert_eq!(out.rewards[game], reward(winner, mover));
                        shadows[game] = (batch.start, 0);
                    }
                }
                let (position, ply) = shadows[game];
                assert_eq!(batch.game(game), Some((position, ply)));
                let row = &out.observations[game * LEN..(game + 1) * LEN];
                assert_eq!(row, planes(&position, &rules).as_slice());
                let mask = &out.masks[game * ACTIONS..(game + 1) * ACTIONS];
                let mut legal = crate::rl::action::legal_actions(&position, &rules);
                legal.sort_unstable();
                let set: Vec<usize> = (0..ACTIONS).filter(|&id| mask[id] == 1).collect();
                assert_eq!(set, legal);
                assert_eq!(out.to_play[game] as usize, position.side_to_move().index());
            }
        }
        assert!(ended > n, "games ended: {ended}");
    }

    #[test]
    fn bad_input_is_refused_and_changes_nothing() {
        let mut batch = Batch::new(2, Rules::default(), 1);
        let mut out = Owned::new(2);
        batch.reset(Some(3), out.buffers()).unwrap();
        let before = out.observations.clone();
        let error = batch.step(&[2, 5000], out.buffers()).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("game 1: action 5000 is not legal")
        );
        assert_eq!(out.observations, before);
        assert!(matches!(
            batch.step(&[2], out.buffers()),
            Err(BatchError::Length {
                what: "actions",
                ..
            })
        ));
        let mut short = Owned::new(1);
        assert!(batch.reset(None, short.buffers()).is_err());
    }

    #[test]
    fn a_seed_repeats_the_games() {
        let run = |seed| {
            let mut batch = Batch::new(4, Rules::default(), seed);
            let mut out = Owned::new(4);
            batch.reset(None, out.buffers()).unwrap();
            let mut actions = vec![0; 4];
            let mut seen = Vec::new();
            for _ in 0..50 {
                batch.sample(&mut actions).unwrap();
                seen.extend_from_slice(&actions);
                batch.step(&actions, out.buffers()).unwrap();
            }
            seen
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    /// Plays `steps` sampled steps; returns the actions and rows seen.
    fn play(
        batch: &mut Batch,
        out: &mut Owned,
        steps: usize,
    ) -> Vec<(Vec<i64>, Vec<u8>, Vec<f32>)> {
        let mut actions = vec![0; batch.len()];
        (0..steps)
            .map(|_| {
                batch.sample(&mut actions).unwrap();
                batch.step(&actions, out.buffers()).unwrap();
                (
                    actions.clone(),
                    out.observations.clone(),
                    out.rewards.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn a_restored_state_continues_exactly() {
        let mut batch = Batch::new(5, Rules::default(), 9);
        let mut out = Owned::new(5);
        batch.reset(None, out.buffers()).unwrap();
        play(&mut batch, &mut out, 70);
        let state = batch.state();
        let mut copy = Batch::new(5, Rules::default(), 0);
        let mut copy_out = Owned::new(5);
        copy.restore(&state, copy_out.buffers()).unwrap();
        assert_eq!(copy_out.observations, out.observations);
        assert_eq!(copy_out.masks, out.masks);
        assert_eq!(
            play(&mut copy, &mut copy_out, 120),
            play(&mut batch, &mut out, 120)
        );
        let error = copy.restore("x | 0 | 1\n", copy_out.buffers()).unwrap_err();
        assert!(error.to_string().contains("1 games, this batch has 5"));
        let bad = state.replacen(" | ", " | many | ", 1);
        assert!(copy.restore(&bad, copy_out.buffers()).is_err());
    }

    #[test]
    fn a_masked_reset_restarts_only_the_games_chosen() {
        let mut batch = Batch::new(4, Rules::default(), 2);
        let mut out = Owned::new(4);
        batch.reset(None, out.buffers()).unwrap();
        play(&mut batch, &mut out, 9);
        let before: Vec<_> = (0..4).map(|game| batch.game(game)).collect();
        let rows = out.observations.clone();
        batch
            .reset_games(&[false, true, false, true], None, out.buffers())
            .unwrap();
        let mut fresh = Batch::new(4, Rules::default(), 2);
        let mut fresh_out = Owned::new(4);
        fresh.reset(None, fresh_out.buffers()).unwrap();
        for (game, earlier) in before.into_iter().enumerate() {
            let row = game * LEN..(game + 1) * LEN;
            if game % 2 == 1 {
                assert_eq!(batch.game(game), Some((batch.start, 0)));
                assert_eq!(out.observations[row.clone()], fresh_out.observations[row]);
            } else {
                assert_eq!(batch.game(game), earlier);
                assert_eq!(out.observations[row.clone()], rows[row]);
            }
            let mask = &out.masks[game * ACTIONS..(game + 1) * ACTIONS];
            let (position, _) = batch.game(game).unwrap();
            let legal = crate::rl::action::legal_actions(&position, &batch.rules);
            assert_eq!(mask.iter().filter(|&&bit| bit == 1).count(), legal.len());
        }
        assert!(batch.reset_games(&[true], None, out.buffers()).is_err());
    }
}
