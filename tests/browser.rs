//! The page of `outflank serve` in a real browser: Debian's chromium, driven through
//! chromedriver by WebDriver (fantoccini), clicking as a player would. `.ci/run` installs
//! both when they are missing. Screenshots go to target/browser/ and are checked for the board.

use crate::common::run::temp;
use crate::common::serve::serve;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use outflank::apps::record::{params_of, rules_hash, Record, StartPosition};
use outflank::engine::state::State;
use outflank::engine::Engine;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver on a free port of 127.0.0.1, stopped when dropped. It and its browser keep
/// their temporary files in a folder of their own, removed with them: chromium leaves its
/// profile folders behind in the system's /tmp otherwise (two for every test, every run).
struct Driver {
    child: Child,
    port: u16,
    scratch: std::path::PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

fn driver() -> Driver {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let scratch = std::path::PathBuf::from(temp("browser", &format!("scratch-{port}")));
    std::fs::create_dir_all(&scratch).unwrap();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .env("TMPDIR", &scratch)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver runs (Debian's chromium-driver; .ci/run installs it)");
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver {
        child,
        port,
        scratch,
    }
}

async fn browser(driver: &Driver) -> Client {
    let mut options = json!({ "args": ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1100,850"] });
    if std::path::Path::new("/usr/bin/chromium").exists() {
        options["binary"] = json!("/usr/bin/chromium");
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

async fn run(client: &Client, script: &str) -> Value {
    client.execute(script, Vec::new()).await.unwrap()
}

/// Waits (a bounded time) until `script` returns true in the page.
async fn until(client: &Client, script: &str, what: &str) {
    let started = Instant::now();
    while run(client, script).await != json!(true) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "waited in vain for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Saves a screenshot and checks that the board is in it: a good share of its pixels are the
/// board's green.
async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    let dir = format!("{}/target/browser", env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(format!("{dir}/{name}.png"), &png).unwrap();
    let image = resvg::tiny_skia::Pixmap::decode_png(&png).expect("a PNG screenshot");
    let green = image
        .pixels()
        .iter()
        .filter(|p| {
            let c = p.demultiply();
            (c.red() as i32 - 0x3d).abs() < 24
                && (c.green() as i32 - 0x8b).abs() < 24
                && (c.blue() as i32 - 0x5a).abs() < 24
        })
        .count();
    let share = green as f64 / image.pixels().len() as f64;
    assert!(
        share > 0.1,
        "{name}: the board's green is {share:.3} of the screenshot"
    );
}

/// A whole game of Othello in the browser: Black by clicks on the highlighted cells (or the
/// pass button), White the server's random player; then the page says who won, and its pieces
/// add up to its scores.
#[tokio::test(flavor = "multi_thread")]
async fn a_whole_othello_game_by_clicking() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    client
        .goto(&format!("http://{}/", served.endpoint.address))
        .await
        .unwrap();
    until(
        &client,
        "return document.querySelectorAll('[data-legal]').length === 4",
        "the opening's four moves",
    )
    .await;
    screenshot(&client, "othello-start").await;
    client
        .find(Locator::Css("#seats select[data-player=\"white\"]"))
        .await
        .unwrap()
        .select_by_value("random")
        .await
        .unwrap();
    let status = "return document.getElementById('status').textContent";
    let moves = "return document.querySelectorAll('#history li').length";
    let mut clicks = 0;
    loop {
        until(
            &client,
            "const s = document.getElementById('status').textContent; \
             return s.startsWith('Game over') || (s === 'black to move' && \
               (document.querySelector('[data-legal]') !== null || document.querySelector('#words button') !== null))",
            "Black's turn or the end",
        )
        .await;
        if run(&client, status)
            .await
            .as_str()
            .unwrap()
            .starts_with("Game over")
        {
            break;
        }
        let before = run(&client, moves).await.as_u64().unwrap();
        let target = match client.find(Locator::Css("[data-legal]")).await {
            Ok(cell) => cell,
            Err(_) => client.find(Locator::Css("#words button")).await.unwrap(),
        };
        target.click().await.unwrap();
        clicks += 1;
        assert!(clicks < 100, "the game does not end");
        until(
            &client,
            &format!("return document.querySelectorAll('#history li').length > {before}"),
            "the click to be played",
        )
        .await;
    }
    let result = run(&client, status).await;
    assert!(result.as_str().unwrap().contains("wins") || result.as_str().unwrap().contains("draw"));
    let pieces = run(
        &client,
        "return document.querySelectorAll('#board .piece').length",
    )
    .await;
    let scores = run(
        &client,
        "return [...document.querySelectorAll('#scores td:nth-child(2)')].reduce((a, t) => a + Number(t.textContent), 0)",
    )
    .await;
    assert_eq!(
        pieces.as_u64(),
        scores.as_u64(),
        "the pieces on the board are the scores"
    );
    assert!(clicks >= 5);
    screenshot(&client, "othello-end").await;
    client.close().await.unwrap();
}

/// Opens the page with `game` chosen and every seat played by a person.
async fn open_game(client: &Client, address: &str, game: &str) {
    client.goto(&format!("http://{address}/")).await.unwrap();
    until(
        client,
        "return document.querySelector('#board svg') !== null",
        "the first board",
    )
    .await;
    client
        .find(Locator::Css("#game"))
        .await
        .unwrap()
        .select_by_value(game)
        .await
        .unwrap();
    until(
        client,
        &format!("return document.querySelector('#board svg title')?.textContent !== undefined && document.getElementById('game').value === '{game}' && document.querySelectorAll('#seats select').length > 0"),
        "the game chosen",
    )
    .await;
    for seat in client
        .find_all(Locator::Css("#seats select"))
        .await
        .unwrap()
    {
        seat.select_by_value("human").await.unwrap();
    }
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The pieces the page shows: cell name to player (or kind of piece).
async fn pieces_shown(client: &Client) -> BTreeMap<String, String> {
    let shown = run(
        client,
        "return [...document.querySelectorAll('#board .piece')].map(p => [p.dataset.cell, p.dataset.player || p.dataset.kind])",
    )
    .await;
    shown
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The pieces of a position written as rows, read by the engine.
fn pieces_of(engine: &Engine, rows: &str) -> BTreeMap<String, String> {
    let s = engine.position(rows, None).unwrap();
    pieces_at(engine, &s)
}

fn pieces_at(engine: &Engine, s: &State) -> BTreeMap<String, String> {
    (0..engine.game.geometry.cells())
        .filter_map(|c| {
            let p = s.owner(c)?;
            Some((
                engine.game.geometry.name(c),
                engine.game.slot_name(p as usize).to_string(),
            ))
        })
        .collect()
}

async fn legal_cells(client: &Client) -> Vec<String> {
    let cells = run(
        client,
        "return [...document.querySelectorAll('[data-legal]')].map(t => t.dataset.legal).sort()",
    )
    .await;
    cells
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// A record with no moves from `rows`: opened in Replay and played on from, it sets up a
/// position as a user would.
fn start_record(engine: &Engine, rules: &str, rows: &str, to_move: &str) -> std::path::PathBuf {
    let record = Record {
        rules: rules.to_string(),
        rules_hash: rules_hash(engine),
        params: params_of(engine),
        players: BTreeMap::new(),
        seed: None,
        start: Some(StartPosition {
            rows: rows.to_string(),
            to_move: to_move.to_string(),
        }),
        moves: Vec::new(),
        agreement: None,
        result: None,
    };
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "outflank-browser-{}-{}.json",
        std::process::id(),
        rules.replace('/', "-")
    ));
    std::fs::write(&file, serde_json::to_string(&record).unwrap()).unwrap();
    file
}

/// Sets up a position through Replay ("Play on from here"), every seat a person.
async fn set_up(client: &Client, record: &std::path::Path) {
    click(client, "#tabs button[data-tab='replay']").await;
    client
        .find(Locator::Css("#record-file"))
        .await
        .unwrap()
        .send_keys(record.to_str().unwrap())
        .await
        .unwrap();
    until(
        client,
        "return document.getElementById('where').textContent === '0 / 0'",
        "the record opened",
    )
    .await;
    click(client, "#play-on").await;
    until(
        client,
        "return document.querySelector('[data-legal]') !== null",
        "the position to play",
    )
    .await;
}

/// Clicks the legal cell `cell`, and waits for the step to be played.
async fn click_cell(client: &Client, cell: &str) {
    let before = run(
        client,
        "return document.querySelectorAll('#history li').length",
    )
    .await;
    click(client, &format!("[data-legal='{cell}']")).await;
    until(
        client,
        &format!("return document.querySelectorAll('#history li').length > {before}"),
        &format!("the click on {cell} to be played"),
    )
    .await;
}

/// Verto's two-step capture and VECT-REVERSE's placement and chain of move-and-flips, played
/// by clicking one cell per step, from the positions of the rules files' own examples; the
/// page's pieces match the boards the examples expect, and only the chain's next cells are
/// offered in the middle of a turn.
#[tokio::test(flavor = "multi_thread")]
async fn multi_step_turns_by_clicking() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;

    let verto = crate::common::engine("games/verto-8x8.rules", &[]);
    open_game(&client, &served.endpoint.address, "verto-8x8").await;
    let record = start_record(
        &verto,
        "games/verto-8x8.rules",
        "......../......../..D...../...L..../......../.....L../......../........",
        "dark",
    );
    set_up(&client, &record).await;
    std::fs::remove_file(&record).unwrap();
    click_cell(&client, "e5").await;
    until(
        &client,
        "return document.getElementById('status').textContent === 'dark to move, the turn goes on'",
        "the chain to go on",
    )
    .await;
    assert_eq!(legal_cells(&client).await, ["g7"], "the jump is compulsory");
    assert_eq!(
        pieces_shown(&client).await,
        pieces_of(
            &verto,
            "......../......../..D...../...D..../....D.../.....L../......../........"
        )
    );
    screenshot(&client, "verto-chain").await;
    click_cell(&client, "g7").await;
    until(
        &client,
        "return document.getElementById('status').textContent === 'light to move'",
        "light's turn",
    )
    .await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_of(
            &verto,
            "......../......../..D...../...D..../....D.../.....D../......D./........"
        )
    );

    let vect = crate::common::engine("games/vect-reverse.rules", &[]);
    open_game(&client, &served.endpoint.address, "vect-reverse").await;
    let record = start_record(
        &vect,
        "games/vect-reverse.rules",
        "......../......../......../......../...BW.../......../...B.BW./...W....",
        "white",
    );
    set_up(&client, &record).await;
    std::fs::remove_file(&record).unwrap();
    click_cell(&client, "c5").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_of(
            &vect,
            "......../......../......../......../..WBW.../......../...B.BW./...W...."
        )
    );
    // Choose the outflanked disc, then where it moves (and flips).
    click_cell(&client, "d5").await;
    click_cell(&client, "d6").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_of(
            &vect,
            "......../......../......../......../..W.W.../...W..../...B.BW./...W...."
        )
    );
    assert_eq!(legal_cells(&client).await, ["d7"]);
    screenshot(&client, "vect-reverse-chain").await;
    for cell in ["d7", "e7", "f7", "f6"] {
        click_cell(&client, cell).await;
    }
    until(
        &client,
        "return document.getElementById('status').textContent === 'black to move'",
        "black's turn",
    )
    .await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_of(
            &vect,
            "......../......../......../......../..W.W.../...W.W../....W.W./...W...."
        )
    );
    let history = run(
        &client,
        "return [...document.querySelectorAll('#history li')].map(l => l.textContent).join('')",
    )
    .await;
    assert_eq!(history, "c5-d5>d6-d7>e7-f7>f6");
    client.close().await.unwrap();
}

/// Reversi Go's button is a word, not a cell: a button on the page; taking it adds half a
/// point to Black's score and passes the turn.
#[tokio::test(flavor = "multi_thread")]
async fn the_reversi_go_button() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "reversi-go-9x9").await;
    until(
        &client,
        "return document.querySelector('#words button[data-step=\"button\"]') !== null",
        "the button",
    )
    .await;
    let score = "return Number(document.querySelector('#scores tr:first-child td:nth-child(2)').textContent)";
    let before = run(&client, score).await.as_f64().unwrap();
    click(&client, "#words button[data-step='button']").await;
    until(
        &client,
        "return document.getElementById('status').textContent === 'white to move'",
        "white's turn",
    )
    .await;
    assert_eq!(run(&client, score).await.as_f64().unwrap(), before + 0.5);
    assert_eq!(
        run(
            &client,
            "return document.querySelector('#history li').textContent"
        )
        .await,
        "button"
    );
    until(
        &client,
        "return document.querySelector('#words button[data-step=\"button\"]') === null",
        "the button gone",
    )
    .await;
    screenshot(&client, "reversi-go-button").await;
    client.close().await.unwrap();
}

