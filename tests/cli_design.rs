//! A designer's commands through the built binary: `bench`, the rules' own examples, `render`
//! (SVG and PNG), `explain` and `fmt`, and four players from run to replay.

use crate::common;
use crate::common::run::{json, outflank, outflank_with_input, stderr, stdout};
use serde_json::Value;

fn temp(name: &str) -> String {
    common::run::temp("cli", name)
}

#[test]
fn bench_reports_rates_per_game() {
    let v = json(&outflank(&[
        "bench",
        "games/othello.rules",
        "games/reversi-go-19x19.rules",
        "--seconds",
        "0.05",
        "--json",
    ]));
    let rows = v["games"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["game"], "Othello");
    assert!(rows[0]["playouts_per_second"].as_f64().unwrap() > 0.0);
    assert!(rows[0]["perft_depth"].as_u64().unwrap() >= 1);
    assert!(rows[1]["bytes_per_state"].as_u64().unwrap() > 0);
    // The runner's state is the board and counters, smaller than the engine's position.
    let runner = rows[0]["runner_bytes_per_state"].as_u64().unwrap();
    assert!(runner > 0 && runner < rows[0]["bytes_per_state"].as_u64().unwrap());
    // A board of 361 cells runs on the runner too, in six-word sets.
    let wide = rows[1]["runner_bytes_per_state"].as_u64().unwrap();
    assert!(wide > runner && wide < rows[1]["bytes_per_state"].as_u64().unwrap());
    assert_eq!(rows[0]["path"], "direct");
    assert_eq!(rows[1]["path"], "enclosure loop");
    // The table says the same, under the runner's one name.
    let o = outflank(&["bench", "games/ataxx.rules", "--seconds", "0.05"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let header = text.lines().next().unwrap();
    assert!(
        header.contains("runner bytes") && header.ends_with("path"),
        "{text}"
    );
    assert!(
        text.lines().nth(1).unwrap().ends_with("  general"),
        "{text}"
    );
    assert!(!text.to_lowercase().contains("kernel"), "{text}");
}

#[test]
fn every_bundled_game_passes_its_own_examples() {
    let mut files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games"))
        .unwrap()
        .map(|e| format!("games/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    files.sort();
    let mut args = vec!["test"];
    args.extend(files.iter().map(String::as_str));
    let o = outflank(&args);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}\n{}", stderr(&o));
    assert!(
        !text.contains("(no examples)"),
        "every game carries examples:\n{text}"
    );
    assert!(text.trim_end().ends_with(" passed, 0 failed"), "{text}");
}

#[test]
fn kinds_of_piece_pass_their_examples() {
    // Jokers and stones in the setup; a stone placed with `place c as stone`; a joker named
    // by a line.
    for (file, passed) in [
        ("joker-and-stones", 2),
        ("place-a-stone", 1),
        ("kinds-in-lines", 1),
    ] {
        let path = format!("tests/fixtures/valid/{file}.rules");
        let o = outflank(&["test", &path]);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
        let summary = format!("{passed} passed, 0 failed");
        assert!(text.trim_end().ends_with(&summary), "{text}");
    }
    // `check` names the kinds after the players.
    let o = outflank(&["check", "tests/fixtures/valid/joker-and-stones.rules"]);
    assert!(
        stdout(&o).contains("black and white; piece joker; piece stone)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn examples_run_with_the_parameters_they_set() {
    // The 6 x 6 example plays f6, which the default 4 x 4 board does not have; the 8 x 8 one
    // offers only corners, which a parameter of its own asks for.
    let o = outflank(&["test", "tests/fixtures/valid/example-settings.rules"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    for name in [
        "the default board is 4 x 4",
        "a 6 x 6 board",
        "corners first on 8 x 8",
    ] {
        assert!(text.contains(&format!("ok    {name}")), "{text}");
    }
    assert!(text.trim_end().ends_with("3 passed, 0 failed"), "{text}");
}

#[test]
fn a_failing_example_is_reported_with_a_board_diff() {
    let o = outflank(&["test", "tests/fixtures/valid/failing-example.rules"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(text.contains("ok    placing works"), "{text}");
    assert!(
        text.contains("FAIL  a wrong expectation: the board differs"),
        "{text}"
    );
    assert!(
        text.contains("expected") && text.contains("actual"),
        "{text}"
    );
    assert!(
        text.contains("*  1 W...       B..."),
        "the differing row is marked: {text}"
    );
    assert!(text.trim_end().ends_with("1 passed, 1 failed"), "{text}");
    assert!(
        stderr(&o).contains("failing-example.rules:"),
        "points at the example: {}",
        stderr(&o)
    );
}

/// The elements of an SVG document with the given `class`.
fn count_class(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .count()
}

#[test]
fn render_draws_a_well_formed_diagram() {
    let path = temp("board.svg");
    let o = outflank(&[
        "render",
        "games/vect-reverse-corner-lock.rules",
        "--moves",
        "d3-d4>c3",
        "--mark",
        "last",
        "--shade",
        "centre",
        "--svg",
        &path,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let class = |c: &str| count_class(&doc, c);
    // After d3 and the move of d4 to c3: black d3, c3, e4, d5; white e5.
    let pieces: Vec<(String, String)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| {
            (
                n.attribute("data-player").unwrap().to_string(),
                format!(
                    "{},{}",
                    n.attribute("cx").unwrap(),
                    n.attribute("cy").unwrap()
                ),
            )
        })
        .collect();
    assert_eq!(pieces.len(), 5);
    assert_eq!(pieces.iter().filter(|(p, _)| p == "black").count(), 4);
    assert_eq!(class("removed"), 4, "the four corners");
    assert_eq!(class("region"), 4, "the centre squares are shaded");
    assert_eq!(class("coord"), 16, "a to h and 1 to 8");
    assert_eq!(
        class("mark"),
        3,
        "the placement, the chosen disc and its destination"
    );
    insta::assert_snapshot!(text);

    let o = outflank(&[
        "render",
        "games/othello.rules",
        "--shade",
        "nowhere",
        "--svg",
        &path,
    ]);
    assert!(
        stderr(&o).contains("no region named `nowhere`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn explain_points_at_the_rule_that_allows_or_forbids() {
    let o = outflank(&["explain", "games/othello.rules", "d3"]);
    let text = stdout(&o);
    assert!(o.status.success());
    assert!(text.starts_with("d3 is legal for black"), "{text}");
    assert!(
        text.contains("othello.rules:32"),
        "points at the choose: {text}"
    );
    assert!(
        text.trim_end().ends_with("it places d3; flips d4"),
        "{text}"
    );
    insta::assert_snapshot!("explain_legal", text);

    // Empty, but outflanks nothing: the where clause is to blame, not the set.
    let o = outflank(&["explain", "games/othello.rules", "a1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("for a1 this condition is false"),
        "{}",
        stdout(&o)
    );
    // BrainKing's opening: a1 is outside the centre squares the option offers.
    let o = outflank(&["explain", "games/reversi-8x8.rules", "a1"]);
    assert!(
        stdout(&o).contains("a1 is not in the cells this option offers"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("empty & centre"), "{}", stdout(&o));
    // A failing requirement (Reversi Go's suicide rule).
    let position =
        "BBBBB.W../WWWWWW.../........./........./........./........./........./........./.........";
    let o = outflank(&[
        "explain",
        "games/reversi-go-9x9.rules",
        "--position",
        position,
        "--to-move",
        "black",
        "f1",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("after f1 this requirement does not hold"),
        "{text}"
    );
    assert!(text.contains("require some(liberties(group(c)))"), "{text}");
    insta::assert_snapshot!("explain_require", text);
    // Not a cell at all.
    let o = outflank(&["explain", "games/othello.rules", "z9"]);
    assert!(
        stdout(&o).contains("`z9` is not a cell of this 8 x 8 board"),
        "{}",
        stdout(&o)
    );
    // A chain: every step, and everything it changes.
    let position = "......../......../..D...../...L..../......../.....L../......../........";
    let o = outflank(&[
        "explain",
        "games/verto-8x8.rules",
        "--position",
        position,
        "--to-move",
        "dark",
        "e5-g7",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("`e5` is allowed") && text.contains("`-g7` is allowed"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("it places e5 g7; flips d4 f6"),
        "{text}"
    );
}

#[test]
fn fmt_rewrites_layout_and_check_reports() {
    let path = temp("messy.rules");
    std::fs::write(&path, "board 4 x 4   // the board\nplayer black 'B'\n   player white 'W'\nturn {\nchoose c in empty {   place c }\n}\n\n\n\nend when none(empty)\nscore p = count(p)\n").unwrap();
    let o = outflank(&["fmt", "--check", &path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("is not formatted"));
    let o = outflank(&["fmt", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text,
        "board 4 x 4 // the board\nplayer black 'B'\nplayer white 'W'\nturn {\n  choose c in empty { place c }\n}\n\nend when none(empty)\nscore p = count(p)\n"
    );
    assert!(outflank(&["fmt", "--check", &path]).status.success());
    // A file that does not parse is left alone.
    std::fs::write(&path, "board 4 x\n").unwrap();
    assert_eq!(outflank(&["fmt", &path]).status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "board 4 x\n");
}

#[test]
fn render_also_writes_png() {
    let (svg, png) = (temp("b.svg"), temp("b.png"));
    let o = outflank(&[
        "render",
        "games/othello.rules",
        "--mark",
        "legal",
        "--svg",
        &svg,
        "--png",
        &png,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    // The IHDR chunk: width and height match the SVG's.
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    assert_eq!(width.to_string(), root.attribute("width").unwrap());
    assert_eq!(height.to_string(), root.attribute("height").unwrap());
    // The coordinates are lettered without fonts: above each column its letter in dark
    // strokes (the margin is white), each column's different from the others.
    let image = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    let label = |column: u32| -> Vec<bool> {
        let (x0, y0) = (30 + 40 * column + 12, 6);
        let mut dark = Vec::new();
        for y in y0..y0 + 16 {
            for x in x0..x0 + 16 {
                let p = image.pixel(x, y).unwrap();
                dark.push(p.red() < 128 && p.green() < 128 && p.blue() < 128);
            }
        }
        dark
    };
    let labels: Vec<Vec<bool>> = (0..8).map(label).collect();
    for (column, dark) in labels.iter().enumerate() {
        let n = dark.iter().filter(|&&d| d).count();
        assert!(n >= 8, "column {column}'s letter has {n} dark pixels");
        assert!(n < dark.len() / 2, "column {column}'s letter is a blot");
    }
    for a in 0..8 {
        for b in a + 1..8 {
            assert_ne!(labels[a], labels[b], "columns {a} and {b} lettered alike");
        }
    }
    // The SVG file keeps real text, which a browser sets in its own fonts.
    assert!(
        text.contains("<text class=\"coord\""),
        "the SVG keeps real text"
    );
}

#[test]
fn the_lettering_has_a_glyph_for_every_character_of_a_name() {
    use outflank::apps::lettering::has_glyph;
    // Cell names and region names are identifiers: ASCII letters, digits and underscores.
    for c in ('a'..='z').chain('A'..='Z').chain('0'..='9').chain(['_']) {
        assert!(has_glyph(c), "no glyph for {c:?}");
    }
    assert!(
        !has_glyph('é'),
        "a character without a glyph is drawn as a box"
    );
    // A lettered diagram, which the PNG is rasterized from, leaves no text to set in a font:
    // a hexagonal board's cell names and a region's name in the legend are strokes too.
    let path = temp("hex-region.rules");
    let rules = std::fs::read_to_string("games/hex-reversi.rules").unwrap();
    std::fs::write(&path, rules + "\nregion middle_1 = centre(1, 1)\n").unwrap();
    let e = crate::common::engine(&path, &[]);
    let region = "middle_1".to_string();
    let drawing = |lettered| outflank::apps::render::Drawing {
        shade: vec![region.clone()],
        lettered,
        ..Default::default()
    };
    let s = e.start().unwrap();
    let plain = outflank::apps::render::svg(&e, &s, &drawing(false)).unwrap();
    let lettered = outflank::apps::render::svg(&e, &s, &drawing(true)).unwrap();
    let count = |svg: &str, what: &str| svg.matches(what).count();
    assert!(count(&lettered, "<text") == 0, "{lettered}");
    assert_eq!(
        count(&lettered, "<g class=\"coord\">"),
        count(&plain, "<text class=\"coord\""),
        "every cell name lettered"
    );
    assert_eq!(count(&lettered, "<g class=\"legend\">"), 1);
}

#[test]
fn render_draws_hexagonal_boards_as_hexagons_that_touch_their_neighbours() {
    let path = temp("hex.svg");
    let o = outflank(&[
        "render",
        "games/hex-reversi.rules",
        "--mark",
        "legal",
        "--svg",
        &path,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    // Each cell's hexagon by name, as the centre of its six points.
    let mut centres = std::collections::BTreeMap::new();
    for n in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("cell"))
    {
        let points: Vec<(f64, f64)> = n
            .attribute("points")
            .unwrap()
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(points.len(), 6);
        let x = points.iter().map(|p| p.0).sum::<f64>() / 6.0;
        let y = points.iter().map(|p| p.1).sum::<f64>() / 6.0;
        centres.insert(n.attribute("data-cell").unwrap().to_string(), (x, y));
    }
    // A hexagon of side 5 has 61 cells.
    assert_eq!(centres.len(), 61);
    // Two cells are neighbours on the board exactly when their hexagons share a side: their
    // centres are one hexagon's width apart, the closest any two are. The board's neighbours
    // of e5 (the centre) are its grid's north, northeast, east, south, southwest and west.
    let distance = |a: &str, b: &str| {
        let (p, q) = (centres[a], centres[b]);
        ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt()
    };
    let mut touching: Vec<&str> = centres
        .keys()
        .map(|k| k.as_str())
        .filter(|&k| k != "e5" && distance(k, "e5") < 41.0)
        .collect();
    touching.sort();
    assert_eq!(touching, ["d5", "d6", "e4", "e6", "f4", "f5"]);
    for k in &touching {
        assert!((distance(k, "e5") - 40.0).abs() < 0.5, "{k}");
    }
    let count = |class: &str| count_class(&doc, class);
    assert_eq!(count("piece"), 6, "the six discs of the start");
    assert!(count("mark") > 0, "the legal placements are marked");
    // The picture holds every hexagon: no point lies outside the drawing.
    let root = doc.root_element();
    let width: f64 = root.attribute("width").unwrap().parse().unwrap();
    let height: f64 = root.attribute("height").unwrap().parse().unwrap();
    for (x, y) in centres.values() {
        assert!(*x > 20.0 && *x < width - 20.0 && *y > 20.0 && *y < height - 20.0);
    }
}

#[test]
fn four_players_run_play_record_and_replay() {
    // `run`: one agent per player; each seat's wins and the draws add up to the games.
    let path = temp("rolit.jsonl");
    let _ = std::fs::remove_file(&path);
    let v = json(&outflank(&[
        "run",
        "games/rolit.rules",
        "--games",
        "8",
        "--agents",
        "greedy,random,random,random",
        "--swap",
        "--record",
        &path,
        "--json",
    ]));
    let players = ["red", "yellow", "green", "blue"];
    let wins: u64 = players
        .iter()
        .map(|p| v["wins"][p]["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 8);
    // The agents changed seats, so wins are counted by agent too.
    let by_agent = v["agents"]["greedy"]["wins"].as_u64().unwrap()
        + v["agents"]["random"]["wins"].as_u64().unwrap();
    assert_eq!(by_agent, wins);
    // The records name four players and four scores, and replay.
    let text = std::fs::read_to_string(&path).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["players"].as_object().unwrap().len(), 4);
    assert_eq!(first["result"]["scores"].as_object().unwrap().len(), 4);
    let o = outflank(&["replay", "games/rolit.rules", &path, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("moves replayed").count(), 8);

    // A wrong number of agents says how many and whose.
    let o = outflank(&["run", "games/rolit.rules", "--agents", "random,random"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("name 4 players, one for each of red, yellow, green and blue"),
        "{}",
        stderr(&o)
    );

    // `play` with a human in the second seat: the computers move in turn order around them,
    // and resigning is refused among four.
    let o = outflank_with_input(
        &[
            "play",
            "games/rolit.rules",
            "--red",
            "random",
            "--yellow",
            "human",
            "--green",
            "random",
            "--blue",
            "random",
        ],
        "resign\nquit\n",
    );
    let out = stdout(&o);
    assert!(out.contains("red (random) plays"), "{out}");
    assert!(
        out.contains("only a game of two players ends by resigning"),
        "{out}"
    );
    assert!(out.contains("score: red "), "{out}");
    assert!(out.contains(", blue "), "{out}");
}

#[test]
fn render_tells_every_player_apart() {
    // Four players named by letters, not colours: four pieces, four fills.
    let rules = temp("four.rules");
    std::fs::write(
        &rules,
        "board 4 x 4\nplayer a 'A'\nplayer b 'B'\nplayer c 'C'\nplayer d 'D'\n\
         setup { a on b2  b on c2  c on b3  d on c3 }\n\
         turn { choose x in empty { place x } }\nend when none(empty)\nscore p = count(p)\n",
    )
    .unwrap();
    let svg = temp("four.svg");
    let o = outflank(&["render", &rules, "--svg", &svg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let fills: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| n.attribute("fill").unwrap())
        .collect();
    assert_eq!(count_class(&doc, "piece"), 4);
    assert_eq!(fills.len(), 4, "{fills:?}");
}

#[test]
fn render_draws_pieces_of_no_player_apart() {
    // Four discs, two jokers and two stones: the kinds' pieces are diamonds, named by kind.
    let svg = temp("kinds.svg");
    let file = "tests/fixtures/valid/joker-and-stones.rules";
    let o = outflank(&["render", file, "--svg", &svg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let pieces: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .collect();
    let discs = pieces.iter().filter(|n| n.tag_name().name() == "circle");
    assert!(discs.clone().all(|n| n.attribute("data-player").is_some()));
    assert_eq!(discs.count(), 4);
    let kinds: Vec<&str> = pieces
        .iter()
        .filter(|n| n.tag_name().name() == "polygon")
        .map(|n| n.attribute("data-kind").unwrap())
        .collect();
    // In cell order: c4, f4, g6, c7.
    assert_eq!(kinds, ["stone", "joker", "stone", "joker"]);
}
