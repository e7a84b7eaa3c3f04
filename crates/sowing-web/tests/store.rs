//! The store's contract, written once and run against both databases: SQLite (a file) and
//! PostgreSQL (a fresh database on the server `SOWING_TEST_POSTGRES` names; those runs are
//! ignored under plain `cargo test` and run by `scripts/test`). Two stores opened on one
//! database stand for two servers sharing it.

mod common;

use std::sync::Arc;

use sowing::{Game, Rules, Side, Variant};
use sowing_web::clock::LiveClock;
use sowing_web::store::{
    moves_key, Database, LiveListing, LiveResult, LiveRow, NewGame, Offers, PlayedMove,
    RecoveryCode, SessionEnd, Stamp, Store, StoreError, MAX_PLAYED_LINE,
};

/// The database a test runs on.
#[derive(Clone, Copy)]
enum Kind {
    Sqlite,
    Postgres,
}

/// `count` stores on one fresh database of `kind`.
fn stores(kind: Kind, name: &str, count: usize) -> Vec<Store> {
    let db = match kind {
        Kind::Sqlite => common::temp_db(name).to_string_lossy().into_owned(),
        Kind::Postgres => common::fresh_postgres_db().expect(
            "this test needs a PostgreSQL server: set SOWING_TEST_POSTGRES to its URL \
             (scripts/test starts one)",
        ),
    };
    (0..count)
        .map(|_| Database::from(db.as_str()).open().unwrap())
        .collect()
}

fn one(kind: Kind, name: &str) -> Store {
    stores(kind, name, 1).pop().unwrap()
}

fn two(kind: Kind, name: &str) -> (Store, Store) {
    let mut both = stores(kind, name, 2);
    let b = both.pop().unwrap();
    (both.pop().unwrap(), b)
}

/// Each test once per database: `sqlite::NAME` and `postgres::NAME`.
macro_rules! on_both {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $test() {
                super::$test(super::Kind::Sqlite)
            })*
        }
        mod postgres {
            $(#[test]
            #[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
            fn $test() {
                super::$test(super::Kind::Postgres)
            })*
        }
    };
}

on_both!(
    moves_round_trip_and_an_undo_forgets_the_later_ones,
    concurrent_writers_keep_every_move_and_a_stale_duplicate_fails_alone,
    a_write_from_a_stale_copy_is_refused_and_nothing_is_written,
    a_round_started_twice_is_a_conflict,
    a_finished_game_keeps_its_end_and_an_undo_clears_it,
    an_uploaded_game_is_stored_with_its_moves,
    a_live_game_written_through_one_store_is_read_and_guarded_through_the_other,
    the_lobby_lists_open_challenges_and_the_sweep_finds_stale_ones,
    a_deleted_game_leaves_nothing_behind,
    a_game_keeps_its_owner_and_the_list_shows_each_owner_theirs,
    an_id_is_never_given_twice,
    accounts_and_sessions_are_kept_and_a_keys_games_move_into_an_account,
    a_recovery_code_is_spent_once_and_new_codes_end_the_old_ones,
    a_rated_live_game_is_rated_once_in_the_write_that_ends_it,
    an_analysis_is_kept_with_its_game_and_leaves_with_it,
    the_moves_played_after_a_line_are_counted_by_result,
);

/// The SHA-256 of a player key, as the games service stores it.
const OWNER: [u8; 32] = [7; 32];

