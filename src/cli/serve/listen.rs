//! The server's connections: each accepted one served by hyper under our bounds. axum's own
//! `serve` sets no clock on its connections, so a client that opens a connection and sends
//! nothing, or half a header, holds it (and a file descriptor) as long as it likes; here a
//! request's head must come within [`READ_TIME`], the same bound holds an idle kept-alive
//! connection, and connections at once are capped below the usual limit of open files.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// How long a request's head (and, by `guard::admit`, its body) may take to arrive, and how
/// long a kept-alive connection may wait for its next request. A browser or script on this
/// machine sends a whole request in milliseconds.
pub(super) const READ_TIME: Duration = Duration::from_secs(10);

/// Connections served at once; the next one waits in the system's queue until one closes.
/// Below the usual 1,024 open files, with room for the rules files and the process's own.
const MAX_CONNECTIONS: usize = 768;

/// Serves `app` on every connection `listener` accepts until `stop` completes; then
/// requests under way get `grace` to finish.
pub(super) async fn serve(
    listener: TcpListener,
    app: Router,
    stop: impl Future<Output = ()>,
    grace: Duration,
) {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (stopping, _) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            permit = open.clone().acquire_owned() => {
                let Ok(permit) = permit else { break };
                tokio::select! {
                    () = &mut stop => break,
                    accepted = listener.accept() => accepted.map(|(stream, _)| (stream, permit)),
                }
            }
        };
        // Out of file descriptors, or a connection reset before it was taken: the listener
        // itself is sound, so wait a moment and go on.
        let Ok((stream, permit)) = accepted else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let mut stopped = stopping.subscribe();
        tokio::spawn(async move {
            let _permit = permit;
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(READ_TIME);
            let connection = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopped.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    let _ = stopping.send(true);
    // Every permit back means every connection closed.
    let _ = tokio::time::timeout(grace, open.acquire_many(MAX_CONNECTIONS as u32)).await;
}
