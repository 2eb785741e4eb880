//! A position as a self-contained SVG picture: the grid with coordinates,
//! white and black stones, both kas labelled, the hole, and the last move
//! (its path, landing point and the stones it captured). [`render_marked`]
//! adds what the players' rules page shows: rings on points and a move
//! that the rules refuse, and leaves the caption (English words) out.

use std::fmt::Write as _;

use crate::bitboard::Square;
use crate::moves::Move;
use crate::outcome::player_title;
use crate::position::{Colour, Player, Position};

/// Pixels between neighbouring points.
const CELL: i32 = 40;
/// Room around the grid for the coordinates.
const MARGIN: i32 = 44;
/// Room below the board for the caption.
const CAPTION: i32 = 52;

const BOARD: &str = "#ecd5a3";
const LINE: &str = "#6b5334";
const MARK: &str = "#d35400";

/// Centre of a point in picture coordinates.
fn centre(square: Square) -> (i32, i32) {
    (
        MARGIN + square.file() as i32 * CELL,
        MARGIN + (10 - square.rank() as i32) * CELL,
    )
}

/// What a picture shows besides the position and its last move.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The caption under the board (score, side to move, last move), in
    /// English words.
    pub caption: bool,
    /// Points ringed, to draw the eye (a run, a blocker).
    pub rings: Vec<Square>,
    /// A move from one point to another that the rules refuse: a dashed
    /// arrow ending in a cross.
    pub refused: Option<(Square, Square)>,
    /// The letters on South's and North's kas, where not `S` and `N`
    /// (a picture for a page in another language: `S` and `U` in Malay).
    pub ka_letters: Option<[&'static str; 2]>,
}

/// The SVG text of `position`; `last` is the last move and the position
/// it was played from, marked when given.
pub fn render(position: &Position, last: Option<(Position, Move)>) -> String {
    render_marked(
        position,
        last,
        &Marks {
            caption: true,
            ..Marks::default()
        },
    )
}

/// As [`render`], with `marks` drawn over the position.
pub fn render_marked(position: &Position, last: Option<(Position, Move)>, marks: &Marks) -> String {
    let grid = 10 * CELL;
    let width = 2 * MARGIN + grid;
    let height = 2 * MARGIN + grid + if marks.caption { CAPTION } else { 0 };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(svg, "  <title>Pasang position</title>");
    let _ = writeln!(
        svg,
        r#"  <defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{MARK}"/></marker></defs>"#
    );
    let _ = writeln!(
        svg,
        r#"  <rect x="0" y="0" width="{width}" height="{height}" fill="{BOARD}"/>"#
    );
    // Rank 6 belongs to neither player: a faint band shows the halves.
    let _ = writeln!(
        svg,
        r#"  <rect x="{}" y="{}" width="{}" height="{CELL}" fill="{LINE}" fill-opacity="0.08"/>"#,
        MARGIN - CELL / 2,
        MARGIN + 4 * CELL + CELL / 2,
        grid + CELL
    );
    grid_and_coordinates(&mut svg, grid);
    if let Some((before, mv)) = last {
        last_move(&mut svg, &before, mv);
    }
    pieces(&mut svg, position, marks);
    if let Some((_, mv)) = last
        && !mv.is_passage()
    {
        let (x, y) = centre(mv.to());
        let _ = writeln!(
            svg,
            r#"  <circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="{MARK}" stroke-width="3"/>"#,
            CELL / 2 - 1
        );
    }
    rings_and_refusal(&mut svg, marks);
    if marks.caption {
        caption(&mut svg, position, last, height);
    }
    svg.push_str("</svg>\n");
    svg
}

