//! `pasang play`: a person against the engine, line by line on
//! stdin/stdout, so it works in any terminal and can be driven by a pipe.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use clap::Args;

use super::show::{board_text_from, details};
use super::{CliError, PositionArgs, RuleArgs, player_title};
use crate::engine::{DEFAULT_HASH_MIB, Engine, MAX_THREADS};
use crate::moves::Move;
use crate::notation::{MoveError, format_position, parse_move};
use crate::outcome::Status;
use crate::position::Player;
use crate::record::Game;
use crate::record::{GameResult, Record, Scoresheet};
use crate::rules::Rules;
use crate::search::{Limits, Score, Silent};
use crate::tt::MAX_HASH_MIB;

/// Strongest skill level.
const MAX_SKILL: u8 = 20;

/// Arguments of `pasang play`.
#[derive(Args, Debug)]
#[command(after_help = "\
At the prompt, type a move (e.g. c, b4c4n; the directions may be left out
when only one move goes from that origin to that landing point) or one of:
  moves   list the legal moves        hint   ask the engine for a move
  undo    take back your last move    board  show the board again
  fen     print the position string   help   list the commands
  quit    leave the game
The board is drawn from your side: your half at the bottom. At the end of a
game, answer 'y' to play another. With --record, every game (finished or
left) is appended to that file as a game record, with both players' names
and the engine's score after each of its moves, which 'pasang show
--record' replays and 'pasang annotate' reviews.")]
pub struct PlayArgs {
    /// The side you play: south (moves first) or north.
    #[arg(long, default_value = "south", value_parser = parse_side)]
    side: Player,
    /// Engine strength from 0 (weakest) to 20 (full strength).
    #[arg(long, default_value_t = MAX_SKILL, value_parser = clap::value_parser!(u8).range(0..=MAX_SKILL as i64))]
    skill: u8,
    /// Milliseconds the engine thinks per move.
    #[arg(long, default_value_t = 1000, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: u64,
    /// Also stop the engine's search at this depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MIB as u64, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MIB as u64))]
    hash: u64,
    /// Append each game to this file as a game record (the format of
    /// `pasang match --out`, docs/match.md).
    #[arg(long, value_name = "PATH")]
    record: Option<std::path::PathBuf>,
    /// Your name in the records (default: your login name, from USER or
    /// USERNAME).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    rules: RuleArgs,
}

/// A `--side` that names neither player; holds the text given.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not south or north")]
struct SideError(String);

fn parse_side(text: &str) -> Result<Player, SideError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "south" | "s" => Ok(Player::South),
        "north" | "n" => Ok(Player::North),
        _ => Err(SideError(text.to_string())),
    }
}

