//! One test per rule of the scoring, the standings, the pairing and pause, each from an
//! explicit arena.

use sowing_arena::*;

use GameResult::{Draw, NorthWins, SouthWins};

const MINUTE: Millis = 60_000;
const SCHEDULE: Schedule = Schedule {
    start: 0,
    end: 60 * MINUTE,
};

/// An arena with players 1..=n, rated so that rating orders them by id, all joined at 0.
fn arena(n: u64) -> Arena {
    let mut arena = Arena::new(SCHEDULE);
    for id in 1..=n {
        arena.join(PlayerId(id), 2000 - id as i32, 0).unwrap();
    }
    arena
}

/// The boards as (South, North) ids.
fn ids(games: &[Ongoing]) -> Vec<(u64, u64)> {
    games
        .iter()
        .map(|g| (g.board.south.0, g.board.north.0))
        .collect()
}

fn board_ids(boards: &[Board]) -> Vec<(u64, u64)> {
    boards.iter().map(|b| (b.south.0, b.north.0)).collect()
}

/// A finished game between `south` and `north`, ending at `ended`.
fn game(south: u64, north: u64, result: GameResult, ended: Millis) -> Finished {
    Finished {
        id: GameId(ended),
        board: Board {
            south: PlayerId(south),
            north: PlayerId(north),
        },
        result,
        berserk: Seats::new(false, false),
        moves: Seats::new(20, 20),
        started: ended.saturating_sub(MINUTE),
        ended,
    }
}

fn berserk(mut game: Finished, south: bool, north: bool, moves: u32) -> Finished {
    game.berserk = Seats::new(south, north);
    game.moves = Seats::new(moves, moves);
    game
}

fn players(n: u64) -> Vec<Player> {
    (1..=n)
        .map(|id| Player::new(PlayerId(id), 2000 - id as i32, 0))
        .collect()
}

/// The standing of one player.
fn line(table: &[Standing], id: u64) -> &Standing {
    table.iter().find(|s| s.player == PlayerId(id)).unwrap()
}

/// Player 1's sheet after the games, 1 always South against 2.
fn sheet_of_one(results: &[GameResult]) -> Vec<u32> {
    let games: Vec<Finished> = results
        .iter()
        .enumerate()
        .map(|(i, &r)| game(1, 2, r, (i as u64 + 1) * MINUTE))
        .collect();
    let table = standings(&players(2), &games, SCHEDULE).unwrap();
    line(&table, 1).sheet.clone()
}

fn waiting(id: u64, points: u32, rating: i32) -> Waiting {
    Waiting {
        id: PlayerId(id),
        points,
        rating,
        free_since: 0,
        last_opponent: None,
        balance: 0,
    }
}

// Scoring.

#[test]
fn scoring_win_two_draw_one_loss_zero() {
    assert_eq!(sheet_of_one(&[SouthWins, Draw, NorthWins]), [2, 1, 0]);
    let table = standings(&players(2), &[game(1, 2, SouthWins, MINUTE)], SCHEDULE).unwrap();
    assert_eq!((line(&table, 1).points, line(&table, 2).points), (2, 0));
}

#[test]
fn scoring_after_two_wins_in_a_row_each_further_win_counts_double() {
    assert_eq!(
        sheet_of_one(&[SouthWins, SouthWins, SouthWins, SouthWins]),
        [2, 2, 4, 4]
    );
}

#[test]
fn scoring_on_fire_a_draw_counts_two_and_ends_the_streak() {
    assert_eq!(
        sheet_of_one(&[SouthWins, SouthWins, Draw, SouthWins, SouthWins, SouthWins]),
        [2, 2, 2, 2, 2, 4]
    );
}

#[test]
fn scoring_on_fire_a_loss_scores_nothing_and_ends_the_streak() {
    assert_eq!(
        sheet_of_one(&[SouthWins, SouthWins, NorthWins, SouthWins]),
        [2, 2, 0, 2]
    );
}

#[test]
fn scoring_on_fire_shows_in_the_standings() {
    let games = [
        game(1, 2, SouthWins, MINUTE),
        game(1, 2, SouthWins, 2 * MINUTE),
    ];
    let table = standings(&players(2), &games, SCHEDULE).unwrap();
    assert!(line(&table, 1).on_fire);
    assert!(!line(&table, 2).on_fire);
}

