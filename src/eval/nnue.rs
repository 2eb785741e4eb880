//! The learned evaluation (NNUE): a network of one hidden layer over
//! sparse inputs, evaluated with integer accumulators that follow the
//! search incrementally.
//!
//! Inputs per view (South's, and North's turned a half-turn, so both see
//! the board from their own side): white stones, black stones, the view's
//! own ka and the other ka, each by point: 4 x 121. Both views share one
//! hidden layer; its int16 sums (the accumulators) are clipped to
//! 0..=QA (clipped ReLU) and the side to move's half and then the other's
//! are weighted into one output. The evaluation is the points margin so
//! far (100 a point) plus the output in centipoints: the network judges
//! what is still to be taken.
//!
//! A move removes k stones and moves a ka: k + 2 column updates per view.
//! The accumulators live outside the position, in a per-thread stack
//! indexed by ply ([`Accumulators`]); each entry is brought up to date
//! from its parent's or its previous sibling's, whichever differs least,
//! when its node is evaluated.
//!
//! File format (little-endian; trainer/train.py writes it): `PSNGNNUE`,
//! u32 version 1, u32 inputs (484), u32 hidden units `H`, u32 QA, u32 QB,
//! u32 SCALE; then i16 input weights `[484][H]` (input-major: one input's
//! column is contiguous), i16 hidden biases `[H]`, i16 output weights `[2H]`
//! (side to move's half first), i32 output bias. Output in centipoints =
//! (sum of clip(acc) x w2 + bias) x SCALE / (QA x QB).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::bitboard::POINT_COUNT;
use crate::position::{Colour, Player, Position};

/// Inputs per view.
pub const INPUTS: usize = 4 * POINT_COUNT;
const MAGIC: &[u8; 8] = b"PSNGNNUE";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 8 + 6 * 4;
/// Most hidden units a file may have (the accumulator stack's size).
pub const MAX_HIDDEN: usize = 2048;
/// The largest output in centipoints (a win by all 180 points is 18,000).
const OUTPUT_LIMIT: i64 = 20_000;
/// Feature changes above which a refresh from scratch is cheaper.
const REFRESH_CHANGES: u32 = 48;

/// The network shipped in the binary.
static EMBEDDED: &[u8] = include_bytes!("pasang.nnue");

/// A loaded network.
pub struct Network {
    hidden: usize,
    /// `[INPUTS][hidden]`.
    input_weights: Vec<i16>,
    biases: Vec<i16>,
    /// `[2][hidden]`: side to move, then the other side.
    output_weights: Vec<i16>,
    output_bias: i32,
    qa: i32,
    qb: i32,
    scale: i32,
    /// Where it came from, for `eval` and errors.
    name: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, {} hidden)", self.name, self.hidden)
    }
}

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file cannot be read.
    #[error("cannot read network file '{path}': {error}")]
    Io { path: String, error: std::io::Error },
    /// The header is not a pasang network's.
    #[error("'{0}' is not a pasang network (no PSNGNNUE header)")]
    NotNetwork(String),
    /// Another version or shape.
    #[error("'{name}': {what}")]
    Unsupported { name: String, what: String },
    /// Not as long as its header says.
    #[error("'{name}': {found} bytes, but its header describes {expected}")]
    Length {
        name: String,
        expected: usize,
        found: usize,
    },
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