/// Why a finished game could not be added to the record file; the game
/// goes on being playable, so this is told to the player, not fatal.
#[derive(Debug, thiserror::Error)]
enum SaveError {
    /// The file cannot be opened (or created) to append.
    #[error("cannot open the record file {path}: {1}", path = .0.display())]
    Open(PathBuf, #[source] std::io::Error),
    /// The record cannot be written to it.
    #[error("cannot write the record file {path}: {1}", path = .0.display())]
    Write(PathBuf, #[source] std::io::Error),
}

/// Runs `pasang play` on stdin/stdout.
pub fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let rules = args.rules.rules();
    let replay = args.position.replay(&rules)?;
    let mut engine = Engine::new();
    engine.set_rules(rules);
    // clap keeps both within the engine's ranges.
    engine
        .set_hash(args.hash as usize)
        .map_err(CliError::Table)?;
    engine.set_threads(args.threads as usize);
    engine.set_skill_level(args.skill);
    let limits = Limits {
        movetime: Some(args.movetime),
        depth: args.depth,
        ..Limits::default()
    };
    let hint_limits = Limits {
        movetime: Some(args.movetime),
        depth: args.depth,
        ..Limits::default()
    };
    let mut game = Sitting {
        engine,
        rules,
        human: args.side,
        human_name: args.name.clone().unwrap_or_else(login_name),
        skill: args.skill,
        limits,
        hint_limits,
        comments: vec![None; replay.moves().len()],
        base: replay.clone(),
        replay,
        record: args.record.clone(),
        games: 0,
        on_interrupt: None,
    };
    if game.record.is_some() {
        let pending = Pending::default();
        keep_games_on_interrupt(pending.clone());
        game.on_interrupt = Some(pending);
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match game.play_games(&mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The terminal or pipe went away: nothing more to say.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(error) => Err(CliError::Terminal(error)),
    }
}

/// The person's name for records: the login name, or `you` without one.
fn login_name() -> String {
    ["USER", "USERNAME"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .map(|name| name.trim().to_string())
        .find(|name| !name.is_empty())
        .unwrap_or_else(|| "you".to_string())
}

/// A sitting at the terminal: the games a person plays against the
/// engine, one after another.
struct Sitting {
    engine: Engine,
    rules: Rules,
    human: Player,
    /// The person's name in records.
    human_name: String,
    skill: u8,
    /// Limits of the engine's own moves.
    limits: Limits,
    /// Limits of hints, at full strength.
    hint_limits: Limits,
    /// Where each game starts (the start, or --fen and --moves).
    base: Game,
    replay: Game,
    /// The record comment of each move of `replay`: the engine's score,
    /// depth and time after its own moves, as match records carry them.
    comments: Vec<Option<String>>,
    /// The file games are appended to.
    record: Option<std::path::PathBuf>,
    /// Games played so far (finished or left).
    games: u32,
    /// The game a Ctrl-C saves, with --record.
    on_interrupt: Option<Pending>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Ending {
    /// Played to its end.
    Over,
    /// Left with `quit`.
    Left,
    /// Input ended.
    EndOfInput,
}

/// What the person typed.
enum Input {
    Move(Move),
    Moves,
    Undo,
    Hint,
    Board,
    Fen,
    Help,
    Quit,
}

const HELP: &str = "\
Type a move in the engine's notation: a file letter for the first move
(e.g. c), then origin, landing point and capture directions (e.g. b4c4n,
c4c7ew); the directions may be left out when only one move has that origin
and landing point. Commands:
  moves   list the legal moves
  undo    take back your last move (and the engine's reply)
  hint    ask the engine for a move
  board   show the board again
  fen     print the position string
  help    this text
  quit    leave the game";

impl Sitting {
    /// Plays games until the person declines another, leaves or input
    /// ends; records each if asked.
    fn play_games(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        loop {
            let ending = self.play(input, out);
            self.forget_for_interrupt();
            let ending = ending?;
            self.games += 1;
            if let Err(message) = self.save_record(ending) {
                writeln!(out, "{message}")?;
            }
            if ending != Ending::Over {
                return Ok(());
            }
            write!(out, "Another game? (y/n)> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            if !matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
                return Ok(());
            }
            self.replay = self.base.clone();
            self.comments = vec![None; self.replay.moves().len()];
            self.engine.new_game();
            writeln!(out)?;
        }
    }

    /// Appends the game just played to the record file, if any.
    fn save_record(&self, ending: Ending) -> Result<(), SaveError> {
        match &self.record {
            Some(path) => append_record(path, &self.record_of(self.games, ending)),
            None => Ok(()),
        }
    }

    /// The record of the game on the board as game `round` of the
    /// sitting, ended as `ending` says.
    fn record_of(&self, round: u32, ending: Ending) -> Record {
        let engine_name = format!(
            "pasang {} (skill {})",
            env!("CARGO_PKG_VERSION"),
            self.skill
        );
        let players = match self.human {
            Player::South => [self.human_name.clone(), engine_name],
            Player::North => [engine_name, self.human_name.clone()],
        };
        let result = match ending {
            Ending::Over => GameResult::of_status(&Status::of(&self.replay.current(), &self.rules)),
            Ending::Left | Ending::EndOfInput => GameResult::Unfinished,
        };
        Record::from_game(Scoresheet {
            numbering: vec![("Round", round.to_string())],
            players,
            result,
            ply_count: true,
            ..Scoresheet::of_game("pasang play", &self.replay, &self.comments)
        })
    }

    /// Leaves what a Ctrl-C now would save: the game on the board as it
    /// stands (left, with the line that says so, or over).
    fn keep_for_interrupt(&self) {
        let (Some(pending), Some(path)) = (&self.on_interrupt, &self.record) else {
            return;
        };
        let over = Status::of(&self.replay.current(), &self.rules) != Status::InPlay;
        let (ending, told) = match over {
            true => (Ending::Over, None),
            false => (Ending::Left, Some(self.abandon_line())),
        };
        let unsaved = Unsaved {
            path: path.clone(),
            record: self.record_of(self.games + 1, ending),
            told,
        };
        *pending.lock().unwrap_or_else(PoisonError::into_inner) = Some(unsaved);
    }

    /// Nothing for a Ctrl-C to save: the game has ended and is saved as
    /// such (or not at all, without --record).
    fn forget_for_interrupt(&self) {
        if let Some(pending) = &self.on_interrupt {
            pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
        }
    }

    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<Ending> {
        writeln!(
            out,
            "You play {} against pasang (skill {}). Type 'help' for the commands.\n",
            player_title(self.human),
            self.skill
        )?;
        self.show_board(out)?;
        loop {
            let position = self.replay.current();
            let status = Status::of(&position, &self.rules);
            self.keep_for_interrupt();
            if let Status::Over { winner, .. } = status {
                if self
                    .replay
                    .last()
                    .is_some_and(|(before, _)| before.side_to_move() == self.human)
                {
                    // The person's move ended the game: show where (the
                    // details under the board say how it ended).
                    self.show_board(out)?;
                }
                let verdict = match winner {
                    Some(player) if player == self.human => "You win.",
                    Some(_) => "pasang wins.",
                    None => "A draw.",
                };
                writeln!(out, "{verdict}")?;
                return Ok(Ending::Over);
            }
            if position.side_to_move() != self.human {
                self.engine_move(out)?;
                self.show_board(out)?;
                continue;
            }
            write!(out, "{} to move> ", player_title(self.human))?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                self.abandon(out)?;
                return Ok(Ending::EndOfInput);
            }
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            match self.parse_input(text) {
                Err(error) => writeln!(out, "{}", self.refusal(text, &error))?,
                Ok(Input::Move(mv)) => {
                    self.report_move(out, mv, "You play", "")?;
                    self.push(mv, None);
                }
                Ok(Input::Moves) => self.list_moves(out)?,
                Ok(Input::Undo) => self.undo(out)?,
                Ok(Input::Hint) => self.hint(out)?,
                Ok(Input::Board) => self.show_board(out)?,
                Ok(Input::Fen) => writeln!(out, "{}", format_position(&position))?,
                Ok(Input::Help) => writeln!(out, "{HELP}")?,
                Ok(Input::Quit) => {
                    self.abandon(out)?;
                    return Ok(Ending::Left);
                }
            }
        }
    }

    fn parse_input(&self, text: &str) -> Result<Input, MoveError> {
        Ok(match text.to_ascii_lowercase().as_str() {
            "moves" | "legal" => Input::Moves,
            "undo" | "takeback" | "back" => Input::Undo,
            "hint" => Input::Hint,
            "board" | "show" | "d" => Input::Board,
            "fen" | "position" => Input::Fen,
            "help" | "?" => Input::Help,
            "quit" | "exit" | "q" | "resign" => Input::Quit,
            _ => Input::Move(parse_move(&self.replay.current(), &self.rules, text)?),
        })
    }

    /// What a move refused for `error` is told: an ambiguous one (a
    /// landing point without its capture directions) with its readings,
    /// any other with the way to the legal moves.
    fn refusal(&self, text: &str, error: &MoveError) -> String {
        let typed = text.to_ascii_lowercase();
        let readings: Vec<String> =
            crate::movegen::legal_moves(&self.replay.current(), &self.rules)
                .iter()
                .map(ToString::to_string)
                .filter(|reading| reading.trim_end_matches(['n', 's', 'e', 'w']) == typed)
                .collect();
        if readings.len() > 1 {
            let readings: Vec<&str> = readings.iter().map(String::as_str).collect();
            format!("{error}: {}", crate::rules::one_of(&readings))
        } else {
            format!("{error} (type 'moves' for the legal moves)")
        }
    }

    fn show_board(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let position = self.replay.current();
        let last = self.replay.last();
        write!(out, "{}", board_text_from(&position, last, self.human))?;
        write!(out, "{}", details(&position, &self.rules, last))?;
        writeln!(out)
    }

    /// One line saying who played what and what it captured.
    fn report_move(
        &self,
        out: &mut dyn Write,
        mv: Move,
        who: &str,
        note: &str,
    ) -> std::io::Result<()> {
        let before = self.replay.current();
        let after = before.play(mv);
        let mover = before.side_to_move();
        let points = super::points_taken(&before, mv);
        writeln!(
            out,
            "{who} {mv}: +{} ({}); South {} - North {}{note}",
            after.score(mover) - before.score(mover),
            points.join(" "),
            after.score(Player::South),
            after.score(Player::North)
        )
    }

    /// Plays `mv` with its record comment.
    fn push(&mut self, mv: Move, comment: Option<String>) {
        self.replay.push(mv);
        self.comments.push(comment);
    }

    /// Searches the current position with `limits`: the move, its score,
    /// the depth reached and the time taken.
    fn think(&mut self, limits: &Limits) -> Option<(Move, Score, u32, Duration)> {
        self.engine.set_position(self.replay.current());
        let start = Instant::now();
        let result = self.engine.search(limits, &Silent);
        let info = result.final_info?;
        Some((result.best_move?, info.score, info.depth, start.elapsed()))
    }

    fn engine_move(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "pasang is thinking...")?;
        out.flush()?;
        let limits = self.limits.clone();
        match self.think(&limits) {
            Some((mv, score, depth, elapsed)) => {
                let side = player_title(self.human.opponent());
                let who = format!("pasang ({side}) plays");
                let note = format!("  [eval {} for {side}]", points(score));
                self.report_move(out, mv, &who, &note)?;
                let comment = engine_comment(score, depth, elapsed);
                self.push(mv, Some(comment));
            }
            None => {
                // Unreachable while the game is in play; fall back to the
                // first legal move rather than stalling.
                let Some(&mv) = self.engine.legal_moves().first() else {
                    return Ok(());
                };
                self.report_move(out, mv, "pasang plays", "")?;
                self.push(mv, None);
            }
        }
        Ok(())
    }

    fn list_moves(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        self.engine.set_position(self.replay.current());
        let moves: Vec<String> = self
            .engine
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        writeln!(out, "Legal moves ({}):", moves.len())?;
        for chunk in moves.chunks(10) {
            writeln!(out, "  {}", chunk.join(" "))?;
        }
        Ok(())
    }

    /// Takes back moves to the last time it was the person's turn before
    /// now: their move and the engine's reply.
    fn undo(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let now = self.replay.moves().len();
        let earlier = (0..now)
            .rev()
            .find(|&index| self.replay.positions()[index].side_to_move() == self.human);
        match earlier {
            Some(index) => {
                let taken: Vec<String> = self.replay.moves()[index..]
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                self.replay.truncate(index);
                self.comments.truncate(index);
                writeln!(out, "Took back {}.", taken.join(" "))?;
                self.show_board(out)
            }
            None => writeln!(out, "Nothing to take back."),
        }
    }

    fn hint(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        // Hints come from full strength, whatever the opponent's level.
        self.engine.set_skill_level(MAX_SKILL);
        let limits = self.hint_limits.clone();
        let found = self.think(&limits);
        self.engine.set_skill_level(self.skill);
        match found {
            Some((mv, score, _, _)) => {
                writeln!(out, "Hint: {mv} (eval {} for you)", points(score))
            }
            None => writeln!(out, "No hint: there is no legal move."),
        }
    }

    fn abandon(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.abandon_line())
    }

    /// `Game abandoned after N plies: South S - North N.`
    fn abandon_line(&self) -> String {
        let position = self.replay.current();
        let count = self.replay.moves().len();
        format!(
            "Game abandoned after {count} {}: South {} - North {}.",
            if count == 1 { "ply" } else { "plies" },
            position.score(Player::South),
            position.score(Player::North)
        )
    }
}

/// What a Ctrl-C saves: the game in progress, as left, and where.
struct Unsaved {
    /// The record file.
    path: PathBuf,
    /// The game's record, result `*`.
    record: Record,
    /// The line telling the game was abandoned (none for a game over).
    told: Option<String>,
}

/// The game a Ctrl-C would save, kept up to date by the sitting and
/// taken by the handler.
type Pending = Arc<Mutex<Option<Unsaved>>>;

/// Keeps a game interrupted by Ctrl-C (SIGINT), at the prompt or while
/// the engine thinks: the handler, on a thread of its own, appends the
/// pending game to its record file, says so on stderr (the sitting holds
/// stdout) and ends the process with 130, as an interrupted program does.
fn keep_games_on_interrupt(pending: Pending) {
    let handler = move || {
        // Held until exit, so the sitting cannot save the game again.
        let mut unsaved = pending.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(unsaved) = unsaved.take() {
            let mut stderr = std::io::stderr();
            if let Some(told) = &unsaved.told {
                let _ = writeln!(stderr, "\n{told}");
            }
            if let Err(error) = append_record(&unsaved.path, &unsaved.record) {
                let _ = writeln!(stderr, "{error}");
            }
        }
        std::process::exit(130);
    };
    if let Err(error) = ctrlc::set_handler(handler) {
        eprintln!("warning: a game left with Ctrl-C will not be recorded: {error}");
    }
}

/// Appends `record` to the file at `path`, creating it if need be.
fn append_record(path: &Path, record: &Record) -> Result<(), SaveError> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| SaveError::Open(path.to_path_buf(), error))?;
    write!(file, "{record}").map_err(|error| SaveError::Write(path.to_path_buf(), error))
}

