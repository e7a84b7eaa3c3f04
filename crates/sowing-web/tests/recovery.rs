//! Account recovery without e-mail (issue 38, part 6; docs/api.md "Accounts"): recovery
//! codes shown once at sign-up and kept only as argon2id hashes, *Forgot the password* with a
//! name and one code (each code once, the same answer for an unknown name and a wrong code,
//! rate-limited), the other sessions ended, and new codes that end the old ones.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordVerifier};
use argon2::Argon2;
use axum::http::{header, Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing_web::{router, App};

mod common;
use common::{Call, Reply, Who};

const KEY: &str = "00112233445566778899aabbccddeeff";
const PASSWORD: &str = "correct horse";

/// The app (to look into its store) and its routes.
fn app() -> (Arc<App>, Router) {
    let app = Arc::new(App::new(common::store(), 2));
    (app.clone(), router(app))
}

fn with_cookie(cookie: &str) -> Who<'_> {
    Who {
        cookie: Some(cookie),
        ..Who::default()
    }
}

/// The session token a `Set-Cookie` sets.
fn token_of(reply: &Reply) -> String {
    let cookie = reply.set_cookie().expect("a session cookie");
    cookie
        .strip_prefix("sowing_session=")
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_owned()
}

/// The recovery codes of an answer.
fn codes_of(reply: &Reply) -> Vec<String> {
    reply.body["recovery_codes"]
        .as_array()
        .unwrap_or_else(|| panic!("no recovery codes: {}", reply.body))
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

/// Signs `name` up: the session token and the recovery codes.
async fn sign_up(router: &Router, name: &str) -> (String, Vec<String>) {
    let a = Call::new(Method::POST, "/api/account/signup")
        .by(&Who::default())
        .json(json!({"name": name, "password": PASSWORD}))
        .reply(router)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    (token_of(&a), codes_of(&a))
}

async fn sign_in(router: &Router, name: &str, password: &str) -> Reply {
    Call::new(Method::POST, "/api/account/signin")
        .by(&Who::default())
        .json(json!({"name": name, "password": password}))
        .reply(router)
        .await
}

async fn recover(router: &Router, who: &Who<'_>, name: &str, code: &str, new: &str) -> Reply {
    Call::new(Method::POST, "/api/account/recover")
        .by(who)
        .json(json!({"name": name, "code": code, "new_password": new}))
        .reply(router)
        .await
}

async fn me(router: &Router, cookie: &str) -> Value {
    let a = Call::new(Method::GET, "/api/account")
        .by(&with_cookie(cookie))
        .reply(router)
        .await;
    assert_eq!(a.status, StatusCode::OK);
    a.body["account"].clone()
}

fn no_store(reply: &Reply) -> bool {
    reply
        .headers
        .get(header::CACHE_CONTROL)
        .is_some_and(|v| v == "no-store")
}

#[tokio::test]
async fn signing_up_shows_the_recovery_codes_once_and_keeps_only_their_argon2id_hashes() {
    let (app, router) = app();
    let a = Call::new(Method::POST, "/api/account/signup")
        .by(&Who::default())
        .json(json!({"name": "Ana", "password": PASSWORD}))
        .reply(&router)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    assert!(no_store(&a), "no cache keeps the codes");
    let codes = codes_of(&a);
    assert_eq!(codes.len(), 8, "{codes:?}");
    for code in &codes {
        let groups: Vec<&str> = code.split('-').collect();
        assert!(
            groups.len() == 3
                && groups.iter().all(|g| g.len() == 4
                    && g.bytes()
                        .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())),
            "{code}"
        );
    }
    let mut distinct = codes.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), codes.len(), "{codes:?}");
    // Nowhere else: not in the session, nor when signing in again, nor on the profile.
    let token = token_of(&a);
    let again = sign_in(&router, "Ana", PASSWORD).await;
    let profile = Call::new(Method::GET, "/api/accounts/Ana")
        .by(&Who::default())
        .reply(&router)
        .await;
    let session = Call::new(Method::GET, "/api/account")
        .by(&with_cookie(&token))
        .reply(&router)
        .await;
    for other in [&again, &profile, &session] {
        assert_eq!(other.status, StatusCode::OK);
        for code in &codes {
            assert!(!other.text.contains(&code[5..]), "{}", other.text);
        }
    }
    // The store keeps one argon2id hash per code, with the OWASP parameters of the
    // passwords, and never the code.
    let store = app.store();
    let account = store.account_named("Ana").unwrap().unwrap();
    let kept = store.recovery_codes(account.id).unwrap();
    assert_eq!(kept.len(), codes.len());
    for row in &kept {
        assert!(
            row.hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{}",
            row.hash
        );
        assert_eq!(row.tag.len(), 2);
        for code in &codes {
            assert!(!row.hash.contains(&code.replace('-', "")[2..]), "{row:?}");
        }
    }
    for code in &codes {
        let plain = code.replace('-', "");
        let matching = kept
            .iter()
            .filter(|row| {
                Argon2::default()
                    .verify_password(plain.as_bytes(), &PasswordHash::new(&row.hash).unwrap())
                    .is_ok()
            })
            .count();
        assert_eq!(matching, 1, "{code}");
    }
}