/// A records file written by `outflank run --record`, opened in Replay: stepping forward and
/// back, clicking a move in the list and jumping to either end show the positions the engine
/// in the test reaches.
#[tokio::test(flavor = "multi_thread")]
async fn replaying_a_record_forward_and_back() {
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("outflank-replay-{}.jsonl", std::process::id()));
    let o = crate::common::run::outflank(&[
        "run",
        "games/othello.rules",
        "--games",
        "2",
        "--seed",
        "5",
        "--record",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    let first: Record = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let engine = crate::common::engine("games/othello.rules", &[]);
    let mut positions = vec![engine.start().unwrap()];
    for m in &first.moves {
        let next = engine.play_history(positions.last().unwrap(), m).unwrap();
        positions.push(next);
    }
    let n = first.moves.len();

    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    click(&client, "#tabs button[data-tab='replay']").await;
    client
        .find(Locator::Css("#record-file"))
        .await
        .unwrap()
        .send_keys(file.to_str().unwrap())
        .await
        .unwrap();
    let at =
        |k: usize| format!("return document.getElementById('where').textContent === '{k} / {n}'");
    until(&client, &at(0), "the record at its start").await;
    // Only now: the page reads the chosen file after the keys are sent, and a file taken away
    // before then cannot be read (the record never showed, once, under load).
    std::fs::remove_file(&file).unwrap();
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[0])
    );
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('#record-game option').length"
        )
        .await,
        2
    );
    for k in 1..=3 {
        click(&client, "#forward").await;
        until(&client, &at(k), "a step forward").await;
    }
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[3])
    );
    click(&client, "#back").await;
    until(&client, &at(2), "a step back").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[2])
    );
    click(&client, "#history li:nth-child(10)").await;
    until(&client, &at(10), "the tenth move").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[10])
    );
    screenshot(&client, "replay").await;
    click(&client, "#last").await;
    until(&client, &at(n), "the end").await;
    assert_eq!(
        pieces_shown(&client).await,
        pieces_at(&engine, &positions[n])
    );
    let status = run(
        &client,
        "return document.getElementById('status').textContent",
    )
    .await;
    assert!(status.as_str().unwrap().contains("Game over"), "{status}");
    click(&client, "#first").await;
    until(&client, &at(0), "the start again").await;
    client.close().await.unwrap();
}

