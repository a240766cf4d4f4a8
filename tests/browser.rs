//! The page of `outflank serve` in a real browser: Debian's chromium, driven through
//! chromedriver by WebDriver (fantoccini), clicking as a player would. `.ci/run` installs
//! both when they are missing. Screenshots go to target/browser/ and are checked for the board.

use crate::common::serve::serve;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver on a free port of 127.0.0.1, stopped when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn driver() -> Driver {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
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
    Driver { child, port }
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
        .goto(&format!("http://{}/", served.address))
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
        "return document.querySelectorAll('[data-piece]').length",
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
