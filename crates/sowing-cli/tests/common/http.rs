//! Requests to a `sow serve` child process over a real socket, through `ureq`: each on a
//! fresh connection (the agent keeps none idle), so a server that has stopped is simply no
//! answer.

use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

/// The player key every request presents: the one-screen games a test creates are its own
/// (docs/api.md, "Owners"), and it must never reach the logs.
pub const PLAYER_KEY: &str = "c0ffee00c0ffee00c0ffee00c0ffee00";

/// The one agent: statuses are answers rather than errors, no proxy from the environment,
/// no idle connections kept, and a bound on the wait for an answer.
fn agent() -> &'static ureq::Agent {
    static AGENT: OnceLock<ureq::Agent> = OnceLock::new();
    AGENT.get_or_init(|| {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(None)
            .max_idle_connections(0)
            .timeout_recv_response(Some(Duration::from_secs(30)))
            .timeout_recv_body(Some(Duration::from_secs(30)))
            .build()
            .into()
    })
}

/// One request to `addr` with [`PLAYER_KEY`], a seat's token (`X-Seat-Token`) when given
/// and a JSON body when given: the status and the body as text, or `None` when the server
/// did not answer (it stopped).
pub fn try_request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Option<(u16, String)> {
    let mut request = ureq::http::Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"))
        .header("content-type", "application/json")
        .header("x-player-key", PLAYER_KEY);
    if let Some(token) = token {
        request = request.header("x-seat-token", token);
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut response = agent().run(request.body(body).ok()?).ok()?;
    let text = response.body_mut().read_to_string().ok()?;
    Some((response.status().as_u16(), text))
}

/// [`try_request`] that must be answered: the status and the body as JSON (kept as a JSON
/// string when it is not JSON).
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, text) = try_request(addr, method, path, token, body).expect("an answer");
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}