/// The editor: an error typed into the rules shows at its line (in the list and the line
/// numbers); taken out again, the rules check, and the edit is played at once.
#[tokio::test(flavor = "multi_thread")]
async fn an_error_typed_in_the_editor_then_fixed_and_played() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    click(&client, "#tabs button[data-tab='edit']").await;
    until(
        &client,
        "return document.getElementById('edit-state').textContent === 'the rules check'",
        "the rules loaded and checked",
    )
    .await;
    let text = std::fs::read_to_string(format!(
        "{}/games/othello.rules",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let line = text.lines().count() + 1;
    let area = client.find(Locator::Css("#rules-text")).await.unwrap();
    area.click().await.unwrap();
    let to_end = format!(
        "{}{}{}",
        char::from(Key::Control),
        char::from(Key::End),
        char::from(Key::Null)
    );
    area.send_keys(&to_end).await.unwrap();
    let typed = "end when nonsense_name > 0";
    area.send_keys(typed).await.unwrap();
    until(
        &client,
        &format!(
            "return document.querySelector('#diagnostics li.error[data-line=\"{line}\"]') !== null"
        ),
        "the error's diagnostic",
    )
    .await;
    let message = run(
        &client,
        "return document.querySelector('#diagnostics li.error').textContent",
    )
    .await;
    assert!(
        message.as_str().unwrap().contains("nonsense_name"),
        "{message}"
    );
    assert_eq!(
        run(
            &client,
            &format!("return document.querySelector('#gutter [data-line=\"{line}\"]').className")
        )
        .await,
        "error"
    );
    screenshot(&client, "edit-error").await;
    let erase: String = std::iter::repeat_n(char::from(Key::Backspace), typed.len()).collect();
    area.send_keys(&erase).await.unwrap();
    until(
        &client,
        "return document.getElementById('edit-state').textContent === 'the rules check'",
        "the rules to check again",
    )
    .await;
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('#diagnostics li').length"
        )
        .await,
        0
    );
    click(&client, "#play-edit").await;
    // The board before the edit also offered four moves: wait for the edit's own status, or
    // the check below can run before the page has switched.
    until(
        &client,
        "return document.getElementById('status').textContent === 'black to move (your edit)'",
        "the edit played",
    )
    .await;
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('[data-legal]').length"
        )
        .await,
        4
    );
    click_cell(&client, "d3").await;
    client.close().await.unwrap();
}

