//! Who may use the server (docs/API.md, "Security"). A page on another site, open in the same
//! browser, can send requests to 127.0.0.1 blind, and a DNS-rebinding page can even read the
//! answers; so every request must name this server as its `Host`, and every request that
//! changes something must come from the server's own page: no foreign `Origin`, a JSON body,
//! and the secret token that only the served page carries (as Jupyter's token does).

use super::listen::READ_TIME;
use super::reply::Failure;
use super::MAX_REQUEST;
use axum::body::Body;
use axum::extract::{Request, State as Shared};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::Arc;

/// The header the page sends its token in.
const TOKEN_HEADER: &str = "x-outflank-token";

/// What the server admits, fixed when it starts listening.
pub(super) struct Guard {
    /// The secret the page carries: 128 bits from the system's random source, as hex.
    pub(super) token: String,
    /// The `Host` values that name this server; `None` when it listens on the network, where
    /// the names it is reached by are not known, and the token is asked of every request.
    hosts: Option<Vec<String>>,
}

impl Guard {
    /// The guard of a server listening on `address`, reached by the name `host` the user gave.
    pub(super) fn new(address: SocketAddr, host: &str) -> Result<Guard, String> {
        let mut secret = [0u8; 16];
        getrandom::fill(&mut secret).map_err(|e| format!("serve: cannot make a token: {e}"))?;
        let token = format!("{:032x}", u128::from_le_bytes(secret));
        let hosts = address.ip().is_loopback().then(|| {
            let port = address.port();
            let mut names = vec!["127.0.0.1".to_string(), "localhost".into(), "[::1]".into()];
            let named = host.to_ascii_lowercase();
            if !names.contains(&named) && !named.contains(':') {
                names.push(named);
            }
            let mut hosts: Vec<String> = names.iter().map(|n| format!("{n}:{port}")).collect();
            // A browser leaves the default port out of `Host`.
            if port == 80 {
                hosts.extend(names);
            }
            hosts
        });
        Ok(Guard { token, hosts })
    }

    /// Whether the server listens on the network (every request then needs the token).
    pub(super) fn open_to_network(&self) -> bool {
        self.hosts.is_none()
    }

    /// Why a request is refused, or `None` when it may go on.
    fn refusal(
        &self,
        method: &Method,
        path: &str,
        query: &str,
        headers: &HeaderMap,
    ) -> Option<String> {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let host = text(header::HOST.as_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if let Some(hosts) = &self.hosts {
            if !hosts.contains(&host) {
                return Some(format!(
                    "this server answers to {} only, not to the host {:?}",
                    hosts[0],
                    shown(&host)
                ));
            }
        }
        let token = text(TOKEN_HEADER).or_else(|| {
            // The page's own address may carry the token, as the server prints it.
            (path == "/")
                .then(|| query.split('&').find_map(|p| p.strip_prefix("token=")))
                .flatten()
        });
        let token_ok = token.is_some_and(|t| same(t.as_bytes(), self.token.as_bytes()));
        let reading = *method == Method::GET || *method == Method::HEAD;
        if reading {
            // The script and the style hold no secret; the page and the API do, when anyone on
            // the network may ask.
            let asset = path == "/app.js" || path == "/style.css";
            if self.open_to_network() && !asset && !token_ok {
                return Some(
                    "this server is open to the network: open the address it printed, with its \
                     token (?token=...)"
                        .into(),
                );
            }
            return None;
        }
        if let Some(origin) = text(header::ORIGIN.as_str()) {
            if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
                return Some(format!(
                    "a request from another site ({}) may not change anything here",
                    shown(origin)
                ));
            }
        }
        if *method == Method::POST {
            let json = text(header::CONTENT_TYPE.as_str()).is_some_and(|t| {
                let kind = t.split(';').next().unwrap_or("").trim();
                kind.eq_ignore_ascii_case("application/json")
            });
            if !json {
                return Some(
                    "a request that changes something must send Content-Type: application/json"
                        .into(),
                );
            }
        }
        if !token_ok {
            return Some(format!(
                "a request that changes something must carry the server's token in {TOKEN_HEADER} \
                 (the page served at / has it)"
            ));
        }
        None
    }
}

/// A header's value as an error message quotes it: `to_str` has let through only visible ASCII,
/// and a long one is cut.
fn shown(value: &str) -> String {
    value.chars().take(100).collect()
}

/// Equal bytes, compared in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// The middleware in front of every route: a refused request gets 403 and a JSON error before
/// its body is read.
pub(super) async fn admit(
    Shared(guard): Shared<Arc<Guard>>,
    request: Request,
    next: Next,
) -> Response {
    let uri = request.uri();
    match guard.refusal(
        request.method(),
        uri.path(),
        uri.query().unwrap_or(""),
        request.headers(),
    ) {
        Some(why) => Failure(StatusCode::FORBIDDEN, why).into_response(),
        None if request.method() == Method::GET || request.method() == Method::HEAD => {
            next.run(request).await
        }
        None => {
            // The body is read here, against the clock: a client that sends half of one would
            // otherwise hold its handler as long as it liked. The routes' own limits still
            // apply to what is read.
            let (parts, body) = request.into_parts();
            let read = tokio::time::timeout(READ_TIME, axum::body::to_bytes(body, MAX_REQUEST));
            match read.await {
                Ok(Ok(bytes)) => {
                    next.run(Request::from_parts(parts, Body::from(bytes)))
                        .await
                }
                Ok(Err(_)) => Failure(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "a request's body may hold at most {} KB (or it was cut off)",
                        MAX_REQUEST >> 10
                    ),
                )
                .into_response(),
                Err(_) => Failure(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the request's body did not arrive within {} s",
                        READ_TIME.as_secs()
                    ),
                )
                .into_response(),
            }
        }
    }
}