#[tokio::test]
async fn a_recovery_code_sets_a_new_password_signs_in_works_once_and_ends_the_other_sessions() {
    let (_, router) = app();
    let (here, codes) = sign_up(&router, "Ana").await;
    let there = token_of(&sign_in(&router, "Ana", PASSWORD).await);
    // The forgetful player's browser has a game of its own, which moves into the account.
    let mine = Who {
        key: Some(KEY),
        ..Who::default()
    };
    let game = Call::new(Method::POST, "/api/games")
        .by(&mine)
        .json(json!({"game": "ayoayo"}))
        .reply(&router)
        .await;
    let id = game.body["id"].as_i64().unwrap();
    let a = recover(&router, &mine, "ana", &codes[0], "battery staple").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["account"]["name"], "Ana");
    assert_eq!(
        (a.body["ended"].clone(), a.body["moved"].clone()),
        (json!(2), json!(1))
    );
    assert!(a.body.get("recovery_codes").is_none(), "{}", a.body);
    assert!(no_store(&a));
    let new = token_of(&a);
    assert_eq!(me(&router, &new).await["name"], "Ana");
    assert_eq!(
        me(&router, &here).await,
        Value::Null,
        "every other session ends"
    );
    assert_eq!(me(&router, &there).await, Value::Null);
    let list = Call::new(Method::GET, "/api/games")
        .by(&with_cookie(&new))
        .reply(&router)
        .await;
    assert_eq!(list.body["games"][0]["id"], id, "{}", list.body);
    // The new password works and the old one does not.
    assert_eq!(
        sign_in(&router, "Ana", PASSWORD).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        sign_in(&router, "Ana", "battery staple").await.status,
        StatusCode::OK
    );
    // The same code a second time is refused, and changes nothing.
    let again = recover(&router, &Who::default(), "Ana", &codes[0], "a third one").await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED, "{}", again.body);
    assert_eq!(again.body["code"], "wrong-recovery-code");
    assert!(again.set_cookie().is_none());
    assert_eq!(me(&router, &new).await["name"], "Ana");
    // Another code works, typed as a person might: capitals, spaces for the dashes.
    let typed = codes[1].to_uppercase().replace('-', " ");
    let b = recover(&router, &Who::default(), "Ana", &typed, "a third one").await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.body);
    assert_eq!(b.body["ended"], 2, "{}", b.body);
    assert_eq!(me(&router, &new).await, Value::Null);
}