impl Network {
    /// Reads a network from its file's bytes; `name` names it in errors.
    pub fn parse(bytes: &[u8], name: &str) -> Result<Network, NetworkError> {
        let unsupported = |what: String| NetworkError::Unsupported {
            name: name.to_string(),
            what,
        };
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(NetworkError::NotNetwork(name.to_string()));
        }
        let field = |i: usize| u32_at(bytes, 8 + 4 * i);
        let (version, inputs, hidden) = (field(0), field(1) as usize, field(2) as usize);
        let (qa, qb, scale) = (field(3), field(4), field(5));
        if version != VERSION {
            return Err(unsupported(format!(
                "format version {version}, this engine reads {VERSION}"
            )));
        }
        if inputs != INPUTS {
            return Err(unsupported(format!("{inputs} inputs, expected {INPUTS}")));
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(unsupported(format!(
                "{hidden} hidden units, expected 1 to {MAX_HIDDEN}"
            )));
        }
        if !(1..=i16::MAX as u32).contains(&qa) || !(1..=65536).contains(&qb) || scale == 0 {
            return Err(unsupported(format!(
                "quantization QA {qa}, QB {qb}, SCALE {scale} out of range"
            )));
        }
        let expected = HEADER_BYTES + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4;
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                name: name.to_string(),
                expected,
                found: bytes.len(),
            });
        }
        let mut at = HEADER_BYTES;
        let mut take = |count: usize| {
            let slice = &bytes[at..at + 2 * count];
            at += 2 * count;
            i16s(slice)
        };
        let input_weights = take(INPUTS * hidden);
        let biases = take(hidden);
        let output_weights = take(2 * hidden);
        let output_bias = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        Ok(Network {
            hidden,
            input_weights,
            biases,
            output_weights,
            output_bias,
            qa: qa as i32,
            qb: qb as i32,
            scale: scale as i32,
            name: name.to_string(),
        })
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| NetworkError::Io {
            path: name.clone(),
            error,
        })?;
        Network::parse(&bytes, &name)
    }

    /// The network built into the engine.
    pub fn embedded() -> Arc<Network> {
        static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        NETWORK
            .get_or_init(|| {
                Arc::new(Network::parse(EMBEDDED, "<embedded>").expect("the embedded network"))
            })
            .clone()
    }

    /// Hidden units per view.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Where the network came from (a path, or `<embedded>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    #[inline(always)]
    fn column(&self, feature: usize) -> &[i16] {
        &self.input_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The accumulators of `features`, from scratch.
    fn refresh(&self, features: &Features, view: Player, acc: &mut [i16]) {
        acc.copy_from_slice(&self.biases);
        for feature in features.active(view) {
            add(acc, self.column(feature));
        }
    }

    /// The output in centipoints for the side to move's and the other
    /// side's accumulators.
    #[inline]
    fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(self.hidden);
        let sum = dot_clipped(us, w_us, self.qa) + dot_clipped(them, w_them, self.qa);
        let cp = (sum as i64 + self.output_bias as i64) * self.scale as i64
            / (self.qa as i64 * self.qb as i64);
        // Far from the search's win scores, whatever a file holds.
        cp.clamp(-OUTPUT_LIMIT, OUTPUT_LIMIT) as i32
    }

    /// The evaluation of `position` from scratch (no accumulator stack),
    /// from the side to move's view.
    pub fn evaluate(&self, position: &Position) -> i32 {
        let features = Features::of(position);
        let side = position.side_to_move();
        let mut us = vec![0; self.hidden];
        let mut them = vec![0; self.hidden];
        self.refresh(&features, side, &mut us);
        self.refresh(&features, side.opponent(), &mut them);
        100 * position.margin(side) + self.output(&us, &them)
    }

    /// The same in floating point from the dequantized weights: the
    /// reference the integer inference is checked against.
    pub fn evaluate_float(&self, position: &Position) -> f64 {
        let features = Features::of(position);
        let side = position.side_to_move();
        let qa = self.qa as f64;
        let hidden_of = |view: Player| -> Vec<f64> {
            let mut sums: Vec<f64> = self.biases.iter().map(|&b| b as f64 / qa).collect();
            for feature in features.active(view) {
                for (sum, &w) in sums.iter_mut().zip(self.column(feature)) {
                    *sum += w as f64 / qa;
                }
            }
            sums.into_iter().map(|s| s.clamp(0.0, 1.0)).collect()
        };
        let (us, them) = (hidden_of(side), hidden_of(side.opponent()));
        let qb = self.qb as f64;
        let (w_us, w_them) = self.output_weights.split_at(self.hidden);
        let mut out = self.output_bias as f64 / (qa * qb);
        for (a, &w) in us.iter().zip(w_us).chain(them.iter().zip(w_them)) {
            out += a * w as f64 / qb;
        }
        let out = (out * self.scale as f64).clamp(-(OUTPUT_LIMIT as f64), OUTPUT_LIMIT as f64);
        100.0 * position.margin(side) as f64 + out
    }
}

/// `acc += column`, element by element (the compiler vectorises it).
#[inline(always)]
fn add(acc: &mut [i16], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_add(w);
    }
}

/// `acc -= column`.
#[inline(always)]
fn sub(acc: &mut [i16], column: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_sub(w);
    }
}

/// The sum of clip(acc, 0, qa) x weight.
#[inline(always)]
fn dot_clipped(acc: &[i16], weights: &[i16], qa: i32) -> i32 {
    let qa = qa as i16;
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| a.clamp(0, qa) as i32 * w as i32)
        .sum()
}

/// What the inputs are read from: stones by colour and the kas.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
struct Features {
    stones: [u128; 2],
    /// By player; `POINT_COUNT` when not entered.
    ka: [u8; 2],
}

const NO_KA: u8 = POINT_COUNT as u8;

impl Features {
    fn of(position: &Position) -> Features {
        let ka = |player| position.ka(player).map_or(NO_KA, |s| s.index() as u8);
        Features {
            stones: [
                position.stones(Colour::White).bits(),
                position.stones(Colour::Black).bits(),
            ],
            ka: [ka(Player::South), ka(Player::North)],
        }
    }