#[test]
fn scoring_streak_is_each_players_own() {
    // 1 wins, then 2 wins (2's first win), then 2 wins again: 2 is not on fire before the
    // second of its wins.
    let games = [
        game(1, 2, SouthWins, MINUTE),
        game(1, 2, NorthWins, 2 * MINUTE),
        game(1, 2, NorthWins, 3 * MINUTE),
        game(1, 2, NorthWins, 4 * MINUTE),
    ];
    let table = standings(&players(2), &games, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).sheet, [2, 0, 0, 0]);
    assert_eq!(line(&table, 2).sheet, [0, 2, 2, 4]);
}

#[test]
fn berserk_win_adds_one_point() {
    let games = [berserk(game(1, 2, SouthWins, MINUTE), true, true, 20)];
    let table = standings(&players(2), &games, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).sheet, [3]);
    assert_eq!(line(&table, 2).sheet, [0]);
    assert_eq!(line(&table, 1).berserks, 1);
}

#[test]
fn berserk_bonus_needs_the_minimum_number_of_moves() {
    assert_eq!(BERSERK_MIN_MOVES, 7);
    let short = [berserk(game(1, 2, SouthWins, MINUTE), true, false, 6)];
    let enough = [berserk(game(1, 2, SouthWins, MINUTE), true, false, 7)];
    let table = standings(&players(2), &short, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).points, 2);
    let table = standings(&players(2), &enough, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).points, 3);
}

#[test]
fn berserk_draw_or_loss_adds_nothing() {
    let games = [
        berserk(game(1, 2, Draw, MINUTE), true, true, 30),
        berserk(game(1, 2, SouthWins, 2 * MINUTE), false, true, 30),
    ];
    let table = standings(&players(2), &games, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).sheet, [1, 2]);
    assert_eq!(line(&table, 2).sheet, [1, 0]);
}

#[test]
fn berserk_bonus_on_fire_is_not_doubled() {
    let games = [
        game(1, 2, SouthWins, MINUTE),
        game(1, 2, SouthWins, 2 * MINUTE),
        berserk(game(1, 2, SouthWins, 3 * MINUTE), true, false, 30),
    ];
    let table = standings(&players(2), &games, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).sheet, [2, 2, 5]);
}

#[test]
fn berserk_clock_halves_the_base_and_drops_the_increment() {
    let clock = Clock {
        base: 5 * MINUTE,
        increment: 3_000,
    };
    assert_eq!(
        clock.berserk(),
        Clock {
            base: 150_000,
            increment: 0
        }
    );
    let odd = Clock {
        base: 1,
        increment: 0,
    };
    assert_eq!(odd.berserk().base, 0);
}

// Standings.

#[test]
fn standings_by_points_then_performance() {
    // 1 beats 3 (rated 1997), 2 beats 4 (rated 1996): level on points, 1's performance is
    // higher (2497 against 2496).
    let games = [game(1, 3, SouthWins, MINUTE), game(2, 4, SouthWins, MINUTE)];
    let table = standings(&players(4), &games, SCHEDULE).unwrap();
    let order: Vec<u64> = table.iter().map(|s| s.player.0).collect();
    assert_eq!(order, [1, 2, 3, 4]);
    assert_eq!(table[0].performance, Some(2497));
    assert_eq!(table[1].performance, Some(2496));
    assert_eq!(table[2].performance, Some(1499)); // 3 lost to 1 (1999): 1999 − 500
    assert_eq!((table[0].rank, table[1].rank), (1, 2));
}

#[test]
fn standings_performance_is_the_mean_rounded_down() {
    // 1 beats 2 (1998) and draws 3 (1997): (2498 + 1997) / 2 = 2247.5, shown 2247.
    let games = [game(1, 2, SouthWins, MINUTE), game(1, 3, Draw, 2 * MINUTE)];
    let table = standings(&players(3), &games, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).performance, Some(2247));
}