/// The Analyse view: 30 games between two computer players, the progress bar filled, wins per
/// seat that add up with the draws to the games played, how the games ended, the chart of the
/// first game and the charts of the series.
#[tokio::test(flavor = "multi_thread")]
async fn an_analysis_in_the_page() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    click(&client, "#tabs button[data-tab='analyse']").await;
    let games = client.find(Locator::Css("#analysis-games")).await.unwrap();
    games.clear().await.unwrap();
    games.send_keys("30").await.unwrap();
    client
        .find(Locator::Css("#analysis-seats select[data-player='white']"))
        .await
        .unwrap()
        .select_by_value("greedy")
        .await
        .unwrap();
    click(&client, "#analysis-start").await;
    until(&client, "return document.getElementById('analysis-state').textContent.startsWith('30 of 30 games, done')", "the analysis to end").await;
    assert_eq!(
        run(
            &client,
            "return document.getElementById('analysis-progress').value"
        )
        .await,
        30
    );
    let wins = run(&client, "return [...document.querySelectorAll('#analysis-table tr[data-player] td:nth-child(3)')].map(t => Number(t.textContent))").await;
    let draws = run(&client, "return Number([...document.querySelectorAll('#analysis-table tr')].find(r => r.cells[0].textContent === 'draws').cells[1].textContent)").await;
    let total: u64 = wins
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum::<u64>()
        + draws.as_u64().unwrap();
    assert_eq!(total, 30);
    let lead = run(&client, "return [...document.querySelectorAll('#analysis-table tr')].find(r => r.cells[0].textContent === 'lead changes').cells[1].textContent").await;
    assert!(lead.as_str().unwrap().ends_with("per game"), "{lead}");
    assert_eq!(
        run(
            &client,
            "return document.querySelectorAll('#analysis-chart polyline').length"
        )
        .await,
        2
    );
    // How the games ended: Othello has one end rule, so it ended all 30.
    let ended = run(&client, "return [...document.querySelectorAll('#analysis-table tr')].find(r => r.cells[0].textContent === 'end when blocked').cells[1].textContent").await;
    assert!(ended.as_str().unwrap().starts_with("100.0%"), "{ended}");
    // The charts of `analyse --plots`, drawn by the server once the games are done: the
    // lengths' bars count every game.
    let charts = run(&client, "return [...document.querySelectorAll('#analysis-charts figure')].map(f => f.dataset.chart)").await;
    assert_eq!(charts, serde_json::json!(["lead", "lengths", "branching"]));
    let counted = run(&client, "return [...document.querySelectorAll('#analysis-charts figure[data-chart=lengths] rect.bar')].reduce((n, r) => n + Number(r.getAttribute('data-count')), 0)").await;
    assert_eq!(counted, 30);
    screenshot(&client, "analyse").await;
    client.close().await.unwrap();
}

