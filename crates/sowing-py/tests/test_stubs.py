"""The type stubs against the native module (mypy's stubtest), and the rules' keywords:
``sowing.OPTIONS`` is the rules crate's table, and every front end of the package reads it."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sowing

STUB = Path(sowing.__file__).with_name("_sowing.pyi")


def test_the_stubs_match_the_native_module(tmp_path):
    env = {**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "sowing._sowing", "--concise"],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _stub_rule_options() -> dict[str, list[str]]:
    """The keywords and values of ``_RuleOptions`` in the stub."""
    tree = ast.parse(STUB.read_text())
    (options,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "_RuleOptions"]
    found = {}
    for item in options.body:
        if isinstance(item, ast.AnnAssign):
            literal = [n for n in ast.walk(item.annotation)
                       if isinstance(n, ast.Subscript) and getattr(n.value, "id", "") == "Literal"]
            found[item.target.id] = [e.value for e in ast.walk(literal[0].slice)
                                     if isinstance(e, ast.Constant)]
    return found


def test_the_stub_s_rule_options_are_the_table_s():
    table = {}
    for options in sowing.OPTIONS.values():
        for name, entry in options.items():
            if name != "pits":
                table[name] = list(entry["values"])
    assert _stub_rule_options() == table


def test_options_is_the_rules_crate_s_table():
    assert list(sowing.OPTIONS) == sowing.GAMES == ["hoyito-ii", "hoyito-iii", "ayoayo"]
    assert list(sowing.OPTIONS["hoyito-ii"]) == ["pits", "casa_rows"]
    assert list(sowing.OPTIONS["hoyito-iii"]) == ["pits", "casa_rows", "final_four"]
    assert list(sowing.OPTIONS["ayoayo"]) == ["pits", "leftover"]
    assert sowing.OPTIONS["hoyito-ii"]["pits"]["values"] == (6, 12)
    assert sowing.OPTIONS["ayoayo"]["pits"]["values"] == (6,)
    final_four = sowing.OPTIONS["hoyito-iii"]["final_four"]
    assert final_four["type"] is str and final_four["default"] == "capturer"
    assert final_four["values"] == ("capturer", "south", "north")
    assert final_four["flag"] == "--final-four" and final_four["rule"] == "H3.3"
    for game, options in sowing.OPTIONS.items():
        for name, entry in options.items():
            assert entry["name"] == name and entry["default"] == entry["values"][0]
            for value in entry["values"]:
                made = sowing.Game(game, **{name: value})
                assert made.pits_per_row == value if name == "pits" else made.options[name] == value
            assert sowing.Game(game).options == {
                k: e["default"] for k, e in options.items() if k != "pits"
            }


def test_end_codes_are_the_rules_crate_s():
    assert sowing.END_CODES == ["board-cleared", "last-four", "cannot-feed", "repetition"]
    game = sowing.Game("ayoayo")
    while not game.is_over:
        report = game.play(game.legal_actions()[0])
    assert game.end in sowing.END_CODES and report.end == game.end


def test_every_constructor_takes_the_rule_options_by_keyword():
    assert sowing.Game("hoyito-iii", final_four="north").options["final_four"] == "north"
    assert sowing.VecGame(2, "ayoayo", leftover="holder").game(0).options == {"leftover": "holder"}
    core = sowing.VectorGame(2, "hoyito-ii", casa_rows="opponent", seed=1)
    assert core.game(0).options == {"casa_rows": "opponent"}
    state = sowing.Game("hoyito-iii").state()
    assert sowing.Game.from_state(state, final_four="south").options["final_four"] == "south"
    assert sowing.Game("hoyito-ii", casa_rows=None).options == {"casa_rows": "any"}
    for make in (lambda **o: sowing.Game("ayoayo", **o), lambda **o: sowing.VecGame(1, **o),
                 lambda **o: sowing.VectorGame(1, **o)):
        with pytest.raises(TypeError, match="unexpected keyword argument 'colour'.*casa_rows"):
            make(colour="red")
        with pytest.raises(TypeError, match="casa_rows must be a string or None"):
            make(casa_rows=3)
    with pytest.raises(sowing.RulesError, match="leftover is not an option of hoyito-ii"):
        sowing.Game("hoyito-ii", leftover="holder")
    with pytest.raises(sowing.RulesError, match='unknown casa-rows "mine"'):
        sowing.VecGame(1, casa_rows="mine")


def test_play_takes_move_by_keyword_and_its_old_name_mv():
    a, b, c = sowing.Game(), sowing.Game(), sowing.Game()
    assert repr(a.play(move="C")) == repr(b.play(mv="C")) == repr(c.play("C"))
    assert a == b == c and a.moves == ["C"]
    with pytest.raises(TypeError, match="missing its argument"):
        a.play()
    with pytest.raises(TypeError, match="not both"):
        a.play(move="a", mv="a")