#[tokio::test]
async fn an_unknown_name_a_wrong_code_and_a_used_code_get_the_same_answer() {
    let (_, router) = app();
    let (_, codes) = sign_up(&router, "Ana").await;
    // A new password of the wrong form is refused before the code is looked at: the code
    // is not spent.
    let short = recover(&router, &Who::default(), "Ana", &codes[0], "short").await;
    assert_eq!(
        short.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        short.body
    );
    assert!(short.body["error"]
        .as_str()
        .unwrap()
        .contains("new_password"));
    let used = recover(&router, &Who::default(), "Ana", &codes[0], "battery staple").await;
    assert_eq!(used.status, StatusCode::OK, "{}", used.body);
    // A code of the right form that is none of Ana's.
    let wrong = if codes[1].starts_with('z') {
        "y".to_owned() + &codes[1][1..]
    } else {
        "z".to_owned() + &codes[1][1..]
    };
    let mut answers = Vec::new();
    for (name, code) in [
        ("Nobody", codes[1].as_str()),
        ("Ana", wrong.as_str()),
        ("Ana", codes[0].as_str()),
        ("Ana", "not a code"),
        (&"A".repeat(200), codes[1].as_str()),
    ] {
        let a = recover(&router, &Who::default(), name, code, "another one").await;
        assert!(a.set_cookie().is_none());
        answers.push((a.status, a.body));
    }
    assert_eq!(answers[0].0, StatusCode::UNAUTHORIZED, "{:?}", answers[0].1);
    assert_eq!(answers[0].1["code"], "wrong-recovery-code");
    for answer in &answers[1..] {
        assert_eq!(
            answer, &answers[0],
            "no name is confirmed, no code told apart"
        );
    }
    // The codes not tried still work.
    let later = recover(&router, &Who::default(), "Ana", &codes[1], "another one").await;
    assert_eq!(later.status, StatusCode::OK, "{}", later.body);
}

#[tokio::test]
async fn recovery_attempts_share_the_sign_in_rate_per_address() {
    let (_, router) = app();
    // Signing up spends one attempt of the ten at once.
    let (_, codes) = sign_up(&router, "Ana").await;
    let mut statuses = Vec::new();
    for _ in 0..9 {
        let a = recover(
            &router,
            &Who::default(),
            "Ana",
            "0000-0000-0000",
            "battery staple",
        )
        .await;
        statuses.push(a.status);
    }
    assert!(
        statuses.iter().all(|s| *s == StatusCode::UNAUTHORIZED),
        "{statuses:?}"
    );
    // The eleventh attempt is refused before its code is looked at: even a right one.
    let limited = recover(&router, &Who::default(), "Ana", &codes[0], "battery staple").await;
    assert_eq!(
        limited.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        limited.body
    );
    assert_eq!(limited.body["code"], "limited");
    assert!(limited.set_cookie().is_none());
    let signing_in = sign_in(&router, "Ana", PASSWORD).await;
    assert_eq!(signing_in.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn new_recovery_codes_need_a_session_and_the_password_and_end_the_old_ones() {
    let (app, router) = app();
    let (token, old) = sign_up(&router, "Ana").await;
    let path = "/api/account/recovery-codes";
    let none = Call::new(Method::POST, path)
        .by(&Who::default())
        .json(json!({"password": PASSWORD}))
        .reply(&router)
        .await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED, "{}", none.body);
    let wrong = Call::new(Method::POST, path)
        .by(&with_cookie(&token))
        .json(json!({"password": "wrong horse"}))
        .reply(&router)
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.body);
    // A page of another site cannot make them (nor read them).
    let elsewhere = Call::new(Method::POST, path)
        .by(&with_cookie(&token))
        .header("Sec-Fetch-Site", "cross-site")
        .json(json!({"password": PASSWORD}))
        .reply(&router)
        .await;
    assert_eq!(
        elsewhere.status,
        StatusCode::FORBIDDEN,
        "{}",
        elsewhere.body
    );
    let account = app.store().account_named("Ana").unwrap().unwrap();
    let before = app.store().recovery_codes(account.id).unwrap();
    assert_eq!(before.len(), old.len(), "the refusals changed nothing");
    let made = Call::new(Method::POST, path)
        .by(&with_cookie(&token))
        .json(json!({"password": PASSWORD}))
        .reply(&router)
        .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    assert!(no_store(&made));
    assert_eq!(made.body["account"]["name"], "Ana");
    let new = codes_of(&made);
    assert_eq!(new.len(), old.len());
    assert!(new.iter().all(|c| !old.contains(c)), "{new:?} {old:?}");
    let after = app.store().recovery_codes(account.id).unwrap();
    assert_eq!(after.len(), new.len());
    assert!(
        after.iter().all(|row| !before.contains(row)),
        "every old code ended"
    );
    // The session that made them stays; an old code no longer works, a new one does.
    assert_eq!(me(&router, &token).await["name"], "Ana");
    let refused = recover(&router, &Who::default(), "Ana", &old[0], "battery staple").await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.body);
    let recovered = recover(&router, &Who::default(), "Ana", &new[0], "battery staple").await;
    assert_eq!(recovered.status, StatusCode::OK, "{}", recovered.body);
}