/// Watch: two computer players play on by themselves; paused, they stop; Step plays exactly
/// one move; resumed, they go on.
#[tokio::test(flavor = "multi_thread")]
async fn watching_two_computer_players() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "othello").await;
    client
        .find(Locator::Css("#speed"))
        .await
        .unwrap()
        .select_by_value("100")
        .await
        .unwrap();
    for seat in client
        .find_all(Locator::Css("#seats select"))
        .await
        .unwrap()
    {
        seat.select_by_value("random").await.unwrap();
    }
    let moves = "return document.querySelectorAll('#history li').length";
    until(
        &client,
        "return document.querySelectorAll('#history li').length >= 3",
        "the players to play",
    )
    .await;
    click(&client, "#pause").await;
    // A move asked for before the pause may still arrive; then nothing more.
    until(
        &client,
        "return !document.getElementById('next-step').disabled",
        "the pause",
    )
    .await;
    let paused = run(&client, moves).await.as_u64().unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        run(&client, moves).await.as_u64().unwrap(),
        paused,
        "paused players stay still"
    );
    click(&client, "#next-step").await;
    until(
        &client,
        &format!(
            "return document.querySelectorAll('#history li').length === {}",
            paused + 1
        ),
        "one step",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        run(&client, moves).await.as_u64().unwrap(),
        paused + 1,
        "Step plays one move"
    );
    click(&client, "#pause").await;
    until(
        &client,
        "return document.getElementById('status').textContent.startsWith('Game over')",
        "the game's end",
    )
    .await;
    screenshot(&client, "watch-end").await;
    client.close().await.unwrap();
}

/// A hexagonal board is clicked as a square one: its cells are hexagons, named by the server.
#[tokio::test(flavor = "multi_thread")]
async fn a_hexagonal_board_by_clicking() {
    let served = serve(&[]);
    let driver = driver();
    let client = browser(&driver).await;
    open_game(&client, &served.endpoint.address, "hex-reversi").await;
    until(
        &client,
        "return document.querySelector('polygon[data-legal]') !== null",
        "hexagons to click",
    )
    .await;
    let engine = crate::common::engine("games/hex-reversi.rules", &[]);
    let start = engine.start().unwrap();
    let mut legal = Vec::new();
    engine.steps(&start, &mut legal).unwrap();
    let mut want: Vec<String> = legal
        .iter()
        .filter_map(|&s| {
            engine
                .step_cell(&start, s)
                .map(|c| engine.game.geometry.name(c))
        })
        .collect();
    want.sort();
    assert_eq!(legal_cells(&client).await, want);
    click_cell(&client, &want[0]).await;
    let after = engine.play_history(&start, &want[0]).unwrap();
    assert_eq!(pieces_shown(&client).await, pieces_at(&engine, &after));
    screenshot(&client, "hex").await;
    client.close().await.unwrap();
}