#[test]
fn standings_level_on_points_and_performance_share_a_rank_listed_by_rating() {
    let mut field = players(4);
    field[2].rating = 1998; // 3 rated as 2
    let games = [game(1, 3, Draw, MINUTE), game(1, 2, Draw, 2 * MINUTE)];
    let table = standings(&field, &games, SCHEDULE).unwrap();
    // 2 and 3 both drew 1 (1999): level; listed by rating, then id.
    let rows: Vec<(u64, usize)> = table.iter().map(|s| (s.player.0, s.rank)).collect();
    assert_eq!(rows, [(1, 1), (2, 2), (3, 2), (4, 4)]);
    assert_eq!(line(&table, 4).performance, None);
}

#[test]
fn standings_game_ending_after_the_end_does_not_count() {
    let games = [
        game(1, 2, SouthWins, SCHEDULE.end),
        game(1, 2, SouthWins, SCHEDULE.end + 1),
    ];
    let table = standings(&players(2), &games, SCHEDULE).unwrap();
    assert_eq!(line(&table, 1).sheet, [2]);
}

#[test]
fn standings_refuse_inconsistent_games() {
    let unknown = [game(1, 9, Draw, MINUTE)];
    assert_eq!(
        standings(&players(2), &unknown, SCHEDULE),
        Err(ArenaError::UnknownPlayer(PlayerId(9)))
    );
    let themselves = [game(1, 1, Draw, MINUTE)];
    assert_eq!(
        standings(&players(2), &themselves, SCHEDULE),
        Err(ArenaError::PlaysThemselves(PlayerId(1)))
    );
    let mut twice = players(2);
    twice.push(twice[0]);
    assert_eq!(
        standings(&twice, &[], SCHEDULE),
        Err(ArenaError::DuplicatePlayer(PlayerId(1)))
    );
}

// Pairing.

#[test]
fn pairing_neighbours_in_the_standings() {
    let mut arena = arena(6);
    assert_eq!(ids(&arena.pair(0)), [(1, 2), (3, 4), (5, 6)]);
}

#[test]
fn pairing_ranks_by_points_then_rating() {
    let field = [
        waiting(1, 0, 2000),
        waiting(2, 4, 1000),
        waiting(3, 2, 1500),
        waiting(4, 4, 1200),
    ];
    // Ranked 4 (4 points, 1200), 2 (4, 1000), 3, 1.
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 0)), [(4, 2), (3, 1)]);
}

#[test]
fn pairing_no_rematch_of_the_last_game_when_another_waits() {
    let mut arena = arena(4);
    let games = arena.pair(0);
    assert_eq!(ids(&games), [(1, 2), (3, 4)]);
    // 1 and 2 finish first, 3 and 4 later: while 1 and 2 wait alone they are not paired.
    arena
        .finish(
            games[0].id,
            Draw,
            Seats::default(),
            Seats::default(),
            MINUTE,
        )
        .unwrap();
    assert!(arena.pair(MINUTE).is_empty());
    arena
        .finish(
            games[1].id,
            Draw,
            Seats::default(),
            Seats::default(),
            MINUTE + 1,
        )
        .unwrap();
    let next = arena.pair(MINUTE + 1);
    for g in &next {
        let pair = (
            g.board.south.0.min(g.board.north.0),
            g.board.south.0.max(g.board.north.0),
        );
        assert!(pair != (1, 2) && pair != (3, 4), "{next:?}");
    }
    assert_eq!(next.len(), 2);
}

#[test]
fn pairing_rematch_forbidden_either_way() {
    // 1's last opponent was 2, but 2 has played 3 since: 1 and 2 still do not meet.
    let mut field = [
        waiting(1, 0, 1500),
        waiting(2, 0, 1500),
        waiting(3, 0, 1500),
    ];
    field[0].last_opponent = Some(PlayerId(2));
    field[1].last_opponent = Some(PlayerId(3));
    field[2].last_opponent = Some(PlayerId(2));
    // 3 cannot meet 2 either: only 1 and 3 can play.
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 0)), [(1, 3)]);
}

#[test]
fn pairing_lone_last_opponents_wait_then_meet_after_the_rematch_delay() {
    let mut field = [waiting(1, 2, 1500), waiting(2, 0, 1500)];
    field[0].last_opponent = Some(PlayerId(2));
    field[1].last_opponent = Some(PlayerId(1));
    field[1].free_since = 1_000;
    assert!(pair(&field, SCHEDULE, REMATCH_AFTER - 1).is_empty());
    assert_eq!(board_ids(&pair(&field, SCHEDULE, REMATCH_AFTER)), [(1, 2)]);
}