    /// The input index of a point seen from `view`: North's view turns the
    /// board a half-turn.
    #[inline(always)]
    fn point(view: Player, square: usize) -> usize {
        match view {
            Player::South => square,
            Player::North => POINT_COUNT - 1 - square,
        }
    }

    #[inline(always)]
    fn stone(view: Player, colour: usize, square: usize) -> usize {
        colour * POINT_COUNT + Self::point(view, square)
    }

    #[inline(always)]
    fn ka_input(view: Player, owner: Player, square: usize) -> usize {
        let slot = if owner == view { 2 } else { 3 };
        slot * POINT_COUNT + Self::point(view, square)
    }

    /// Every active input of a view.
    fn active(&self, view: Player) -> impl Iterator<Item = usize> + '_ {
        let stones = (0..2).flat_map(move |colour| {
            bits(self.stones[colour]).map(move |square| Self::stone(view, colour, square))
        });
        let kas = [Player::South, Player::North]
            .into_iter()
            .filter(|&owner| self.ka[owner.index()] != NO_KA)
            .map(move |owner| Self::ka_input(view, owner, self.ka[owner.index()] as usize));
        stones.chain(kas)
    }

    /// How many inputs change from `self` to `other` (per view).
    fn changes(&self, other: &Features) -> u32 {
        (self.stones[0] ^ other.stones[0]).count_ones()
            + (self.stones[1] ^ other.stones[1]).count_ones()
            + 2 * (self.ka[0] != other.ka[0]) as u32
            + 2 * (self.ka[1] != other.ka[1]) as u32
    }
}

/// The set bits of a 121-bit set, low first.
fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let square = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(square)
    })
}

/// A search thread's accumulator stack: per ply, the features of the last
/// position evaluated there and both views' accumulators. Allocated once
/// per search thread; evaluating allocates nothing.
pub struct Accumulators {
    network: Arc<Network>,
    hidden: usize,
    /// `[ply][view][hidden]`.
    values: Vec<i16>,
    features: Vec<Option<Features>>,
}

