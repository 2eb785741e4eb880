//! The packed training file: what `pasang datagen --merge` writes from
//! text shards, and what the trainer reads. Fixed 48-byte records after a
//! 32-byte header, all little-endian, so a reader in any language maps it
//! with one array view (docs/datagen.md has the table).
//!
//! Header: `PSNGDAT\0`, u32 version (2; 1 for files without mate scores,
//! which this reader still reads), u32 record size (48), u64 record
//! count, u64 the shuffle's seed.
//!
//! Record: u128 white stones, u128 black stones (bit `r * 11 + f` is rank
//! `r`, file `f`, both from 0), u8 South's and North's ka square (255: not
//! entered), u8 South's and North's passage file (255: not taken), u8
//! South's and North's points, u8 side to move (0 South, 1 North), u8 rule
//! set (its index in [`crate::rules::Rules::all`]), i16 search score (cp, side
//! to move's view; a mate on the search's scale, beyond +-29,872: see
//! [`crate::search::Score::to_internal`]), u8 result (0 loss, 1 draw, 2 win, side to move's view),
//! u8 0, i16 final margin (side to move's view), u16 the move played as
//! its action id plus one (`crate::rl::action`; 0: not recorded, as in
//! files written before it was).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::format::{self, DataRecord, DataResult, Header};
use crate::bitboard::{Bitboard, POINT_COUNT, SIZE, Square};
use crate::position::{Parts, PartsError, Player, Position};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"PSNGDAT\0";
/// The format version: 2, whose scores may be mates (version 1 readers
/// would take them for centipoints, so they refuse it).
pub const VERSION: u32 = 2;
/// The version before mates were kept; read as ever.
const VERSION_WITHOUT_MATES: u32 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 48;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 32;

const NONE: u8 = u8::MAX;

/// One record in its packed form.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct PackedRecord([u8; RECORD_BYTES]);

/// Why a packed file or record cannot be read, or shards not merged.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// Reading or writing failed.
    #[error("'{path}': {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Not a packed file of this version.
    #[error("'{0}' is not a packed datagen file of version 1 or {VERSION} (bad header)")]
    NotPacked(PathBuf),
    /// The length disagrees with the header's count.
    #[error(
        "'{path}': the header promises {count} records but the file holds {bytes} bytes of them"
    )]
    Length {
        path: PathBuf,
        count: u64,
        bytes: u64,
    },
    /// A record's fields are out of range.
    #[error("record {index}: {what} out of range")]
    BadRecord { index: u64, what: &'static str },
    /// A record's position cannot occur in a game.
    #[error("record {index}: {error}")]
    Position { index: u64, error: PartsError },
    /// A text shard cannot be read.
    #[error("'{path}': {error}")]
    Scan {
        path: PathBuf,
        error: format::ScanError,
    },
    /// The same game twice among the shards.
    #[error(
        "game {game} of seed {seed} is in both '{first}' and '{second}': a shard was given twice or two shards overlap"
    )]
    Duplicate {
        seed: u64,
        game: u64,
        first: PathBuf,
        second: PathBuf,
    },
    /// The output exists.
    #[error("'{0}' already exists: choose another --out")]
    Exists(PathBuf),
}

impl PackedRecord {
    /// Packs a record.
    pub fn pack(record: &DataRecord) -> PackedRecord {
        let mut bytes = [0u8; RECORD_BYTES];
        let parts = record.position.parts();
        bytes[0..16].copy_from_slice(&parts.stones[0].bits().to_le_bytes());
        bytes[16..32].copy_from_slice(&parts.stones[1].bits().to_le_bytes());
        for player in 0..2 {
            bytes[32 + player] = parts.ka[player].map_or(NONE, |s| s.index() as u8);
            bytes[34 + player] = parts.passage[player].map_or(NONE, |f| f as u8);
            bytes[36 + player] = parts.scores[player].min(255) as u8;
        }
        bytes[38] = parts.side.index() as u8;
        bytes[39] = crate::rules::Rules::all()
            .iter()
            .position(|rules| *rules == record.rules)
            .unwrap_or(0) as u8;
        let score = record.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        bytes[40..42].copy_from_slice(&score.to_le_bytes());
        bytes[42] = match record.result {
            DataResult::Loss => 0,
            DataResult::Draw => 1,
            DataResult::Win => 2,
        };
        let margin = record.margin.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        bytes[44..46].copy_from_slice(&margin.to_le_bytes());
        let played = record
            .played
            .and_then(|mv| crate::rl::action::encode(mv).ok())
            .map_or(0, |id| id as u16 + 1);
        bytes[46..48].copy_from_slice(&played.to_le_bytes());
        PackedRecord(bytes)
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8; RECORD_BYTES] {
        &self.0
    }