/// The comment after an engine's move, as match records write it:
/// `<score>/<depth> <seconds>s`, the score in points from the mover's view
/// (`+M<n>`/`-M<n>` for a win or loss by force in n moves).
fn engine_comment(score: Score, depth: u32, elapsed: Duration) -> String {
    format!("{}/{depth} {:.3}s", points(score), elapsed.as_secs_f64())
}

/// A score in points, as records, the board and annotate write it:
/// `+7.36`, `-0.05`, `+M3` (a win by force in 3 moves), `-M2`.
fn points(score: Score) -> String {
    match score {
        Score::Centipoints(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(moves) if moves < 0 => format!("-M{}", -moves),
        Score::Mate(moves) => format!("+M{moves}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_comments_are_the_match_format() {
        let ms = Duration::from_millis(52);
        assert_eq!(
            engine_comment(Score::Centipoints(736), 11, ms),
            "+7.36/11 0.052s"
        );
        assert_eq!(
            engine_comment(Score::Centipoints(-5), 3, ms),
            "-0.05/3 0.052s"
        );
        assert_eq!(engine_comment(Score::Mate(-2), 3, ms), "-M2/3 0.052s");
        assert_eq!(engine_comment(Score::Mate(4), 9, ms), "+M4/9 0.052s");
    }

    fn game(human: Player) -> Sitting {
        let rules = Rules::default();
        let mut engine = Engine::new();
        engine.set_rules(rules);
        Sitting {
            engine,
            rules,
            human,
            human_name: "Ani".to_string(),
            skill: MAX_SKILL,
            limits: Limits {
                depth: Some(2),
                ..Limits::default()
            },
            hint_limits: Limits {
                depth: Some(2),
                ..Limits::default()
            },
            base: Game::from_moves(&rules, None, &[] as &[&str]).unwrap(),
            replay: Game::from_moves(&rules, None, &[] as &[&str]).unwrap(),
            comments: Vec::new(),
            record: None,
            games: 0,
            on_interrupt: None,
        }
    }

    fn session(game: &mut Sitting, script: &str) -> String {
        let mut output = Vec::new();
        game.play_games(&mut script.as_bytes(), &mut output)
            .unwrap();
        String::from_utf8(output).unwrap()
    }

    /// A position one move from the end: South's ka on a1 takes the last
    /// stone, the white on c2, either way it moves, and wins 12-10.
    const LAST_MOVE: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../..w......../S.........N s 10 10 ak";

    fn endgame(human: Player) -> Sitting {
        let mut game = game(human);
        game.base = Game::from_moves(&game.rules, Some(LAST_MOVE), &[] as &[&str]).unwrap();
        game.replay = game.base.clone();
        game
    }

    #[test]
    fn the_end_is_told_once_and_another_game_can_follow() {
        let mut game = endgame(Player::South);
        let moves = {
            game.engine
                .set_position(crate::notation::parse_position(LAST_MOVE).unwrap());
            game.engine.legal_moves()
        };
        let mv = moves[0].to_string();
        let text = session(&mut game, &format!("{mv}\ny\n{mv}\nn\n"));
        assert_eq!(text.matches("Game over:").count(), 2, "{text}");
        assert_eq!(text.matches("Another game?").count(), 2, "{text}");
        assert_eq!(game.games, 2);
    }

    #[test]
    fn north_sees_the_board_from_its_side() {
        let mut game = game(Player::North);
        let text = session(&mut game, "quit\n");
        assert!(text.contains("     k j i h g f e d c b a"), "{text}");
        let first_rank = text.lines().nth(3).unwrap_or_default();
        assert!(first_rank.trim_start().starts_with("1 "), "{text}");
    }

    #[test]
    fn games_are_saved_as_records_that_replay() {
        let path = std::env::temp_dir().join(format!("pasang-play-{}.pgn", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut game = game(Player::South);
        game.record = Some(path.clone());
        session(&mut game, "c\nquit\n");
        let mut game = endgame(Player::North);
        game.record = Some(path.clone());
        session(&mut game, "n\n");
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let records = crate::record::read(&text).unwrap();
        assert_eq!(records.len(), 2, "{text}");
        assert_eq!(records[0].result, GameResult::Unfinished);
        assert_eq!(records[0].moves.len(), 2, "{text}");
        records[0].replay().expect("the game left replays");
        assert_eq!(records[0].tag("South"), Some("Ani"));
        let engine = format!("pasang {} (skill 20)", env!("CARGO_PKG_VERSION"));
        assert_eq!(records[0].tag("North"), Some(engine.as_str()));
        // The person's move has no comment; the engine's carries its score
        // (from its own view), depth and time, as in match records.
        assert_eq!(records[0].moves[0].comment, None);
        let comment = records[0].moves[1].comment.clone().unwrap_or_default();
        let (score, time) = comment.split_once(' ').unwrap_or_default();
        assert!(
            score.ends_with("/2") && score.starts_with(['+', '-']),
            "{comment}"
        );
        assert!(time.ends_with('s'), "{comment}");
        assert_eq!(records[1].result, GameResult::SouthWins, "{text}");
        records[1].replay().expect("the game won replays");
    }

    #[test]
    fn a_scripted_game_moves_lists_undoes_and_quits() {
        let mut game = game(Player::South);
        let text = session(&mut game, "c\nb4c4n\nmoves\nundo\nzz\nquit\n");
        assert!(text.contains("You play c: +8"), "{text}");
        assert!(text.contains("You play b4c4n: +3"), "{text}");
        assert!(text.contains("Legal moves ("), "{text}");
        assert!(text.contains("Took back b4c4n "), "{text}");
        assert!(text.contains("malformed move 'zz'"), "{text}");
        assert!(text.contains("Game abandoned after 2 plies"), "{text}");
    }

    #[test]
    fn undo_before_any_move_of_ours_is_refused() {
        let mut game = game(Player::North);
        let text = session(&mut game, "undo\n");
        assert!(text.contains("Nothing to take back."), "{text}");
        assert!(text.contains("Game abandoned after 1 ply:"), "{text}");
    }
}