fn moves_round_trip_and_an_undo_forgets_the_later_ones(kind: Kind) {
    let (a, b) = two(kind, "round-trip");
    let mut game = Game::new(Rules::new(Variant::Ayoayo));
    let id = a
        .create_game(&NewGame::new(&game, "human", "greedy"))
        .unwrap();
    let mut kept = a.game_row(id).unwrap().unwrap();
    for version in 1..=3 {
        game.play(game.legal_moves()[0]).unwrap();
        let stamp = a.append_move(id, &game, None).unwrap();
        assert_eq!(stamp.version, version);
        // What a writer keeps instead of reading its row back is the row stored.
        kept = kept.stamped(&game, stamp);
        assert_eq!(Some(&kept), b.game_row(id).unwrap().as_ref());
    }
    // Read through the other store: what one server writes, the other sees.
    let (row, loaded) = b.load(id).unwrap().unwrap();
    assert_eq!(loaded.moves(), game.moves());
    assert_eq!((row.plies, row.version), (3, 3));
    assert_eq!(
        (row.south.as_str(), row.north.as_str()),
        ("human", "greedy")
    );
    assert_eq!(b.version(id).unwrap(), Some(3));
    let (with_live, replayed, live) = b.load_with_live(id).unwrap().unwrap();
    assert_eq!(
        (&with_live, replayed.moves(), live),
        (&row, game.moves(), None)
    );
    game.undo();
    let stamp = b.truncate(id, &game, Some(3)).unwrap();
    assert_eq!(stamp.version, 4);
    assert_eq!(Some(kept.stamped(&game, stamp)), a.game_row(id).unwrap());
    let (row, loaded) = a.load(id).unwrap().unwrap();
    assert_eq!((loaded.moves().len(), row.plies), (2, 2));
    assert_eq!(a.stored_moves(id).unwrap(), 2);
    assert_eq!(a.integrity_check().unwrap(), "ok");
    assert_eq!(a.load(id + 1000).unwrap().map(|(row, _)| row), None);
    assert_eq!(a.version(id + 1000).unwrap(), None);
}

fn concurrent_writers_keep_every_move_and_a_stale_duplicate_fails_alone(kind: Kind) {
    let store = Arc::new(one(kind, "concurrent"));
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let store = store.clone();
            std::thread::spawn(move || {
                let mut game = Game::new(Rules::new(Variant::ALL[t % 3]));
                let id = store
                    .create_game(&NewGame::new(&game, "human", "human"))
                    .unwrap();
                for _ in 0..30 {
                    let Some(&mv) = game.legal_moves().first() else {
                        break;
                    };
                    game.play(mv).unwrap();
                    store.append_move(id, &game, None).unwrap();
                    // A stale duplicate (in the same group commit, in SQLite) fails alone.
                    assert!(matches!(
                        store.append_move(id, &game, None),
                        Err(StoreError::Conflict(_))
                    ));
                }
                (id, game)
            })
        })
        .collect();
    for thread in threads {
        let (id, game) = thread.join().unwrap();
        let (row, loaded) = store.load(id).unwrap().unwrap();
        assert_eq!(loaded.moves(), game.moves());
        assert_eq!(row.plies, game.moves().len());
    }
}

fn a_write_from_a_stale_copy_is_refused_and_nothing_is_written(kind: Kind) {
    let (a, b) = two(kind, "stale");
    let start = Game::new(Rules::new(Variant::HoyitoII));
    let id = a
        .create_game(&NewGame::new(&start, "human", "human"))
        .unwrap();
    // Both servers hold the game at version 0; A moves first.
    let mut through_a = start.clone();
    through_a.play(through_a.parse_move("A").unwrap()).unwrap();
    a.append_move(id, &through_a, Some(0)).unwrap();
    let mut through_b = start.clone();
    through_b.play(through_b.parse_move("B").unwrap()).unwrap();
    let conflict = |result: Result<Stamp, StoreError>| {
        assert!(matches!(result, Err(StoreError::Conflict(_))), "{result:?}");
    };
    conflict(b.append_move(id, &through_b, Some(0)));
    // The same ply without a version: the game's move count (and the key of a move,
    // (game, ply)) refuses it.
    conflict(b.append_move(id, &through_b, None));
    // A takeback onto a stale version is refused too.
    conflict(b.truncate(id, &start, Some(0)));
    // A move onto a game missing the moves before it (a gap) is refused.
    let mut ahead = through_a.clone();
    ahead.play(ahead.legal_moves()[0]).unwrap();
    ahead.play(ahead.legal_moves()[0]).unwrap();
    conflict(b.append_move(id, &ahead, None));
    let (row, game) = b.load(id).unwrap().unwrap();
    assert_eq!(game.moves(), through_a.moves());
    assert_eq!((row.version, b.stored_moves(id).unwrap()), (1, 1));
}