#[test]
fn pairing_covers_as_many_players_as_possible() {
    // Neighbours 1–2 would leave 3 and 4, who just played each other, without a game.
    let mut field = [
        waiting(1, 6, 1500),
        waiting(2, 4, 1500),
        waiting(3, 2, 1500),
        waiting(4, 0, 1500),
    ];
    field[2].last_opponent = Some(PlayerId(4));
    field[3].last_opponent = Some(PlayerId(3));
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 0)), [(1, 3), (2, 4)]);
}

#[test]
fn pairing_odd_count_leaves_out_the_player_who_waited_least() {
    let mut field = [
        waiting(1, 0, 1500),
        waiting(2, 0, 1500),
        waiting(3, 0, 1500),
    ];
    field[0].free_since = 5_000; // 1 came free last
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 10_000)), [(2, 3)]);
    field[0].free_since = 0;
    field[2].free_since = 5_000; // 3 came free last
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 10_000)), [(1, 2)]);
}

#[test]
fn pairing_odd_count_left_out_keeps_the_others_neighbours() {
    // 3 came free last, but leaving 3 out would pair 4 with 5, who just played each other:
    // 5 (the least-waited whose leaving out keeps 1–2 and 3–4) waits instead.
    let mut field: Vec<Waiting> = (1..=5).map(|id| waiting(id, 0, 2000 - id as i32)).collect();
    field[2].free_since = 9_000;
    field[4].free_since = 5_000;
    field[3].last_opponent = Some(PlayerId(5));
    field[4].last_opponent = Some(PlayerId(4));
    // (4 has waited longer than 3, so sits South.)
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 10_000)), [(1, 2), (4, 3)]);
}

#[test]
fn seats_lower_balance_sits_south() {
    let mut field = [waiting(1, 0, 1500), waiting(2, 0, 1400)];
    field[0].balance = 1;
    field[1].balance = -1;
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 0)), [(2, 1)]);
}

#[test]
fn seats_equal_balance_longer_wait_sits_south() {
    let mut field = [waiting(1, 0, 1500), waiting(2, 0, 1400)];
    field[0].free_since = 2_000;
    field[1].free_since = 1_000;
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 3_000)), [(2, 1)]);
}

#[test]
fn seats_equal_balance_and_wait_higher_ranked_sits_south() {
    let field = [waiting(1, 0, 1400), waiting(2, 0, 1500)];
    assert_eq!(board_ids(&pair(&field, SCHEDULE, 0)), [(2, 1)]);
}

#[test]
fn seats_alternate_for_a_player_over_games() {
    let mut arena = arena(2);
    let mut seats = Vec::new();
    for k in 0..4 {
        // Alone with their last opponent: the rematch waits REMATCH_AFTER.
        let now = k * MINUTE;
        let games = arena.pair(now);
        assert_eq!(games.len(), 1);
        seats.push(games[0].board.south.0);
        let end = now + REMATCH_AFTER / 2;
        arena
            .finish(games[0].id, Draw, Seats::default(), Seats::default(), end)
            .unwrap();
    }
    assert_eq!(seats, [1, 2, 1, 2]);
}

#[test]
fn pairing_nothing_before_the_start() {
    let schedule = Schedule {
        start: 10 * MINUTE,
        end: 40 * MINUTE,
    };
    let field = [waiting(1, 0, 1500), waiting(2, 0, 1500)];
    assert!(pair(&field, schedule, 10 * MINUTE - 1).is_empty());
    assert_eq!(pair(&field, schedule, 10 * MINUTE).len(), 1);
}

#[test]
fn pairing_nothing_near_or_after_the_end() {
    assert_eq!(PAIRING_CLOSES_BEFORE_END, 30_000);
    let field = [waiting(1, 0, 1500), waiting(2, 0, 1500)];
    let closes = SCHEDULE.end - PAIRING_CLOSES_BEFORE_END;
    assert_eq!(pair(&field, SCHEDULE, closes - 1).len(), 1);
    assert!(pair(&field, SCHEDULE, closes).is_empty());
    assert!(pair(&field, SCHEDULE, SCHEDULE.end).is_empty());
    assert!(pair(&field, SCHEDULE, SCHEDULE.end + MINUTE).is_empty());
}