fn grid_and_coordinates(svg: &mut String, grid: i32) {
    svg.push_str(&format!(
        r#"  <g stroke="{LINE}" stroke-width="1.5" stroke-linecap="square">"#
    ));
    svg.push('\n');
    for index in 0..11 {
        let offset = MARGIN + index * CELL;
        let _ = writeln!(
            svg,
            r#"    <line x1="{MARGIN}" y1="{offset}" x2="{}" y2="{offset}"/>"#,
            MARGIN + grid
        );
        let _ = writeln!(
            svg,
            r#"    <line x1="{offset}" y1="{MARGIN}" x2="{offset}" y2="{}"/>"#,
            MARGIN + grid
        );
    }
    svg.push_str("  </g>\n");
    let _ = writeln!(
        svg,
        r#"  <g fill="{LINE}" font-size="15" text-anchor="middle" dominant-baseline="central">"#
    );
    for file in 0..11 {
        let letter = (b'a' + file as u8) as char;
        let x = MARGIN + file * CELL;
        let _ = writeln!(
            svg,
            r#"    <text x="{x}" y="{}">{letter}</text><text x="{x}" y="{}">{letter}</text>"#,
            MARGIN - 28,
            MARGIN + grid + 28
        );
    }
    for rank in 0..11 {
        let y = MARGIN + (10 - rank) * CELL;
        let _ = writeln!(
            svg,
            r#"    <text x="{}" y="{y}">{number}</text><text x="{}" y="{y}">{number}</text>"#,
            MARGIN - 28,
            MARGIN + grid + 28,
            number = rank + 1
        );
    }
    svg.push_str("  </g>\n");
}

fn pieces(svg: &mut String, position: &Position, marks: &Marks) {
    let stone = CELL * 2 / 5;
    // The hole: a pit smaller than a stone, ringed, with the grid lines
    // cut around it, so it never reads as a black stone.
    let (x, y) = centre(Square::HOLE);
    let _ = writeln!(
        svg,
        r##"  <g><title>hole</title><circle cx="{x}" cy="{y}" r="{}" fill="{BOARD}"/><circle cx="{x}" cy="{y}" r="{}" fill="#5b4326" stroke="{LINE}" stroke-width="3"/><circle cx="{x}" cy="{y}" r="{}" fill="#241709"/></g>"##,
        stone,
        CELL / 4,
        CELL / 8
    );
    for square in Square::all() {
        let (x, y) = centre(square);
        match position.stone_at(square) {
            Some(Colour::White) => {
                let _ = writeln!(
                    svg,
                    r##"  <circle cx="{x}" cy="{y}" r="{stone}" fill="#fbfbf7" stroke="#222" stroke-width="1.5"><title>{square} white</title></circle>"##
                );
            }
            Some(Colour::Black) => {
                let _ = writeln!(
                    svg,
                    r##"  <circle cx="{x}" cy="{y}" r="{stone}" fill="#1d1d1d" stroke="#000" stroke-width="1.5"><title>{square} black</title></circle>"##
                );
            }
            None => {}
        }
    }
    let [south, north] = marks.ka_letters.unwrap_or(["S", "N"]);
    for (player, fill, label) in [
        (Player::South, "#b03a2e", south),
        (Player::North, "#1f5f99", north),
    ] {
        if let Some(square) = position.ka(player) {
            let (x, y) = centre(square);
            let _ = writeln!(
                svg,
                r##"  <g><title>{square} {} ka</title><rect x="{}" y="{}" width="{side}" height="{side}" rx="6" fill="{fill}" stroke="#111" stroke-width="1.5"/><text x="{x}" y="{y}" fill="#fff" font-size="20" font-weight="bold" text-anchor="middle" dominant-baseline="central">{label}</text></g>"##,
                player.name(),
                x - stone,
                y - stone,
                side = 2 * stone
            );
        }
    }
}

fn last_move(svg: &mut String, before: &Position, mv: Move) {
    let cross = CELL / 5;
    for square in before.capture(mv).points_taken() {
        let (x, y) = centre(square);
        let _ = writeln!(
            svg,
            r#"  <path d="M{} {} L{} {} M{} {} L{} {}" stroke="{MARK}" stroke-width="3" stroke-linecap="round"><title>{square} captured</title></path>"#,
            x - cross,
            y - cross,
            x + cross,
            y + cross,
            x - cross,
            y + cross,
            x + cross,
            y - cross
        );
    }
    if !mv.is_passage() {
        let (x1, y1) = centre(mv.from());
        let (x2, y2) = centre(mv.to());
        let _ = writeln!(
            svg,
            r#"  <circle cx="{x1}" cy="{y1}" r="{}" fill="none" stroke="{MARK}" stroke-width="2" stroke-dasharray="4 3"/>"#,
            CELL / 4
        );
        // Stop the arrow short of the landing point's ka.
        let (dx, dy) = ((x2 - x1).signum(), (y2 - y1).signum());
        let (tx, ty) = (x2 - dx * CELL / 2, y2 - dy * CELL / 2);
        let (sx, sy) = (x1 + dx * CELL / 4, y1 + dy * CELL / 4);
        let _ = writeln!(
            svg,
            r#"  <line x1="{sx}" y1="{sy}" x2="{tx}" y2="{ty}" stroke="{MARK}" stroke-width="4" marker-end="url(#arrow)"/>"#
        );
    }
}

