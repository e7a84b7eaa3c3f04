//! Player specs and the players they build.

use sowing::{Game, Rules, Variant};
use sowing_engine::{Limits, PlayerSpec};

#[test]
fn specs_round_trip_through_text() {
    for text in [
        "random",
        "greedy",
        "level:1",
        "level:6",
        "perfect",
        "search",
        "search:time=100,tables=on",
        "search:depth=6,nodes=1000,time=100,hash=4,noise=20,quiescence=off,eval=margin",
        "mcts",
        "mcts:c=0.7,playouts=500,time=50,cap=100",
    ] {
        let spec: PlayerSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
    }
}

#[test]
fn bad_specs_are_refused_with_a_reason() {
    for text in [
        "level:0",
        "level:7",
        "level:x",
        "search:depth",
        "search:speed=3",
        "mcts:c=-1",
        "alphabeta",
        "random:3",
    ] {
        let error = text.parse::<PlayerSpec>().unwrap_err();
        assert!(!error.to_string().is_empty(), "{text}");
    }
}

#[test]
fn every_player_plays_legal_moves_to_the_end() {
    let specs = [
        "random",
        "greedy",
        "level:1",
        "level:3",
        "search:nodes=2000",
        "mcts:playouts=200",
    ];
    for variant in Variant::ALL {
        for (i, spec) in specs.iter().enumerate() {
            let spec: PlayerSpec = spec.parse().unwrap();
            let mut players = [spec.build(1), PlayerSpec::Random.build(2)];
            let mut game = Game::new(Rules::new(variant));
            let limits = Limits {
                nodes: Some(2_000),
                ..Limits::default()
            };
            let mut plies = 0;
            while !game.is_over() && plies < 400 {
                let mover = usize::from(game.position().to_move().index() != i % 2);
                let mv = players[mover].choose(&game, &limits, &mut |_| {});
                game.play(mv)
                    .unwrap_or_else(|e| panic!("{spec} in {variant}: {e}"));
                plies += 1;
            }
        }
    }
}

#[test]
fn same_seed_same_moves_for_levels_and_mcts() {
    let mut game = Game::new(Rules::new(Variant::Ayoayo));
    game.play(game.parse_move("C").unwrap()).unwrap();
    for spec in ["level:1", "level:2", "level:4", "mcts:playouts=300"] {
        let spec: PlayerSpec = spec.parse().unwrap();
        let a = spec
            .build(42)
            .choose(&game, &Limits::default(), &mut |_| {});
        let b = spec
            .build(42)
            .choose(&game, &Limits::default(), &mut |_| {});
        assert_eq!(a, b, "{spec}");
    }
}

#[test]
fn search_takes_a_free_capture_greedy_would_miss_the_follow_up() {
    // South: D then F capture two casas in a row (an extra turn between them).
    let pos: sowing::Position = "hoyito-ii 0,0,0,1,3,1/3,0,0,0,0,5 20-16 S -"
        .parse()
        .unwrap();
    let game = Game::from_position(pos);
    let mut player = "search:depth=3".parse::<PlayerSpec>().unwrap().build(0);
    let mv = player.choose(&game, &Limits::default(), &mut |_| {});
    let mut next = game.clone();
    next.play(mv).unwrap();
    assert_eq!(
        next.position().to_move(),
        sowing::Side::South,
        "the first move captures"
    );
}