fn a_round_started_twice_is_a_conflict(kind: Kind) {
    let store = one(kind, "rounds");
    let game = Game::new(Rules::new(Variant::HoyitoIII));
    let match_id = store.create_match(3).unwrap();
    assert_eq!(store.get_match(match_id).unwrap().unwrap().rounds, 3);
    assert_eq!(store.get_match(match_id + 1).unwrap(), None);
    let round = |r| NewGame::new(&game, "human", "human").in_match(Some((match_id, r)));
    let first = store.create_game(&round(1)).unwrap();
    let again = store.create_game(&round(1));
    assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
    let second = store.create_game(&round(2)).unwrap();
    let rows = store.match_games(match_id).unwrap();
    let rounds: Vec<_> = rows.iter().map(|r| (r.id, r.round)).collect();
    assert_eq!(rounds, [(first, Some(1)), (second, Some(2))]);
}

fn a_finished_game_keeps_its_end_and_an_undo_clears_it(kind: Kind) {
    let store = one(kind, "end");
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    let id = store
        .create_game(&NewGame::new(&game, "human", "human").owned_by(Some(OWNER)))
        .unwrap();
    while !game.is_over() {
        game.play(game.legal_moves()[0]).unwrap();
        store.append_move(id, &game, None).unwrap();
    }
    let row = store.game_row(id).unwrap().unwrap();
    assert!(row.end.is_some());
    assert_eq!(row.end, game.end());
    assert_eq!(row.result.as_deref(), game.outcome().map(|o| o.name()));
    assert_eq!((row.variant.as_str(), row.pits), ("hoyito-ii", 6));
    // The newest first in the list.
    assert_eq!(store.list(OWNER, 10).unwrap()[0], row);
    game.undo();
    store.truncate(id, &game, None).unwrap();
    let row = store.game_row(id).unwrap().unwrap();
    assert_eq!((row.end, row.result), (None, None));
}

fn an_uploaded_game_is_stored_with_its_moves(kind: Kind) {
    let store = one(kind, "upload");
    let mut game = Game::new(Rules::new(Variant::HoyitoIII));
    for _ in 0..5 {
        game.play(game.legal_moves()[0]).unwrap();
    }
    let id = store
        .create_game(&NewGame::new(&game, "level:2", "human"))
        .unwrap();
    let (row, loaded) = store.load(id).unwrap().unwrap();
    assert_eq!(loaded.moves(), game.moves());
    assert_eq!((row.plies, row.version, row.created.len()), (5, 0, 19));
    // A move from there on continues it.
    game.play(game.legal_moves()[0]).unwrap();
    assert_eq!(store.append_move(id, &game, Some(0)).unwrap().version, 1);
}

/// An open challenge by Ana (South) from 192.0.2.1, with a 60+2 clock.
fn open_challenge() -> LiveRow {
    LiveRow {
        game_id: 0,
        seats: [Some([7; 32]), None],
        names: [Some("Ana".into()), None],
        lobby: true,
        address: Some("192.0.2.1".into()),
        clock: Some(LiveClock::new(60_000, 2_000)),
        offers: Offers::default(),
        result: None,
        rematch: None,
        takebacks: 0,
        version: 0,
        created_ms: 1_000,
        touched_ms: 1_000,
        accounts: [None, None],
        rated: false,
        first_move_due: false,
        credited_ms: 0,
        said: [None, None],
    }
}

