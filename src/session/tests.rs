//! The session driven as a transport would, playing the page and the
//! engine both.

use std::time::Duration;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::analysis::describe;
use super::*;
use crate::client::{EngineScore, Protocol, line};
use crate::protocol::Reply;
use crate::rules::Pattern;
use crate::session::request::FieldProblem;

/// The lines the session sent to a UCI engine.
fn lines_sent(session: &mut Session) -> Vec<String> {
    let commands = session.take_engine();
    commands.iter().map(|c| line(c, Protocol::Uci)).collect()
}

const OPTIONS: [&str; 7] = [
    "Pattern",
    "Ka Entry",
    "Second Column",
    "Centre",
    "Skill Level",
    "MultiPV",
    "Hash",
];

fn session() -> Session {
    let mut session = Session::new("pasang", OPTIONS.iter().map(|s| s.to_string()).collect());
    session.take_page();
    session
}

/// Acts on one request as [`Session::on_page`] does, but gives its error.
fn request(session: &mut Session, text: &str) -> Result<(), RequestError> {
    Request::parse(text).and_then(|request| session.act(request))
}

fn page(session: &mut Session) -> Vec<Value> {
    session
        .take_page()
        .iter()
        .map(|text| serde_json::from_str(text).unwrap())
        .collect()
}

#[test]
fn scores_are_shown_from_souths_side() {
    assert_eq!(describe(EngineScore::Mate(0), Player::North).0, "+#0");
    assert_eq!(
        describe(EngineScore::Centipoints(150), Player::North),
        ("-1.50".to_string(), -150)
    );
    assert_eq!(describe(EngineScore::Mate(3), Player::South).1, 100_000);
}