#[test]
fn pairing_a_player_in_a_game_is_not_paired() {
    let mut arena = arena(3);
    assert_eq!(ids(&arena.pair(0)), [(1, 2)]);
    arena.join(PlayerId(4), 1000, 1_000).unwrap();
    assert_eq!(ids(&arena.pair(1_000)), [(3, 4)]);
    assert!(arena.pair(2_000).is_empty());
}

// Pause and come back.

#[test]
fn pause_a_paused_player_is_not_paired() {
    let mut arena = arena(3);
    arena.pause(PlayerId(2)).unwrap();
    assert_eq!(ids(&arena.pair(0)), [(1, 3)]);
    assert_eq!(line(&arena.standings(), 2).status, Status::Paused);
}

#[test]
fn pause_a_game_in_progress_goes_on_and_counts() {
    let mut arena = arena(2);
    let games = arena.pair(0);
    arena.pause(PlayerId(1)).unwrap();
    arena
        .finish(
            games[0].id,
            SouthWins,
            Seats::default(),
            Seats::default(),
            MINUTE,
        )
        .unwrap();
    assert_eq!(line(&arena.standings(), 1).points, 2);
    assert!(arena.waiting().iter().all(|w| w.id != PlayerId(1)));
}

#[test]
fn pause_coming_back_keeps_points_and_streak() {
    let mut arena = arena(4);
    // 1 wins twice (on fire), pauses, comes back: the next win counts double.
    for k in 0..2 {
        let now = k * MINUTE;
        for g in arena.pair(now) {
            let one_south = g.board.south == PlayerId(1);
            let result = if one_south { SouthWins } else { NorthWins };
            arena
                .finish(
                    g.id,
                    result,
                    Seats::default(),
                    Seats::default(),
                    now + 1_000,
                )
                .unwrap();
        }
    }
    assert!(line(&arena.standings(), 1).on_fire);
    arena.pause(PlayerId(1)).unwrap();
    assert!(arena
        .pair(3 * MINUTE)
        .iter()
        .all(|g| g.board.south != PlayerId(1) && g.board.north != PlayerId(1)));
    arena.resume(PlayerId(1), 10 * MINUTE).unwrap();
    assert!(line(&arena.standings(), 1).on_fire);
    assert_eq!(line(&arena.standings(), 1).points, 4);
    // 1's wait counts from coming back.
    assert_eq!(arena.players()[0].free_since, 10 * MINUTE);
}

#[test]
fn join_twice_or_after_the_end_is_refused() {
    let mut arena = arena(2);
    assert_eq!(
        arena.join(PlayerId(1), 1500, 0),
        Err(ArenaError::DuplicatePlayer(PlayerId(1)))
    );
    assert_eq!(
        arena.join(PlayerId(9), 1500, SCHEDULE.end),
        Err(ArenaError::Over)
    );
    assert_eq!(
        arena.pause(PlayerId(9)),
        Err(ArenaError::UnknownPlayer(PlayerId(9)))
    );
}

#[test]
fn finish_an_unknown_game_is_refused() {
    let mut arena = arena(2);
    let games = arena.pair(0);
    let done = arena
        .finish(
            games[0].id,
            Draw,
            Seats::default(),
            Seats::default(),
            MINUTE,
        )
        .unwrap();
    assert_eq!(
        arena.finish(done.id, Draw, Seats::default(), Seats::default(), MINUTE),
        Err(ArenaError::UnknownGame(done.id))
    );
}

#[test]
fn restore_gives_back_the_same_arena() {
    let mut arena = arena(5);
    let games = arena.pair(0);
    arena
        .finish(
            games[1].id,
            NorthWins,
            Seats::default(),
            Seats::new(8, 8),
            MINUTE,
        )
        .unwrap();
    let restored = Arena::restore(
        arena.schedule(),
        arena.players().to_vec(),
        arena.finished().to_vec(),
        arena.ongoing().to_vec(),
    )
    .unwrap();
    assert_eq!(restored, arena);
    let mut twice = arena.ongoing().to_vec();
    twice.push(twice[0]);
    assert_eq!(
        Arena::restore(arena.schedule(), arena.players().to_vec(), vec![], twice),
        Err(ArenaError::DuplicateGame(games[0].id))
    );
}