    /// Unpacks the record; `index` names it in errors.
    pub fn unpack(&self, index: u64) -> Result<DataRecord, PackError> {
        let b = &self.0;
        let bad = |what| PackError::BadRecord { index, what };
        let word = |at: usize| u128::from_le_bytes(b[at..at + 16].try_into().expect("16 bytes"));
        let (white, black) = (word(0), word(16));
        if (white | black) >> POINT_COUNT != 0 || white & black != 0 {
            return Err(bad("stones"));
        }
        let square = |raw: u8| match raw {
            NONE => Ok(None),
            raw => Square::from_index(raw as usize)
                .map(Some)
                .ok_or(bad("ka square")),
        };
        let file = |raw: u8| match raw {
            NONE => Ok(None),
            raw if (raw as usize) < SIZE => Ok(Some(raw as usize)),
            _ => Err(bad("passage file")),
        };
        let side = match b[38] {
            0 => Player::South,
            1 => Player::North,
            _ => return Err(bad("side to move")),
        };
        let rules = *crate::rules::Rules::all()
            .get(b[39] as usize)
            .ok_or(bad("rule set"))?;
        let result = match b[42] {
            0 => DataResult::Loss,
            1 => DataResult::Draw,
            2 => DataResult::Win,
            _ => return Err(bad("result")),
        };
        let parts = Parts {
            stones: [Bitboard::from_bits(white), Bitboard::from_bits(black)],
            ka: [square(b[32])?, square(b[33])?],
            passage: [file(b[34])?, file(b[35])?],
            scores: [b[36] as u16, b[37] as u16],
            side,
        };
        let position =
            Position::try_from(parts).map_err(|error| PackError::Position { index, error })?;
        let played = match u16::from_le_bytes([b[46], b[47]]) {
            0 => None,
            id => Some(
                crate::rl::action::decode(i64::from(id) - 1, &position, &rules)
                    .map_err(|_| bad("move played"))?,
            ),
        };
        Ok(DataRecord {
            // The packed record has no room for it (docs/datagen.md).
            policy: None,
            position,
            rules,
            score: i16::from_le_bytes([b[40], b[41]]) as i32,
            result,
            margin: i16::from_le_bytes([b[44], b[45]]) as i32,
            played,
        })
    }
}

fn header_bytes(count: u64, seed: u64) -> [u8; HEADER_BYTES] {
    let mut header = [0u8; HEADER_BYTES];
    header[0..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    header[16..24].copy_from_slice(&count.to_le_bytes());
    header[24..32].copy_from_slice(&seed.to_le_bytes());
    header
}

/// Writes a packed file (refusing to replace an existing one).
pub fn write(path: &Path, records: &[PackedRecord], seed: u64) -> Result<(), PackError> {
    let io = |error| PackError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = File::options()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::AlreadyExists => PackError::Exists(path.to_path_buf()),
            _ => io(error),
        })?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&header_bytes(records.len() as u64, seed))
        .map_err(io)?;
    for record in records {
        out.write_all(&record.0).map_err(io)?;
    }
    out.flush().map_err(io)
}

/// Reads every record of a packed file.
pub fn read(path: &Path) -> Result<Vec<DataRecord>, PackError> {
    let io = |error| PackError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .map_err(io)?;
    let not_packed = || PackError::NotPacked(path.to_path_buf());
    if bytes.len() < HEADER_BYTES || &bytes[0..8] != MAGIC {
        return Err(not_packed());
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    if ![VERSION, VERSION_WITHOUT_MATES].contains(&u32_at(8)) || u32_at(12) as usize != RECORD_BYTES
    {
        return Err(not_packed());
    }
    let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let body = &bytes[HEADER_BYTES..];
    if body.len() as u64 != count * RECORD_BYTES as u64 {
        return Err(PackError::Length {
            path: path.to_path_buf(),
            count,
            bytes: body.len() as u64,
        });
    }
    body.chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(index, chunk)| {
            PackedRecord(chunk.try_into().expect("a whole record")).unpack(index as u64)
        })
        .collect()
}

/// What a merge did.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct MergeReport {
    /// Complete games read from the shards.
    pub games: u64,
    /// Records written.
    pub positions: u64,
}

/// One shard's complete games: their seed, their indexes and their
/// packed records.
struct ShardContents {
    path: PathBuf,
    seed: u64,
    games: Vec<u64>,
    records: Vec<PackedRecord>,
}