/// The rings (green) and the refused move (a dashed red arrow and a cross).
fn rings_and_refusal(svg: &mut String, marks: &Marks) {
    for &square in &marks.rings {
        let (x, y) = centre(square);
        let _ = writeln!(
            svg,
            r##"  <circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="#1e8449" stroke-width="4"/>"##,
            CELL / 2 - 2
        );
    }
    if let Some((from, to)) = marks.refused {
        let (x1, y1) = centre(from);
        let (x2, y2) = centre(to);
        let (dx, dy) = ((x2 - x1).signum(), (y2 - y1).signum());
        let _ = writeln!(
            svg,
            r##"  <line x1="{}" y1="{}" x2="{x2}" y2="{y2}" stroke="#a93226" stroke-width="4" stroke-dasharray="8 6"/>"##,
            x1 + dx * CELL / 2,
            y1 + dy * CELL / 2
        );
        let cross = CELL / 3;
        let _ = writeln!(
            svg,
            r##"  <path d="M{} {} L{} {} M{} {} L{} {}" stroke="#a93226" stroke-width="6" stroke-linecap="round"/>"##,
            x2 - cross,
            y2 - cross,
            x2 + cross,
            y2 + cross,
            x2 - cross,
            y2 + cross,
            x2 + cross,
            y2 - cross
        );
    }
}

fn caption(svg: &mut String, position: &Position, last: Option<(Position, Move)>, height: i32) {
    let mut lines = vec![format!(
        "South {} \u{2013} North {} \u{00b7} {} to move",
        position.score(Player::South),
        position.score(Player::North),
        player_title(position.side_to_move())
    )];
    if let Some((before, mv)) = last {
        lines.push(format!(
            "last move {mv} ({})",
            player_title(before.side_to_move())
        ));
    }
    let top = height - CAPTION + 8;
    for (index, line) in lines.iter().enumerate() {
        let _ = writeln!(
            svg,
            r#"  <text x="{}" y="{}" fill="{LINE}" font-size="16" text-anchor="middle">{line}</text>"#,
            (2 * MARGIN + 10 * CELL) / 2,
            top + 20 * index as i32
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Game;
    use crate::rules::Rules;

    #[test]
    fn pictures_show_kas_captures_and_the_hole() {
        let moves: Vec<String> = ["c", "j", "b4c4n"].map(String::from).to_vec();
        let replay = Game::from_moves(&Rules::default(), None, &moves).unwrap();
        let svg = render(&replay.current(), replay.last());
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains(">S</text>"));
        assert!(svg.contains("<title>hole</title>"));
        assert!(svg.contains("c7 captured"));
        assert!(svg.contains("marker-end"));
        assert_eq!(svg.matches(" white</title>").count(), 52);
    }

    #[test]
    fn marked_pictures_ring_points_refuse_a_move_and_have_no_caption() {
        let position = Game::from_moves(&Rules::default(), None, &[] as &[&str])
            .unwrap()
            .current();
        let c4 = Square::new(3, 2).unwrap();
        let c7 = Square::new(6, 2).unwrap();
        let marks = Marks {
            caption: false,
            rings: vec![c4, c7],
            refused: Some((c4, c7)),
            ka_letters: None,
        };
        let svg = render_marked(&position, None, &marks);
        assert_eq!(svg.matches("stroke=\"#1e8449\"").count(), 2);
        assert!(svg.contains("stroke-dasharray=\"8 6\""));
        assert!(!svg.contains("to move"), "{svg}");
        assert!(render(&position, None).contains("to move"));
    }
}