#[test]
fn a_person_plays_and_the_engine_answers() {
    let mut s = session();
    s.on_page(r#"{"type":"move","move":"c"}"#);
    let sent = lines_sent(&mut s);
    assert!(
        sent.contains(&format!("setoption name Skill Level value {DEFAULT_SKILL}")),
        "{sent:?}"
    );
    assert!(sent.contains(&"ucinewgame".to_string()));
    assert!(sent.ends_with(&[
        format!(
            "position fen {} moves c",
            Pattern::One.start_position_string()
        ),
        "go movetime 1000".to_string(),
    ]));
    page(&mut s);
    s.on_engine(
        &Reply::parse("info depth 3 seldepth 3 multipv 1 score cp 150 nodes 10 pv j b4c4n zz")
            .unwrap(),
    );
    s.on_engine(&Reply::parse("bestmove j ponder b4c4n").unwrap());
    let messages = page(&mut s);
    let info = messages.iter().find(|m| m["type"] == "info").unwrap();
    // North's +1.50 is South's -1.50; the illegal tail is cut.
    assert_eq!(info["score"], "-1.50");
    assert_eq!(info["pv"], json!(["j", "b4c4n"]));
    let state = messages
        .iter()
        .rev()
        .find(|m| m["type"] == "state")
        .unwrap();
    assert_eq!(state["moves"], json!(["c", "j"]));
    assert_eq!(state["status"], "South to move");
    assert!(
        lines_sent(&mut s).is_empty(),
        "the person's turn: no search"
    );
}

#[test]
fn bad_requests_get_errors_and_change_nothing() {
    let mut s = session();
    for (text, expected) in [
        ("not json", "malformed message"),
        (r#"{"type":"fly"}"#, "unknown type 'fly'"),
        (r#"{"type":"move","move":"k11"}"#, "k11"),
        (r#"{"type":"goto","ply":5}"#, "no ply 5"),
        (r#"{"type":"settings","skill":21}"#, "bad 'skill'"),
        (
            r#"{"type":"new","position":"nonsense"}"#,
            "invalid position",
        ),
        (
            r#"{"type":"mode","mode":"play","side":"east"}"#,
            "bad 'side'",
        ),
    ] {
        s.on_page(text);
        let messages = page(&mut s);
        assert_eq!(messages.len(), 1, "{text}: {messages:?}");
        assert_eq!(messages[0]["type"], "error");
        let message = messages[0]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{text}: {message}");
    }
    assert!(lines_sent(&mut s).is_empty());
}

/// Each refusal carries its kind (and the values its words need), for
/// the page to word in its own language.
#[test]
fn refusals_carry_their_kind() {
    let mut s = session();
    for (text, kind) in [
        ("not json", json!({"kind": "malformed"})),
        (
            r#"{"type":"move","move":"k11"}"#,
            json!({"kind": "illegal_move", "move": "k11", "reason": "not_a_move"}),
        ),
        (
            // A ka move before the passage: the rules core says why.
            r#"{"type":"move","move":"b4c4n"}"#,
            json!({"kind": "illegal_move", "move": "b4c4n", "reason": "passage_first"}),
        ),
        (
            r#"{"type":"goto","ply":5}"#,
            json!({"kind": "no_such_ply", "ply": 5}),
        ),
        (
            r#"{"type":"settings","skill":21}"#,
            json!({"kind": "bad_field", "field": "skill"}),
        ),
        (
            r#"{"type":"new","position":"nonsense"}"#,
            json!({"kind": "bad_position"}),
        ),
        (
            r#"{"type":"load","text":"1. zz *"}"#,
            json!({"kind": "bad_record"}),
        ),
        (
            r#"{"type":"mode","mode":"review"}"#,
            json!({"kind": "no error"}),
        ),
        (r#"{"type":"takeback"}"#, json!({"kind": "reviewing"})),
    ] {
        s.on_page(text);
        let errors: Vec<Value> = page(&mut s)
            .into_iter()
            .filter(|m| m["type"] == "error")
            .collect();
        if kind["kind"] == "no error" {
            assert!(errors.is_empty(), "{text}: {errors:?}");
            continue;
        }
        assert_eq!(errors.len(), 1, "{text}: {errors:?}");
        for (field, value) in kind.as_object().unwrap() {
            assert_eq!(&errors[0][field], value, "{text}: {:?}", errors[0]);
        }
    }
}

#[test]
fn fields_are_checked_before_the_sessions_state() {
    let mut s = session();
    s.on_page(r#"{"type":"mode","mode":"review"}"#);
    page(&mut s);
    // A move that is no string is refused for its field, not because
    // a review is on.
    let error = request(&mut s, r#"{"type":"move","move":5}"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "bad 'move': invalid type: integer `5`, expected a string"
    );
    assert!(matches!(
        request(&mut s, r#"{"type":"move","move":"c"}"#),
        Err(RequestError::Reviewing)
    ));
    // With no file open, any game number is past its games.
    for game in ["", r#","game":1"#, r#","game":0"#] {
        let text = format!(r#"{{"type":"pick"{game}}}"#);
        let error = request(&mut s, &text).unwrap_err();
        assert!(
            matches!(
                error,
                RequestError::BadField {
                    field: ref name,
                    problem: FieldProblem::NoSuchGame(0)
                } if name == "game"
            ),
            "{text}: {error}"
        );
    }
    // Settings are all checked before any is applied.
    s.on_page(r#"{"type":"settings","skill":3,"multipv":9}"#);
    assert_eq!(page(&mut s)[0]["type"], "error");
    assert_eq!(s.skill, DEFAULT_SKILL);
    s.on_page(r#"{"type":"settings","skill":3,"multipv":2}"#);
    let state = page(&mut s).pop().unwrap();
    assert_eq!(
        (state["skill"].clone(), state["multipv"].clone()),
        (json!(3), json!(2))
    );
}

#[test]
fn the_engines_turn_is_its_own() {
    let mut s = session();
    s.on_page(r#"{"type":"mode","mode":"play","side":"north"}"#);
    assert!(lines_sent(&mut s).contains(&"go movetime 1000".to_string()));
    page(&mut s);
    s.on_page(r#"{"type":"move","move":"c"}"#);
    assert_eq!(page(&mut s)[0]["message"], "it is the engine's turn");
}

#[test]
fn a_person_stepped_back_cannot_move_for_the_engine() {
    let mut s = session();
    s.on_page(r#"{"type":"move","move":"c"}"#);
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    s.on_page(r#"{"type":"goto","ply":1}"#);
    let state = page(&mut s).pop().unwrap();
    assert_eq!(
        state["legal"],
        json!([]),
        "no stone of the engine's lights up"
    );
    s.on_page(r#"{"type":"move","move":"k"}"#);
    assert_eq!(page(&mut s)[0]["message"], "it is the engine's turn");
    assert_eq!(s.game.len(), 2, "the engine's move stands");
}

#[test]
fn analysis_restarts_on_navigation_and_drops_stale_output() {
    let mut s = session();
    s.on_page(r#"{"type":"move","move":"c"}"#);
    s.on_page(r#"{"type":"settings","multipv":2}"#);
    s.on_page(r#"{"type":"mode","mode":"analyse"}"#);
    // The move search is stopped first; its bestmove is not played.
    assert_eq!(lines_sent(&mut s).last().unwrap(), "stop");
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    let sent = lines_sent(&mut s);
    assert!(
        sent.contains(&"setoption name MultiPV value 2".to_string()),
        "{sent:?}"
    );
    assert_eq!(sent.last().unwrap(), "go infinite");
    page(&mut s);
    s.on_engine(&Reply::parse("info depth 5 multipv 2 score mate 2 pv j").unwrap());
    s.flush();
    let info = page(&mut s).pop().unwrap();
    assert_eq!(info["multipv"], 2);
    assert_eq!(info["score"], "-#2");
    s.on_page(r#"{"type":"goto","ply":0}"#);
    assert_eq!(lines_sent(&mut s), ["stop"]);
    s.on_engine(&Reply::parse("info depth 6 multipv 1 score cp 5 pv j").unwrap());
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    s.flush();
    assert!(page(&mut s).iter().all(|m| m["type"] != "info"), "stale");
    assert_eq!(lines_sent(&mut s).last().unwrap(), "go infinite");
    s.on_page(r#"{"type":"run","on":false}"#);
    assert_eq!(lines_sent(&mut s), ["stop"]);
    s.on_engine(&Reply::parse("bestmove c").unwrap());
    assert!(lines_sent(&mut s).is_empty());
    assert_eq!(s.game.len(), 1, "analysis plays no move");
}

#[test]
fn options_the_engine_lacks_are_not_sent() {
    let mut s = Session::new("other", vec!["Hash".into()]);
    s.on_page(r#"{"type":"mode","mode":"watch"}"#);
    let sent = lines_sent(&mut s);
    assert!(
        sent.iter().all(|line| !line.starts_with("setoption")),
        "{sent:?}"
    );
    assert_eq!(sent.last().unwrap(), "go movetime 1000");
}

#[test]
fn an_illegal_engine_move_stops_the_engine() {
    let mut s = session();
    s.on_page(r#"{"type":"mode","mode":"watch"}"#);
    lines_sent(&mut s);
    page(&mut s);
    s.on_engine(&Reply::parse("bestmove z9z9").unwrap());
    let messages = page(&mut s);
    assert!(messages[0]["message"].as_str().unwrap().contains("z9z9"));
    assert!(lines_sent(&mut s).is_empty());
    s.on_engine_gone("exited");
    assert!(page(&mut s).is_empty(), "said once");
}

#[test]
fn without_an_engine_the_board_still_works() {
    let mut s = Session::new("missing", Vec::new());
    s.on_engine_gone("cannot start");
    let messages = page(&mut s);
    assert!(
        messages
            .iter()
            .any(|m| m["message"] == "engine: cannot start")
    );
    s.on_page(r#"{"type":"move","move":"c"}"#);
    s.on_page(r#"{"type":"mode","mode":"analyse"}"#);
    assert!(lines_sent(&mut s).is_empty());
    assert_eq!(s.game.len(), 1);
}

#[test]
fn the_clock_runs_for_the_mover_and_its_flag_ends_the_game() {
    let mut s = session();
    s.on_page(r#"{"type":"settings","clock_minutes":1,"clock_increment":2}"#);
    let state = page(&mut s).pop().unwrap();
    assert_eq!(state["clock"]["running"], "south");
    s.on_page(r#"{"type":"move","move":"c"}"#);
    let go = lines_sent(&mut s).pop().unwrap();
    // South has its increment; North's clock has just started.
    let words: Vec<&str> = go.split_whitespace().collect();
    let number = |at: usize| words[at].parse::<u64>().unwrap();
    assert_eq!(words[1], "wtime", "{go}");
    assert_eq!(words[3], "btime", "{go}");
    assert_eq!(words[5..], ["winc", "2000", "binc", "2000"], "{go}");
    assert!((61_000..=62_000).contains(&number(2)), "{go}");
    assert!((59_000..=60_000).contains(&number(4)), "{go}");
    s.tick(Instant::now());
    page(&mut s);
    s.tick(Instant::now() + Duration::from_secs(61));
    let state = page(&mut s).pop().unwrap();
    assert_eq!(state["over"], json!({"winner": "south", "reason": "time"}));
    assert!(
        state["status"]
            .as_str()
            .unwrap()
            .starts_with("South wins on time")
    );
    assert_eq!(lines_sent(&mut s), ["stop"]);
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    assert_eq!(s.game.len(), 1, "a move after the flag is not played");
    s.on_page(r#"{"type":"new"}"#);
    assert_eq!(page(&mut s).pop().unwrap()["over"], Value::Null);
}

#[test]
fn take_back_in_play_returns_to_the_persons_move() {
    let mut s = session();
    s.on_page(r#"{"type":"move","move":"c"}"#);
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    s.on_page(r#"{"type":"takeback"}"#);
    assert!(s.game.is_empty());
}

#[test]
fn in_friend_mode_both_sides_are_the_pages_and_the_engine_keeps_out() {
    let mut s = session();
    lines_sent(&mut s);
    s.on_page(r#"{"type":"mode","mode":"friend"}"#);
    s.on_page(r#"{"type":"names","south":"Ali","north":"Siti"}"#);
    for text in ["c", "j", "b4c4n"] {
        s.on_page(&json!({"type": "move", "move": text}).to_string());
    }
    let state = page(&mut s).pop().unwrap();
    assert_eq!(state["mode"], "friend");
    assert_eq!(state["person"], Value::Null);
    assert_eq!(state["moves"], json!(["c", "j", "b4c4n"]));
    assert!(
        !lines_sent(&mut s).iter().any(|line| line.starts_with("go")),
        "no search in friend mode"
    );
    // Take back is one ply, whoever moved.
    s.on_page(r#"{"type":"takeback"}"#);
    assert_eq!(s.game.len(), 2);
    let text = saved_record(&mut s);
    assert!(
        text.contains("[South \"Ali\"]") && text.contains("[North \"Siti\"]"),
        "{text}"
    );
    // A review of the game still names its players.
    s.on_page(r#"{"type":"mode","mode":"review"}"#);
    assert_eq!(s.player_names(), ("Ali".into(), "Siti".into()));
}

#[test]
fn a_game_against_the_engine_names_the_person_and_the_engine_at_its_level() {
    let mut s = session();
    s.on_page(r#"{"type":"settings","skill":3}"#);
    s.on_page(r#"{"type":"mode","mode":"play","side":"north"}"#);
    assert_eq!(
        s.player_names(),
        ("pasang (skill 3)".into(), "Anonymous".into())
    );
    // A name the page gives is the person's.
    s.on_page(r#"{"type":"names","south":"","north":"Siti"}"#);
    assert_eq!(s.player_names().1, "Siti");
    s.set_event("pasang web");
    let text = saved_record(&mut s);
    assert!(text.contains("[Event \"pasang web\"]"), "{text}");
}

#[test]
fn saving_and_loading_use_match_records() {
    let mut s = session();
    s.on_page(r#"{"type":"move","move":"c"}"#);
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    page(&mut s);
    let text = saved_record(&mut s);
    assert!(
        text.contains("[South \"Anonymous\"]") && text.contains("1. c j *"),
        "{text}"
    );
    s.on_page(r#"{"type":"new"}"#);
    s.on_page(&json!({"type": "load", "text": text}).to_string());
    assert_eq!(s.game.len(), 2);
}

#[test]
fn address_parts_are_named_in_errors_and_analyze_is_taken() {
    let mut s = session();
    s.on_page(r#"{"type":"new","position":"garbage","tag":"position=garbage"}"#);
    let error = page(&mut s).pop().unwrap();
    assert_eq!(error["tag"], "position=garbage");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("invalid position")
    );
    s.on_page(r#"{"type":"mode","mode":"analyze"}"#);
    let messages = page(&mut s);
    let state = messages.iter().find(|m| m["type"] == "state").unwrap();
    assert_eq!(state["mode"], "analyse");
    s.on_page(r#"{"type":"mode","mode":"fly"}"#);
    let error = page(&mut s).pop().unwrap();
    assert!(
        error["message"].as_str().unwrap().contains("analyze"),
        "{error}"
    );
    assert_eq!(error["tag"], Value::Null);
}

/// The text of the record the session answers `save` with.
fn saved_record(s: &mut Session) -> String {
    s.on_page(r#"{"type":"save"}"#);
    page(s).pop().unwrap()["text"].as_str().unwrap().to_string()
}

/// Polls the session until its review is done.
fn finish_review(s: &mut Session) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        s.tick(Instant::now());
        if let Some(done) = page(s)
            .into_iter()
            .find(|m| m["type"] == "review" && m["running"] == false)
        {
            return done;
        }
        assert!(Instant::now() < deadline, "the review did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_game_just_played_is_reviewed_with_one_request() {
    let mut s = session();
    s.on_page(r#"{"type":"move","move":"c"}"#);
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    page(&mut s);
    s.on_page(r#"{"type":"mode","mode":"review"}"#);
    let messages = page(&mut s);
    let review = messages.iter().find(|m| m["type"] == "review").unwrap();
    assert_eq!(review["players"]["south"], "Anonymous");
    assert_eq!(review["players"]["north"], "pasang (skill 5)");
    assert_eq!(review["total"], 3);
    let done = finish_review(&mut s);
    assert_eq!(done["game"]["plies"][1]["move"], "j");
    // Back in play the game goes on, and its review goes with the
    // moves it judged.
    s.on_page(r#"{"type":"mode","mode":"play","side":"south"}"#);
    s.on_page(r#"{"type":"move","move":"b4c4n"}"#);
    assert!(s.review.is_none());
}

#[test]
fn a_file_of_two_games_is_picked_from_and_reviewed() {
    let mut s = session();
    let text = "[Event \"a\"]\n[South \"Ann\"]\n[North \"Bob\"]\n[Result \"*\"]\n\n1. d k *\n\n\
                [Event \"b\"]\n[South \"Cid\"]\n[North \"Dee\"]\n[Result \"*\"]\n\n1. c j 2. b4c4n *\n";
    s.on_page(&json!({"type": "load", "text": text, "review": true}).to_string());
    let messages = page(&mut s);
    let games = messages.iter().find(|m| m["type"] == "games").unwrap();
    assert_eq!(games["games"][1]["north"], "Dee");
    assert!(
        messages.iter().all(|m| m["type"] != "review"),
        "nothing picked yet"
    );
    assert!(s.game.is_empty());
    // A game that does not replay is refused and changes nothing.
    let broken = text.replace("1. d k *", "1. d d *");
    s.on_page(&json!({"type": "load", "text": broken, "review": true}).to_string());
    page(&mut s);
    s.on_page(r#"{"type":"pick","game":1}"#);
    let error = page(&mut s).pop().unwrap();
    assert!(
        error["message"].as_str().unwrap().contains("ply 2"),
        "{error}"
    );
    assert!(s.game.is_empty() && !s.file.as_ref().unwrap().is_chosen());
    s.on_page(&json!({"type": "load", "text": text, "review": true}).to_string());
    page(&mut s);
    s.on_page(r#"{"type":"pick","game":3}"#);
    assert!(
        page(&mut s)[0]["message"]
            .as_str()
            .unwrap()
            .contains("2 games")
    );
    s.on_page(r#"{"type":"pick","game":2}"#);
    let messages = page(&mut s);
    let state = messages.iter().find(|m| m["type"] == "state").unwrap();
    assert_eq!(state["mode"], "review");
    assert_eq!(state["moves"], json!(["c", "j", "b4c4n"]));
    let started = messages.iter().find(|m| m["type"] == "review").unwrap();
    assert_eq!(started["running"], true);
    assert_eq!(started["players"]["south"], "Cid");
    assert!(s.take_engine().is_empty(), "the page's engine is not asked");
    // Stepping through is allowed; playing another move is not.
    s.on_page(r#"{"type":"goto","ply":1}"#);
    s.on_page(r#"{"type":"move","move":"j"}"#);
    assert!(
        page(&mut s)
            .iter()
            .any(|m| m["message"].as_str().is_some_and(|m| m.contains("review")))
    );
    let done = finish_review(&mut s);
    assert_eq!(done["game"]["plies"].as_array().unwrap().len(), 3);
    // Saved, it is the annotated record; read again, it is the review
    // at once, with no search.
    s.on_page(r#"{"type":"save"}"#);
    let record = page(&mut s).pop().unwrap();
    assert_eq!(record["annotated"], true);
    let annotated = record["text"].as_str().unwrap().to_string();
    assert!(
        annotated.contains("[SouthAccuracy") || annotated.contains("[SouthBlunders"),
        "{annotated}"
    );
    let mut fresh = session();
    fresh.on_page(&json!({"type": "load", "text": annotated, "review": true}).to_string());
    let review = page(&mut fresh)
        .into_iter()
        .find(|m| m["type"] == "review")
        .unwrap();
    assert_eq!(review["running"], false);
    assert_eq!(review["game"]["plies"], done["game"]["plies"]);
}

/// The state the page would be shown now.
fn state_now(s: &mut Session) -> Value {
    s.send_state();
    page(s).pop().unwrap()
}

/// Whatever page message `text` is, the session answers with messages the
/// page can read and does not panic; a refused one is answered with one
/// error and leaves the state as it was, with nothing for the engine.
fn answers_and_a_refusal_changes_nothing(text: &str) -> Result<(), TestCaseError> {
    let mut s = session();
    s.on_page(r#"{"type":"move","move":"c"}"#);
    s.on_engine(&Reply::parse("bestmove j").unwrap());
    s.take_engine();
    let before = state_now(&mut s);
    s.on_page(text);
    let messages = page(&mut s);
    prop_assert!(messages.iter().all(|m| m["type"].is_string()), "{text}");
    if messages.iter().any(|m| m["type"] == "error") {
        prop_assert_eq!(messages.len(), 1, "{}", text);
        prop_assert!(
            messages[0]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
        prop_assert_eq!(state_now(&mut s), before, "{}", text);
        prop_assert!(s.take_engine().is_empty(), "{}", text);
    }
    Ok(())
}

/// A field the page's messages have (or not), with a value of any kind.
fn field() -> impl Strategy<Value = (&'static str, Value)> {
    let names = prop::sample::select(vec![
        "rules",
        "position",
        "move",
        "ply",
        "mode",
        "side",
        "skill",
        "movetime",
        "multipv",
        "clock_minutes",
        "clock_increment",
        "on",
        "text",
        "review",
        "game",
        "tag",
        "other",
    ]);
    let values = prop::sample::select(vec![
        Value::Null,
        json!(true),
        json!(-1),
        json!(0),
        json!(1),
        json!(3),
        json!(21),
        json!(1.5),
        json!(u64::MAX),
        json!(""),
        json!("c"),
        json!("k11"),
        json!("north"),
        json!("east"),
        json!("play"),
        json!("analyze"),
        json!("1. c j *"),
        json!({"pattern": "2", "centre": "x"}),
        json!([1]),
    ]);
    (names, values)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_page_message_panics_and_a_refused_one_changes_nothing(
        kind in prop::sample::select(vec![
            "new", "move", "goto", "takeback", "mode", "settings", "run", "load", "pick",
            "save", "fly", "",
        ]),
        fields in prop::collection::vec(field(), 0..4),
    ) {
        let mut message = json!({"type": kind});
        for (name, value) in fields {
            message[name] = value;
        }
        answers_and_a_refusal_changes_nothing(&message.to_string())?;
    }

    #[test]
    fn no_text_from_the_page_panics(text in ".{0,40}") {
        answers_and_a_refusal_changes_nothing(&text)?;
    }
}

#[test]
fn a_resignation_ends_the_game_and_its_record_says_so() {
    let mut session = session();
    request(&mut session, r#"{"type":"mode","mode":"friend"}"#).unwrap();
    request(&mut session, r#"{"type":"move","move":"c"}"#).unwrap();
    page(&mut session);
    // North is to move in the friend game: North resigns.
    request(&mut session, r#"{"type":"resign"}"#).unwrap();
    let state = page(&mut session).pop().unwrap();
    assert_eq!(state["over"]["winner"], "south", "{state}");
    assert_eq!(state["over"]["reason"], "resignation");
    assert_eq!(state["legal"], json!([]));
    assert!(matches!(
        request(&mut session, r#"{"type":"move","move":"j"}"#),
        Err(RequestError::Game(GameError::GameOver))
    ));
    assert!(matches!(
        request(&mut session, r#"{"type":"resign"}"#),
        Err(RequestError::Game(GameError::GameOver))
    ));
    request(&mut session, r#"{"type":"save"}"#).unwrap();
    let record = page(&mut session).pop().unwrap();
    let text = record["text"].as_str().unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    // Taking back takes the resignation back; a new game has none.
    request(&mut session, r#"{"type":"takeback"}"#).unwrap();
    assert_eq!(page(&mut session).pop().unwrap()["over"], Value::Null);
    request(&mut session, r#"{"type":"move","move":"j"}"#).unwrap();
    // In play the person resigns, whoever is to move.
    request(
        &mut session,
        r#"{"type":"mode","mode":"play","side":"north"}"#,
    )
    .unwrap();
    request(&mut session, r#"{"type":"resign"}"#).unwrap();
    let state = page(&mut session).pop().unwrap();
    assert_eq!(state["over"]["winner"], "south", "{state}");
}

#[test]
#[cfg(feature = "cli")]
fn a_session_without_an_engine_refuses_what_needs_one() {
    let mut session = Session::without_engine();
    let start = page(&mut session);
    assert_eq!(start[0]["type"], "hello");
    assert_eq!(start[1]["mode"], "analyse");
    for mode in ["play", "watch", "review"] {
        let asked = format!(r#"{{"type":"mode","mode":"{mode}"}}"#);
        assert!(matches!(
            request(&mut session, &asked),
            Err(RequestError::NoEngine(name)) if name == mode
        ));
    }
    assert!(matches!(
        request(&mut session, r#"{"type":"load","text":"","review":true}"#),
        Err(RequestError::NoEngine("review"))
    ));
    request(&mut session, r#"{"type":"mode","mode":"friend"}"#).unwrap();
    request(&mut session, r#"{"type":"move","move":"c"}"#).unwrap();
    assert!(
        session.take_engine().is_empty(),
        "nothing is asked of an engine"
    );
}
