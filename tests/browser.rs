//! The page of `outflank serve` in a real browser: Debian's chromium, driven through
//! chromedriver by WebDriver (fantoccini), clicking as a player would. `.ci/run` installs
//! both when they are missing. Screenshots go to target/browser/ and are checked for the board.

use crate::common::run::temp;
use crate::common::serve::serve;
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
pub(crate) struct Driver {
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

pub(crate) fn driver() -> Driver {
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

pub(crate) async fn browser(driver: &Driver) -> Client {
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

pub(crate) async fn run(client: &Client, script: &str) -> Value {
    client.execute(script, Vec::new()).await.unwrap()
}

/// Waits (a bounded time) until `script` returns true in the page.
pub(crate) async fn until(client: &Client, script: &str, what: &str) {
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
pub(crate) async fn screenshot(client: &Client, name: &str) {
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
pub(crate) async fn open_game(client: &Client, address: &str, game: &str) {
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

pub(crate) async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The pieces the page shows: cell name to player (or kind of piece).
pub(crate) async fn pieces_shown(client: &Client) -> BTreeMap<String, String> {
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
pub(crate) fn pieces_of(engine: &Engine, rows: &str) -> BTreeMap<String, String> {
    let s = engine.position(rows, None).unwrap();
    pieces_at(engine, &s)
}

pub(crate) fn pieces_at(engine: &Engine, s: &State) -> BTreeMap<String, String> {
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

pub(crate) async fn legal_cells(client: &Client) -> Vec<String> {
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
pub(crate) fn start_record(
    engine: &Engine,
    rules: &str,
    rows: &str,
    to_move: &str,
) -> std::path::PathBuf {
    let record = Record {
        rules: rules.to_string(),
        rules_hash: rules_hash(engine),
        params: params_of(engine),
        players: BTreeMap::new(),
        seed: None,
        start: Some(StartPosition {
            rows: rows.to_string(),
            to_move: to_move.to_string(),
            extra: None,
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
pub(crate) async fn set_up(client: &Client, record: &std::path::Path) {
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
pub(crate) async fn click_cell(client: &Client, cell: &str) {
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