fn read_shard(path: &Path) -> Result<ShardContents, PackError> {
    let text = std::fs::read_to_string(path).map_err(|error| PackError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let scan_error = |error| PackError::Scan {
        path: path.to_path_buf(),
        error,
    };
    let mut games = Vec::new();
    let mut records = Vec::new();
    let scan = format::scan_games(&text, |index, game| {
        games.push(index);
        records.extend(game.iter().map(PackedRecord::pack));
    })
    .map_err(scan_error)?;
    let Some(Header { seed, .. }) = scan.header else {
        return Err(scan_error(format::ScanError::NotDatagen));
    };
    Ok(ShardContents {
        path: path.to_path_buf(),
        seed,
        games,
        records,
    })
}

/// Merges text shards into one packed file at `out`, positions shuffled
/// by a generator seeded with `seed`. Only complete games are taken (a
/// shard cut off mid-game loses that game); the same game (seed and
/// index) in two shards is refused.
pub fn merge(inputs: &[PathBuf], out: &Path, seed: u64) -> Result<MergeReport, PackError> {
    if out.exists() {
        return Err(PackError::Exists(out.to_path_buf()));
    }
    let shards: Vec<ShardContents> = inputs
        .par_iter()
        .map(|path| read_shard(path))
        .collect::<Result<_, _>>()?;
    // `scan` reads a shard's games in order, so they are distinct: a game
    // seen before is in an earlier shard.
    let mut seen: HashMap<(u64, u64), usize> = HashMap::new();
    let mut games = 0;
    for (which, shard) in shards.iter().enumerate() {
        for &game in &shard.games {
            if let Some(first) = seen.insert((shard.seed, game), which) {
                return Err(PackError::Duplicate {
                    seed: shard.seed,
                    game,
                    first: shards[first].path.clone(),
                    second: shard.path.clone(),
                });
            }
        }
        games += shard.games.len() as u64;
    }
    let mut records: Vec<PackedRecord> = shards.into_iter().flat_map(|s| s.records).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in (1..records.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        records.swap(i, j);
    }
    write(out, &records, seed)?;
    Ok(MergeReport {
        games,
        positions: records.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{Config, SearchLimit, Target, run};

    fn temp(name: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("pasang-packed-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    fn shard(out: &Path, games: u64, shard: Option<&str>) {
        let config = Config {
            out: out.to_path_buf(),
            target: Target::Games(games),
            header: Header {
                seed: 3,
                limit: SearchLimit::Nodes(150),
                random_plies: 4,
                shard: shard.map(|s| s.parse().unwrap()),
                policy: None,
                mates: true,
            },
            threads: 1,
            resume: false,
        };
        run(&config, &|_| {}).unwrap();
    }

    /// Two shards of a run hold exactly the games of the whole run, and
    /// their merge holds its records (shuffled), read back field for field.
    #[test]
    fn shards_merge_into_the_whole_runs_records() {
        let (whole, one, two, packed) = (temp("whole"), temp("one"), temp("two"), temp("packed"));
        shard(&whole, 5, None);
        shard(&one, 5, Some("1/2"));
        shard(&two, 5, Some("2/2"));
        let text = std::fs::read_to_string(&one).unwrap();
        assert!(text.lines().next().unwrap().ends_with("shard 1/2"));
        assert!(text.contains("# game 4 ") && !text.contains("# game 1 "));

        let report = merge(&[one.clone(), two.clone()], &packed, 9).unwrap();
        let expected = crate::datagen::read(&whole).unwrap();
        assert_eq!(report.games, 5);
        assert_eq!(report.positions, expected.len() as u64);
        let mut got = read(&packed).unwrap();
        assert_ne!(got, expected, "shuffled");
        let key = |r: &DataRecord| (r.position.key(), r.score, r.margin);
        got.sort_by_key(key);
        let mut expected = expected;
        expected.sort_by_key(key);
        assert_eq!(got, expected);
        let bytes = std::fs::read(&packed).unwrap();
        assert_eq!(bytes.len(), HEADER_BYTES + RECORD_BYTES * got.len());

        // The same shard twice, and an existing output, are refused.
        let again = temp("again");
        let refused = merge(&[one.clone(), one.clone()], &again, 9).unwrap_err();
        assert!(refused.to_string().contains("given twice"), "{refused}");
        let refused = merge(std::slice::from_ref(&two), &packed, 9).unwrap_err();
        assert!(matches!(refused, PackError::Exists(_)), "{refused}");
        for path in [whole, one, two, packed] {
            let _ = std::fs::remove_file(path);
        }
    }

    #[test]
    fn bad_files_and_records_are_errors() {
        let path = temp("bad");
        std::fs::write(&path, b"PSNGDAT\0nonsense").unwrap();
        assert!(matches!(read(&path), Err(PackError::NotPacked(_))));
        let mut bytes = header_bytes(2, 0).to_vec();
        bytes.extend_from_slice(&[0u8; RECORD_BYTES]);
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(read(&path), Err(PackError::Length { .. })));
        let mut record = [0u8; RECORD_BYTES];
        record[38] = 2;
        let error = PackedRecord(record).unpack(7).unwrap_err();
        assert_eq!(error.to_string(), "record 7: side to move out of range");
        let _ = std::fs::remove_file(path);
    }
}
