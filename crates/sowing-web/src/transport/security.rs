//! The server's defences against other pages: a request that changes something must come
//! from the server's own page (or an origin the operator allowed), and every answer carries
//! headers that keep the page from being framed, fed foreign scripts or leaking its address.
//!
//! A browser marks where a request comes from (`Sec-Fetch-Site`, `Origin`) and a page cannot
//! forge either; a program sends neither and is judged by its keys alone.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::services::games::Games;
use crate::transport::error::ApiError;

/// What the page may load: its own scripts and styles only (no inline script, no eval; its
/// own WebAssembly engine may be compiled: `'wasm-unsafe-eval'`), never framed.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// An origin as browsers write it (`https://sowing.example`, no path), normalised for
/// comparison: lower case, without the scheme's default port.
pub fn normalize_origin(origin: &str) -> Option<String> {
    let origin = origin.trim().to_ascii_lowercase();
    let (scheme, authority) = origin.split_once("://")?;
    if authority.is_empty() || authority.contains('/') || !matches!(scheme, "http" | "https") {
        return None;
    }
    let default_port = if scheme == "http" { ":80" } else { ":443" };
    let authority = authority.strip_suffix(default_port).unwrap_or(authority);
    Some(format!("{scheme}://{authority}"))
}

/// Why a request from a browser may not act here, or `None` when it may.
fn cross_site_reason(headers: &HeaderMap, allowed: &[String]) -> Option<String> {
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let origin = text(header::ORIGIN);
    let allowed_origin = || {
        origin
            .and_then(normalize_origin)
            .is_some_and(|o| allowed.contains(&o))
    };
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        // Typed into the address bar, or the server's own page.
        Some("same-origin" | "none") => return None,
        Some(site) => {
            return (!allowed_origin()).then(|| {
                format!(
                    "this request comes from another site ({site}: {}); only the server's own \
                     page may act here",
                    origin.unwrap_or("no origin")
                )
            })
        }
        None => {}
    }
    // Browsers without Sec-Fetch-Site still send Origin on every state-changing request.
    let origin = origin?;
    let host = text(header::HOST).map(str::to_ascii_lowercase);
    let own = normalize_origin(origin).is_some_and(|o| {
        let authority = o.split_once("://").map_or("", |(_, a)| a);
        host.as_deref().is_some_and(|h| {
            h == authority
                || h.strip_suffix(":80")
                    .or_else(|| h.strip_suffix(":443"))
                    .is_some_and(|h| h == authority)
        })
    });
    (!own && !allowed_origin()).then(|| {
        format!("this request comes from another origin ({origin}); only the server's own page may act here")
    })
}

/// Refuses, with a JSON 403 that says why, a request from another site that would change
/// something: every method but GET, HEAD and OPTIONS, and the socket's upgrade.
pub(crate) async fn refuse_cross_site(
    State(games): State<Arc<Games>>,
    request: Request,
    next: Next,
) -> Response {
    let reads = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let upgrade = request.headers().contains_key(header::UPGRADE);
    if !reads || upgrade {
        if let Some(reason) = cross_site_reason(request.headers(), games.allowed_origins()) {
            return ApiError::new(StatusCode::FORBIDDEN, reason).into_response();
        }
    }
    next.run(request).await
}

/// Adds the headers every answer carries.
pub(crate) async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
    ] {
        headers.insert(name, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn origins_are_compared_without_default_ports() {
        assert_eq!(
            normalize_origin("HTTPS://Sowing.Example:443").as_deref(),
            Some("https://sowing.example")
        );
        assert_eq!(
            normalize_origin("http://127.0.0.1:8080").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(normalize_origin("null"), None);
        assert_eq!(normalize_origin("file:///tmp/a.html"), None);
        assert_eq!(normalize_origin("https://a.example/path"), None);
    }

    #[test]
    fn the_servers_own_page_and_programs_may_act() {
        let none: &[String] = &[];
        assert_eq!(cross_site_reason(&headers(&[]), none), None);
        assert_eq!(
            cross_site_reason(&headers(&[("sec-fetch-site", "same-origin")]), none),
            None
        );
        assert_eq!(
            cross_site_reason(
                &headers(&[
                    ("origin", "http://127.0.0.1:8080"),
                    ("host", "127.0.0.1:8080")
                ]),
                none
            ),
            None
        );
        assert_eq!(
            cross_site_reason(
                &headers(&[
                    ("origin", "https://sowing.example"),
                    ("host", "sowing.example:443")
                ]),
                none
            ),
            None
        );
    }

    #[test]
    fn another_site_is_refused_unless_allowed() {
        let none: &[String] = &[];
        let attack = headers(&[
            ("sec-fetch-site", "cross-site"),
            ("origin", "http://evil.example"),
            ("host", "127.0.0.1:8080"),
        ]);
        let reason = cross_site_reason(&attack, none).unwrap();
        assert!(reason.contains("http://evil.example"), "{reason}");
        let allowed = ["http://evil.example".to_owned()];
        assert_eq!(cross_site_reason(&attack, &allowed), None);
        // Without Sec-Fetch-Site (older browsers), Origin decides.
        let old = headers(&[
            ("origin", "http://127.0.0.1:9999"),
            ("host", "127.0.0.1:8080"),
        ]);
        assert!(cross_site_reason(&old, none).is_some());
        let opaque = headers(&[("origin", "null"), ("host", "127.0.0.1:8080")]);
        assert!(cross_site_reason(&opaque, none).is_some());
        let same_site = headers(&[
            ("sec-fetch-site", "same-site"),
            ("origin", "http://other.sowing.example"),
        ]);
        assert!(cross_site_reason(&same_site, none).is_some());
    }
}