impl Accumulators {
    /// A stack of `plies` entries for `network`.
    pub fn new(network: Arc<Network>, plies: usize) -> Accumulators {
        let hidden = network.hidden;
        Accumulators {
            network,
            hidden,
            values: vec![0; plies * 2 * hidden],
            features: vec![None; plies],
        }
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// Evaluates `position`, reached at `ply`, from the side to move's
    /// view, bringing the entry at `ply` up to date from the nearest of
    /// its parent's entry and its own last one (a sibling's).
    pub fn evaluate(&mut self, position: &Position, ply: usize) -> i32 {
        let ply = ply.min(self.features.len() - 1);
        let target = Features::of(position);
        let width = 2 * self.hidden;
        let own = self.features[ply].map(|f| (f.changes(&target), ply, f));
        let parent = ply
            .checked_sub(1)
            .and_then(|p| self.features[p].map(|f| (f.changes(&target), p, f)));
        let base = match (own, parent) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        let network = &*self.network;
        match base {
            Some((changes, from, features)) if changes <= REFRESH_CHANGES => {
                if from != ply {
                    self.values
                        .copy_within(from * width..(from + 1) * width, ply * width);
                }
                let entry = &mut self.values[ply * width..(ply + 1) * width];
                let (south, north) = entry.split_at_mut(self.hidden);
                for (view, acc) in [(Player::South, south), (Player::North, north)] {
                    update(network, &features, &target, view, acc);
                }
            }
            _ => {
                let entry = &mut self.values[ply * width..(ply + 1) * width];
                let (south, north) = entry.split_at_mut(self.hidden);
                network.refresh(&target, Player::South, south);
                network.refresh(&target, Player::North, north);
            }
        }
        self.features[ply] = Some(target);
        let entry = &self.values[ply * width..(ply + 1) * width];
        let (south, north) = entry.split_at(self.hidden);
        let side = position.side_to_move();
        let (us, them) = match side {
            Player::South => (south, north),
            Player::North => (north, south),
        };
        100 * position.margin(side) + network.output(us, them)
    }
}

/// Moves a view's accumulators from the inputs `from` to `to`.
#[inline]
fn update(network: &Network, from: &Features, to: &Features, view: Player, acc: &mut [i16]) {
    for colour in 0..2 {
        for square in bits(from.stones[colour] & !to.stones[colour]) {
            sub(acc, network.column(Features::stone(view, colour, square)));
        }
        for square in bits(to.stones[colour] & !from.stones[colour]) {
            add(acc, network.column(Features::stone(view, colour, square)));
        }
    }
    for owner in [Player::South, Player::North] {
        let (old, new) = (from.ka[owner.index()], to.ka[owner.index()]);
        if old != new {
            if old != NO_KA {
                sub(
                    acc,
                    network.column(Features::ka_input(view, owner, old as usize)),
                );
            }
            if new != NO_KA {
                add(
                    acc,
                    network.column(Features::ka_input(view, owner, new as usize)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::rules::Rules;
    use rand::rngs::SmallRng;
    use rand::{Rng, RngExt, SeedableRng};

    /// A network file with seeded random weights in the trainer's ranges.
    fn random_file(hidden: usize, seed: u64) -> Vec<u8> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut bytes = MAGIC.to_vec();
        for field in [VERSION, INPUTS as u32, hidden as u32, 255, 1024, 400] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        let mut push = |count: usize, limit: i16, rng: &mut SmallRng| {
            for _ in 0..count {
                let value = rng.random_range(-limit..=limit);
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        };
        push(INPUTS * hidden, 40, &mut rng);
        push(hidden, 255, &mut rng);
        push(2 * hidden, 2048, &mut rng);
        bytes.extend_from_slice(&(rng.next_u32() as i32 % 100_000).to_le_bytes());
        bytes
    }

    fn random_positions(games: usize, seed: u64) -> Vec<Position> {
        let rules = Rules::default();
        let mut random = SmallRng::seed_from_u64(seed);
        let mut positions = Vec::new();
        for _ in 0..games {
            let mut position =
                crate::notation::parse_position(&rules.pattern.start_position_string()).unwrap();
            loop {
                positions.push(position);
                let moves = legal_moves(&position, &rules);
                if moves.is_empty() || !position.has_stones() {
                    break;
                }
                position = position.play(moves[random.random_range(0..moves.len())]);
            }
        }
        positions
    }

    #[test]
    fn quantized_inference_agrees_with_the_float_reference() {
        for network in [
            Network::parse(&random_file(64, 1), "random").unwrap(),
            Network::parse(EMBEDDED, "<embedded>").unwrap(),
        ] {
            let mut worst = 0.0f64;
            for position in random_positions(10, 3) {
                let exact = network.evaluate_float(&position);
                let quantized = network.evaluate(&position) as f64;
                worst = worst.max((exact - quantized).abs());
            }
            // The integer inference differs only by the final division's
            // rounding (the weights are the same numbers).
            assert!(worst <= 1.0, "{network:?}: {worst} cp apart");
        }
    }

    /// Along random games, with plies going up and down as a search's do,
    /// the incremental accumulators give what a refresh gives.
    #[test]
    fn incremental_accumulators_equal_fresh_ones() {
        let network = Arc::new(Network::parse(&random_file(96, 2), "random").unwrap());
        let mut stack = Accumulators::new(network.clone(), 8);
        let mut random = SmallRng::seed_from_u64(5);
        let mut checked = 0;
        for position in random_positions(12, 9) {
            let ply = random.random_range(0..8);
            assert_eq!(stack.evaluate(&position, ply), network.evaluate(&position));
            checked += 1;
        }
        // A real line: each ply from its parent.
        let rules = Rules::default();
        let mut position =
            crate::notation::parse_position(&rules.pattern.start_position_string()).unwrap();
        for ply in 0..8 {
            assert_eq!(stack.evaluate(&position, ply), network.evaluate(&position));
            let moves = legal_moves(&position, &rules);
            if moves.is_empty() {
                break;
            }
            position = position.play(moves[random.random_range(0..moves.len())]);
        }
        assert!(checked > 200);
    }

    #[test]
    fn views_are_half_turns_of_each_other() {
        let features = Features {
            stones: [1, 1 << 120],
            ka: [5, NO_KA],
        };
        let south: Vec<usize> = features.active(Player::South).collect();
        let north: Vec<usize> = features.active(Player::North).collect();
        assert_eq!(south, vec![0, 121 + 120, 2 * 121 + 5]);
        assert_eq!(north, vec![120, 121, 3 * 121 + 115]);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let good = random_file(8, 4);
        assert!(Network::parse(&good, "good").is_ok());
        let error = Network::parse(b"hello", "x.nnue").unwrap_err();
        assert_eq!(
            error.to_string(),
            "'x.nnue' is not a pasang network (no PSNGNNUE header)"
        );
        let error = Network::parse(&good[..good.len() - 1], "cut.nnue").unwrap_err();
        assert!(error.to_string().starts_with("'cut.nnue': "), "{error}");
        let mut other = good.clone();
        other[8] = 9;
        let error = Network::parse(&other, "v9.nnue").unwrap_err();
        assert!(error.to_string().contains("version 9"), "{error}");
        let error = Network::load(Path::new("/nonexistent/net.nnue")).unwrap_err();
        assert!(
            error.to_string().starts_with("cannot read network file"),
            "{error}"
        );
    }
}