fn a_live_game_written_through_one_store_is_read_and_guarded_through_the_other(kind: Kind) {
    let (a, b) = two(kind, "live");
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    let challenge = open_challenge();
    let id = a.create_game(&NewGame::live(&game, &challenge)).unwrap();
    let read = b.live_row(id).unwrap().unwrap();
    assert_eq!(
        read,
        LiveRow {
            game_id: id,
            ..challenge.clone()
        }
    );
    assert_eq!(b.live_row(id + 1000).unwrap(), None);
    // B seats North (a row-only write): the game's version moves on, so A's copy is stale.
    let mut seated = read.clone();
    seated.seats[1] = Some([9; 32]);
    seated.names[1] = Some("Ben".into());
    seated.touched_ms = 2_000;
    // Each write returns the version it left the game at (what a server's copy is then).
    assert_eq!(b.update_live(&seated).unwrap().version, 1);
    assert_eq!(a.version(id).unwrap(), Some(1));
    // A, from the live row before B's write: refused, with its move.
    game.play(game.parse_move("C").unwrap()).unwrap();
    let mut stale = read.clone();
    stale
        .clock
        .as_mut()
        .unwrap()
        .after_move(Side::South, 5, true);
    assert!(matches!(
        a.append_live_move(&game, &stale),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(b.stored_moves(id).unwrap(), 0);
    // From the current row: the move and its clock in one transaction.
    let mut current = a.live_row(id).unwrap().unwrap();
    assert_eq!(current.version, 1);
    current
        .clock
        .as_mut()
        .unwrap()
        .after_move(Side::South, 5, true);
    current.offers.draw = Some(Side::North);
    assert_eq!(a.append_live_move(&game, &current).unwrap().version, 2);
    let after = b.live_row(id).unwrap().unwrap();
    assert_eq!(
        after,
        LiveRow {
            version: 2,
            ..current.clone()
        }
    );
    assert_eq!(b.stored_moves(id).unwrap(), 1);
    // The one-statement read of a live game is the row, the game and the live row.
    let (row, loaded, live) = b.load_with_live(id).unwrap().unwrap();
    assert_eq!((row.version, loaded.moves()), (2, game.moves()));
    assert_eq!(live.as_ref(), Some(&after));
    // The same ply again, from the current live row: the stored ply refuses it.
    assert!(matches!(
        b.append_live_move(&game, &after),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(a.live_row(id).unwrap().unwrap().version, 2);
    // A takeback: the move is gone and the row counts it.
    let mut undone = after.clone();
    undone.takebacks = 1;
    undone.offers = Offers::default();
    let undone_at = b
        .truncate_live(&Game::new(Rules::new(Variant::HoyitoII)), &undone)
        .unwrap()
        .version;
    assert_eq!((undone_at, a.version(id).unwrap()), (3, Some(3)));
    assert_eq!(a.stored_moves(id).unwrap(), 0);
    assert_eq!(a.live_row(id).unwrap().unwrap().takebacks, 1);
    // A resignation: the result is kept with the row and listed with the games.
    let mut resigned = a.live_row(id).unwrap().unwrap();
    resigned.result = Some(LiveResult {
        outcome: "north".into(),
        reason: "resignation".into(),
    });
    assert_eq!(a.update_live(&resigned).unwrap().version, 4);
    assert_eq!(
        b.live_listings(&[id, id + 1000]).unwrap(),
        [(
            id,
            LiveListing {
                result: resigned.result.clone(),
                names: resigned.names.clone()
            }
        )]
    );
    assert_eq!(a.integrity_check().unwrap(), "ok");
}

fn the_lobby_lists_open_challenges_and_the_sweep_finds_stale_ones(kind: Kind) {
    let store = one(kind, "lobby");
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let first = store
        .create_game(&NewGame::live(&game, &open_challenge()))
        .unwrap();
    let mut later = open_challenge();
    later.address = Some("192.0.2.2".into());
    later.created_ms = 3_000;
    later.touched_ms = 3_000;
    let second = store.create_game(&NewGame::live(&game, &later)).unwrap();
    // A game between two seats, not in the lobby, idle since 1500 ms.
    let seated = LiveRow::new([Some([1; 32]), Some([2; 32])], [None, None], None, 1_500);
    let third = store.create_game(&NewGame::live(&game, &seated)).unwrap();
    assert_eq!(store.open_challenges("192.0.2.1").unwrap(), (2, 1));
    assert_eq!(store.open_challenges("192.0.2.9").unwrap(), (2, 0));
    let lobby = store.lobby(10).unwrap();
    let listed: Vec<_> = lobby
        .iter()
        .map(|(row, live)| (row.id, live.game_id))
        .collect();
    assert_eq!(listed, [(first, first), (second, second)]);
    assert_eq!(lobby[0].0.variant, "ayoayo");
    assert_eq!(store.lobby(1).unwrap().len(), 1);
    // Idle before 2000 ms: the seated game; open challenges untaken before 2000: the first.
    assert_eq!(
        store.stale_live_games(2_000, 2_000).unwrap(),
        [first, third]
    );
    assert_eq!(store.stale_live_games(0, 500).unwrap(), Vec::<i64>::new());
    // Taken: no longer in the lobby.
    let mut taken = store.live_row(first).unwrap().unwrap();
    taken.seats[1] = Some([3; 32]);
    store.update_live(&taken).unwrap();
    assert_eq!(store.open_challenges("192.0.2.1").unwrap(), (1, 0));
}

fn a_deleted_game_leaves_nothing_behind(kind: Kind) {
    let store = one(kind, "delete");
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    game.play(game.legal_moves()[0]).unwrap();
    let id = store
        .create_game(&NewGame::live(&game, &open_challenge()).owned_by(Some(OWNER)))
        .unwrap();
    store.delete(id).unwrap();
    assert_eq!(store.game_row(id).unwrap(), None);
    assert_eq!(store.live_row(id).unwrap(), None);
    assert_eq!(store.stored_moves(id).unwrap(), 0);
    assert!(store.list(OWNER, 10).unwrap().is_empty());
    // A move onto it now: refused, as a game another server deleted.
    game.play(game.legal_moves()[0]).unwrap();
    assert!(matches!(
        store.append_move(id, &game, None),
        Err(StoreError::Conflict(_))
    ));
}

fn a_game_keeps_its_owner_and_the_list_shows_each_owner_theirs(kind: Kind) {
    let (a, b) = two(kind, "owners");
    let game = Game::new(Rules::new(Variant::HoyitoIII));
    let other = [9; 32];
    let mine = a
        .create_game(&NewGame::new(&game, "human", "level:2").owned_by(Some(OWNER)))
        .unwrap();
    let theirs = a
        .create_game(&NewGame::new(&game, "human", "human").owned_by(Some(other)))
        .unwrap();
    let nobodys = a
        .create_game(&NewGame::new(&game, "human", "human"))
        .unwrap();
    assert_eq!(b.game_row(mine).unwrap().unwrap().owner, Some(OWNER));
    assert_eq!(b.game_row(nobodys).unwrap().unwrap().owner, None);
    let ids = |owner| -> Vec<i64> { b.list(owner, 10).unwrap().iter().map(|r| r.id).collect() };
    assert_eq!(ids(OWNER), [mine]);
    assert_eq!(ids(other), [theirs]);
    assert_eq!(ids([1; 32]), Vec::<i64>::new());
    // Live games are marked as such in the list's second read.
    assert_eq!(b.live_listings(&[mine, theirs]).unwrap(), []);
}

/// A deleted game's id, even the newest, is not given again (an old link must not open
/// someone else's game), also through another server sharing the database.
fn an_id_is_never_given_twice(kind: Kind) {
    let (a, b) = two(kind, "ids");
    let game = Game::new(Rules::new(Variant::HoyitoII));
    let new = NewGame::new(&game, "human", "human");
    let first = a.create_game(&new).unwrap();
    let second = a.create_game(&new).unwrap();
    a.delete(second).unwrap();
    let third = b.create_game(&new).unwrap();
    assert!(third > second, "{third} after {second} was deleted");
    a.delete(third).unwrap();
    a.delete(first).unwrap();
    let fourth = a.create_game(&new).unwrap();
    assert!(fourth > third, "{fourth} after {third} was deleted");
}

fn accounts_and_sessions_are_kept_and_a_keys_games_move_into_an_account(kind: Kind) {
    let (a, b) = two(kind, "accounts");
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let key = [3; 32];
    let keys_game = a
        .create_game(&NewGame::new(&game, "human", "human").owned_by(Some(key)))
        .unwrap();
    let ana = a
        .sign_up("Ana", "$argon2id$…", [1; 32], Some(key), 1_000, &[])
        .unwrap();
    assert_eq!((ana.name.as_str(), ana.about.as_str()), ("Ana", ""));
    assert_ne!(ana.owner, key);
    // The key's game is the account's now, seen through the other server too.
    assert_eq!(
        b.game_row(keys_game).unwrap().unwrap().owner,
        Some(ana.owner)
    );
    assert_eq!(b.game_row(keys_game).unwrap().unwrap().version, 1);
    assert!(b.list(key, 10).unwrap().is_empty());
    // A taken name, in any case, is a conflict and writes nothing.
    assert!(matches!(
        b.sign_up("ANA", "x", [2; 32], None, 1_000, &[]),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(b.session_account([2; 32], 0).unwrap(), None);
    assert_eq!(b.account_named("aNa").unwrap().unwrap().id, ana.id);
    // Sessions: found while young enough, ended one by one or all together.
    assert_eq!(
        b.session_account([1; 32], 1_000).unwrap().unwrap().id,
        ana.id
    );
    assert_eq!(b.session_account([1; 32], 1_001).unwrap(), None, "expired");
    assert_eq!(b.sign_in(ana.id, [4; 32], None, 2_000).unwrap(), 0);
    assert_eq!(b.sign_in(ana.id, [5; 32], None, 2_000).unwrap(), 0);
    assert_eq!(a.sessions(ana.id).unwrap(), 3);
    assert_eq!(a.sign_out(SessionEnd::This([4; 32])).unwrap(), 1);
    assert_eq!(a.session_account([4; 32], 0).unwrap(), None);
    assert_eq!(a.set_password(ana.id, "$argon2id$new", [5; 32]).unwrap(), 1);
    assert_eq!(
        b.account(ana.id).unwrap().unwrap().password,
        "$argon2id$new"
    );
    assert_eq!(b.session_account([1; 32], 0).unwrap(), None);
    assert_eq!(b.session_account([5; 32], 0).unwrap().unwrap().id, ana.id);
    a.set_about(ana.id, "hola").unwrap();
    assert_eq!(b.account(ana.id).unwrap().unwrap().about, "hola");
    assert_eq!(b.sign_out(SessionEnd::Everywhere(ana.id)).unwrap(), 1);
    assert_eq!(a.sessions(ana.id).unwrap(), 0);
}

fn code(tag: &str, hash: &str) -> RecoveryCode {
    RecoveryCode {
        tag: tag.to_owned(),
        hash: hash.to_owned(),
    }
}

fn a_recovery_code_is_spent_once_and_new_codes_end_the_old_ones(kind: Kind) {
    let (a, b) = two(kind, "recovery");
    let (first, second) = (code("aa", "$argon2id$1"), code("bb", "$argon2id$2"));
    let ana = a
        .sign_up(
            "Ana",
            "$argon2id$old",
            [1; 32],
            None,
            0,
            &[first.clone(), second.clone()],
        )
        .unwrap();
    assert_eq!(
        b.recovery_codes(ana.id).unwrap(),
        vec![first.clone(), second.clone()]
    );
    b.sign_in(ana.id, [2; 32], None, 0).unwrap();
    // A recovery spends the code, sets the password and ends every session but its own.
    let key = [9; 32];
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let keys_game = a
        .create_game(&NewGame::new(&game, "human", "human").owned_by(Some(key)))
        .unwrap();
    assert_eq!(
        a.recover(ana.id, &first, "$argon2id$new", [3; 32], Some(key), 5_000)
            .unwrap(),
        Some(2)
    );
    assert_eq!(b.recovery_codes(ana.id).unwrap(), vec![second.clone()]);
    assert_eq!(
        b.account(ana.id).unwrap().unwrap().password,
        "$argon2id$new"
    );
    assert_eq!(b.sessions(ana.id).unwrap(), 1);
    assert_eq!(b.session_account([1; 32], 0).unwrap(), None);
    assert_eq!(b.session_account([3; 32], 0).unwrap().unwrap().id, ana.id);
    assert_eq!(
        b.game_row(keys_game).unwrap().unwrap().owner,
        Some(ana.owner)
    );
    // The same code again, through the other server: refused, and nothing is written.
    assert_eq!(
        b.recover(ana.id, &first, "$argon2id$other", [4; 32], None, 6_000)
            .unwrap(),
        None
    );
    assert_eq!(
        a.account(ana.id).unwrap().unwrap().password,
        "$argon2id$new"
    );
    assert_eq!(a.session_account([4; 32], 0).unwrap(), None);
    assert_eq!(a.sessions(ana.id).unwrap(), 1);
    // A tag with another hash is not the code.
    assert_eq!(
        a.recover(ana.id, &code("bb", "$argon2id$x"), "h", [5; 32], None, 0)
            .unwrap(),
        None
    );
    // New codes end the old ones.
    let third = code("cc", "$argon2id$3");
    b.set_recovery_codes(ana.id, std::slice::from_ref(&third))
        .unwrap();
    assert_eq!(a.recovery_codes(ana.id).unwrap(), vec![third.clone()]);
    assert_eq!(
        a.recover(ana.id, &second, "h", [6; 32], None, 0).unwrap(),
        None
    );
    // One code tried through both servers at once works once.
    let tries: Vec<Option<usize>> = std::thread::scope(|scope| {
        let handles: Vec<_> = [(&a, [7; 32]), (&b, [8; 32])]
            .into_iter()
            .map(|(store, session)| {
                let third = &third;
                scope.spawn(move || {
                    store
                        .recover(ana.id, third, "$argon2id$raced", session, None, 7_000)
                        .unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(tries.iter().filter(|t| t.is_some()).count(), 1, "{tries:?}");
    assert!(a.recovery_codes(ana.id).unwrap().is_empty());
}

fn a_rated_live_game_is_rated_once_in_the_write_that_ends_it(kind: Kind) {
    let (a, b) = two(kind, "ratings");
    let ana = a.sign_up("Ana", "h", [1; 32], None, 0, &[]).unwrap();
    let bea = a.sign_up("Bea", "h", [2; 32], None, 0, &[]).unwrap();
    let game = Game::new(Rules::new(Variant::HoyitoII));
    let live = LiveRow {
        accounts: [Some(ana.id), Some(bea.id)],
        rated: true,
        ..LiveRow::new(
            [Some([7; 32]), Some([8; 32])],
            [Some("Ana".into()), Some("Bea".into())],
            Some(LiveClock::new(60_000, 0)),
            0,
        )
    };
    let id = a.create_game(&NewGame::live(&game, &live)).unwrap();
    let mut stored = b.live_row(id).unwrap().unwrap();
    assert_eq!(
        (stored.accounts, stored.rated),
        ([Some(ana.id), Some(bea.id)], true)
    );
    // An offer: no result, no rating.
    stored.offers.draw = Some(Side::South);
    b.update_live(&stored).unwrap();
    assert!(a.ratings(ana.id).unwrap().is_empty());
    // North resigns: South wins, rated at once.
    let mut ended = a.live_row(id).unwrap().unwrap();
    ended.result = Some(LiveResult {
        outcome: "south".into(),
        reason: "resignation".into(),
    });
    a.update_live(&ended).unwrap();
    let (s, n) = sowing_web::ratings::after_game(
        sowing_web::ratings::Rating::default(),
        sowing_web::ratings::Rating::default(),
        1.0,
    );
    let ana_rating = &b.ratings(ana.id).unwrap()[0];
    assert_eq!(
        (
            ana_rating.variant.as_str(),
            ana_rating.speed.as_str(),
            ana_rating.games
        ),
        ("hoyito-ii", "bullet", 1)
    );
    assert_eq!(ana_rating.rating, s);
    assert_eq!(b.ratings(bea.id).unwrap()[0].rating, n);
    // Another write of the finished game (a rematch offer) rates nothing again.
    let mut after = b.live_row(id).unwrap().unwrap();
    after.offers.rematch = Some(Side::North);
    b.update_live(&after).unwrap();
    assert_eq!(a.ratings(ana.id).unwrap()[0].games, 1);
    let games = a.rated_games(bea.id, 10).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].names, ["Ana".to_owned(), "Bea".to_owned()]);
    assert_eq!(
        (games[0].outcome.as_str(), games[0].before),
        ("south", [1500.0, 1500.0])
    );
    assert_eq!(games[0].after, [s.rating, n.rating]);
    let board = b.leaderboard("hoyito-ii", "bullet", 10).unwrap();
    assert_eq!(
        board.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
        ["Ana", "Bea"]
    );
    assert!(b.leaderboard("hoyito-ii", "blitz", 10).unwrap().is_empty());
    // An unrated game between the same accounts moves nothing.
    let unrated = LiveRow {
        rated: false,
        ..live
    };
    let other = a.create_game(&NewGame::live(&game, &unrated)).unwrap();
    let mut row = a.live_row(other).unwrap().unwrap();
    row.result = ended.result.clone();
    a.update_live(&row).unwrap();
    assert_eq!(a.ratings(ana.id).unwrap()[0].games, 1);
}

fn an_analysis_is_kept_with_its_game_and_leaves_with_it(kind: Kind) {
    let (a, b) = two(kind, "analysis");
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    let id = a
        .create_game(&NewGame::new(&game, "human", "level:2"))
        .unwrap();
    assert_eq!(b.analysis(id).unwrap(), None);
    for _ in 0..3 {
        game.play(game.legal_moves()[0]).unwrap();
        a.append_move(id, &game, None).unwrap();
    }
    let version = a.version(id).unwrap();
    let moves = moves_key(&game);
    assert_eq!(moves.split(' ').count(), 3, "{moves}");
    a.save_analysis(id, &moves, r#"{"plies":3}"#).unwrap();
    // Read through the other store; the game itself did not change.
    let kept = b.analysis(id).unwrap().unwrap();
    assert_eq!(
        (&kept.moves, kept.body.as_str()),
        (&moves, r#"{"plies":3}"#)
    );
    assert_eq!(kept.created.len(), "2026-12-01 18:47:00".len());
    assert_eq!(b.version(id).unwrap(), version);
    // A newer analysis replaces it.
    b.save_analysis(id, "A a", r#"{"plies":2}"#).unwrap();
    let kept = a.analysis(id).unwrap().unwrap();
    assert_eq!(
        (kept.moves.as_str(), kept.body.as_str()),
        ("A a", r#"{"plies":2}"#)
    );
    // None for a game that is not there; a deleted game takes its analysis with it.
    assert!(matches!(
        a.save_analysis(id + 100, "A", "{}"),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(a.analysis(id + 100).unwrap(), None);
    a.delete(id).unwrap();
    assert_eq!(b.analysis(id).unwrap(), None);
    assert!(matches!(
        b.save_analysis(id, "A", "{}"),
        Err(StoreError::Conflict(_))
    ));
}

/// A finished game of Hoyito II that opens with `first` then plays the first legal move until
/// it ends.
fn finished(first: &[&str]) -> Game {
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    for name in first {
        game.play(game.parse_move(name).unwrap()).unwrap();
    }
    while !game.is_over() {
        game.play(game.legal_moves()[0]).unwrap();
    }
    game
}

fn the_moves_played_after_a_line_are_counted_by_result(kind: Kind) {
    let (a, b) = two(kind, "openings");
    let games = [
        finished(&["C", "d"]),
        finished(&["C", "d"]),
        finished(&["C", "a"]),
        finished(&["D"]),
    ];
    for game in &games {
        a.create_game(&NewGame::new(game, "human", "human"))
            .unwrap();
    }
    // Not finished, or from another start: not counted.
    let mut open = Game::new(Rules::new(Variant::HoyitoII));
    open.play(open.parse_move("C").unwrap()).unwrap();
    a.create_game(&NewGame::new(&open, "human", "human"))
        .unwrap();
    let other = finished_from("hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 4-0 S -");
    a.create_game(&NewGame::new(&other, "human", "human"))
        .unwrap();
    let start = Game::new(Rules::new(Variant::HoyitoII)).start().to_string();
    let result = |game: &Game| game.outcome().unwrap();
    let count = |mv: &str, line: &[&str]| {
        let mut want = PlayedMove {
            mv: mv.to_owned(),
            ..PlayedMove::default()
        };
        for game in &games {
            let names: Vec<String> = game.moves().iter().map(|m| m.name(6).to_string()).collect();
            if names.len() > line.len() && names[..line.len()] == *line && names[line.len()] == mv {
                match result(game) {
                    sowing::Outcome::Win(Side::South) => want.south += 1,
                    sowing::Outcome::Win(Side::North) => want.north += 1,
                    sowing::Outcome::Draw => want.draws += 1,
                }
            }
        }
        want
    };
    let line = |moves: &[&str]| moves.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    // Read through the other store: the most played first.
    assert_eq!(
        b.played_after(&start, &[]).unwrap(),
        vec![count("C", &[]), count("D", &[])]
    );
    assert_eq!(
        b.played_after(&start, &line(&["C"])).unwrap(),
        vec![count("d", &["C"]), count("a", &["C"])]
    );
    assert_eq!(b.played_after(&start, &line(&["C", "b"])).unwrap(), vec![]);
    assert_eq!(b.played_after(&start, &line(&["F"])).unwrap(), vec![]);
    // Past the longest line counted: nothing, without a query.
    let long = vec!["C".to_owned(); MAX_PLAYED_LINE + 1];
    assert_eq!(b.played_after(&start, &long).unwrap(), vec![]);
}

fn finished_from(start: &str) -> Game {
    let mut game = Game::from_position(start.parse().unwrap());
    while !game.is_over() {
        game.play(game.legal_moves()[0]).unwrap();
    }
    game
}
