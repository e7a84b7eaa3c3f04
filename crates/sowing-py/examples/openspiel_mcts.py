"""OpenSpiel's MCTS bot against sowing.Engine, on OpenSpiel's own game interface.

    python openspiel_mcts.py [--game sowing_hoyito_ii] [--games 2] [--simulations 200] [--level 2]

Each game is played twice, MCTS as South then as North; the engine sees the same
position through ``state.game_`` (the ``sowing.Game`` behind the OpenSpiel state).
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import sowing
import sowing.openspiel  # noqa: F401  (registers the games with OpenSpiel)


def play(game, mcts_bot, engine, mcts_player):
    state = game.new_initial_state()
    engine.new_game()
    while not state.is_terminal():
        if state.current_player() == mcts_player:
            action = mcts_bot.step(state)
        else:
            name = engine.best_move(state.game_)
            action = state.game_.action_of(name)
        state.apply_action(action)
    return state.returns()[mcts_player], state


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sowing_hoyito_ii")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game(args.game)
    rng = np.random.RandomState(args.seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
        solve=True,
    )
    engine = sowing.Engine(level=args.level, seed=args.seed)
    total = 0.0
    for index in range(args.games):
        mcts_player = index % 2
        margin, state = play(game, bot, engine, mcts_player)
        total += margin
        side = "South" if mcts_player == 0 else "North"
        print(f"game {index + 1}: MCTS as {side}, margin {margin:+.0f} seeds "
              f"({state.game_.end}), final {state}")
    print(f"MCTS ({args.simulations} simulations) against level:{args.level}: "
          f"mean score {total / args.games:+.2f} seeds a game")


if __name__ == "__main__":
    main()
