"""sowing.tables: the same files as `sow tables build`, the same values as `sow tables probe`."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

import sowing
import sowing.tables

CASES = [
    (dict(game="hoyito-ii"), 8, []),
    (dict(game="hoyito-iii", final_four="north"), 6, ["--final-four", "north"]),
    (dict(game="ayoayo"), 7, []),
]


def endgame_positions(rules: dict, max_seeds: int, count: int) -> list[str]:
    """Random positions with 1 to `max_seeds` seeds on the board (random games seldom reach
    them: in Hoyito the seeds leave the board four at a time)."""
    rng = random.Random(5)
    options = {k: v for k, v in rules.items() if k not in ("game", "pits")}
    found: list[str] = []
    while len(found) < count:
        pits = [0] * 12
        for _ in range(rng.randint(1, max_seeds)):
            pits[rng.randrange(12)] += 1
        south = rng.randint(0, 48 - sum(pits))
        state = {"game": rules["game"], "pits_per_row": 6, "pits": pits,
                 "captured": [south, 48 - sum(pits) - south],
                 "to_move": rng.choice(["south", "north"]), "over": False, "winner": None,
                 "last_sower": rng.choice([None, "south", "north"])}
        game = sowing.Game.from_state(state, **options)
        if not game.is_over and game.position_text not in found:
            found.append(game.position_text)
    return found


@pytest.mark.parametrize("rules, max_seeds, flags", CASES)
def test_build_and_probe_agree_with_sow_tables(rules, max_seeds, flags, sow, tmp_path):
    ours, theirs = tmp_path / "python", tmp_path / "sow"
    # Every layer: the positions probed below have any number of seeds.
    report = sowing.tables.build(max_seeds=max_seeds, dir=ours, threads=2, layers="all", **rules)
    assert report["built"] == list(range(1, max_seeds + 1)) and report["positions"] > 0
    subprocess.run([sow, "tables", "build", "--game", rules["game"], *flags,
                    "--max-seeds", str(max_seeds), "--layers", "all", "--dir", str(theirs)],
                   check=True, capture_output=True)
    files = sorted(p.relative_to(ours) for p in ours.rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(theirs) for p in theirs.rglob("*") if p.is_file())
    for name in files:
        assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name

    tables = sowing.tables.open_tables(dir=ours, **rules)
    assert tables.max_seeds == max_seeds
    for text in endgame_positions(rules, max_seeds, 25):
        probe = sowing.tables.probe(text, dir=ours)
        done = subprocess.run([sow, "tables", "probe", "--dir", str(theirs), text],
                              check=True, capture_output=True, text=True)
        expected = json.loads(done.stdout)
        assert probe.value == expected["value"] == tables.value(text)
        assert probe.moves == {m["move"]: m["value"] for m in expected["moves"]}
        assert list(probe.moves) == sowing.Game.from_text(text).legal_moves()
        assert probe.best and all(probe.moves[m] == probe.value for m in probe.best)
        assert tables.probe(sowing.Game.from_text(text)).value == probe.value


@pytest.mark.parametrize("rules, max_seeds, flags", CASES)
def test_compressed_tables_answer_as_the_raw_ones(rules, max_seeds, flags, sow, tmp_path):
    raw, packed = tmp_path / "raw", tmp_path / "packed"
    for where in (raw, packed):
        sowing.tables.build(max_seeds=max_seeds, dir=where, threads=2, layers="all", **rules)
    subprocess.run([sow, "tables", "compress", "--dir", str(packed), "--block-positions", "64"],
                   check=True, capture_output=True)
    assert not list(packed.rglob("*.sowt"))
    assert len(list(packed.rglob("*.sowz"))) == max_seeds
    plain, small = (sowing.tables.open_tables(dir=d, **rules) for d in (raw, packed))
    for text in endgame_positions(rules, max_seeds, 25):
        ours, theirs = sowing.tables.probe(text, dir=packed), sowing.tables.probe(text, dir=raw)
        assert (ours.value, ours.moves, ours.best) == (theirs.value, theirs.moves, theirs.best)
        assert small.value(text) == plain.value(text)

    layer = sorted(packed.rglob("*.sowz"))[-1]
    data = bytearray(layer.read_bytes())
    data[len(data) // 2] ^= 0xFF
    layer.write_bytes(bytes(data))
    with pytest.raises(sowing.TablesError, match=layer.name):
        options = {k: v for k, v in rules.items() if k != "game"}
        sowing.tables.Tables(rules["game"], dir=packed, **options)


def test_a_rebuild_reuses_the_layers(tmp_path):
    sowing.tables.build(max_seeds=4, dir=tmp_path, layers="all")
    again = sowing.tables.build(max_seeds=5, dir=tmp_path, layers="all")
    assert again["reused"] == [1, 2, 3, 4] and again["built"] == [5]


def test_only_the_layers_play_reaches_by_default(sow, tmp_path):
    # In Hoyito every capture takes a multiple of 4 seeds: the layers 4 and 8 to 9 seeds.
    report = sowing.tables.build("hoyito-ii", max_seeds=9, dir=tmp_path)
    assert report["built"] == [4, 8]
    assert sowing._sowing.tables_plan("hoyito-ii", max_seeds=9) == [4, 8]
    assert sowing._sowing.tables_plan("hoyito-ii", max_seeds=0, extra=[13]) == [1, 5, 9, 13]
    assert sowing._sowing.tables_plan("ayoayo", max_seeds=3) == [1, 2, 3]
    tables = sowing.tables.Tables("hoyito-ii", dir=tmp_path)
    assert tables.layers == [4, 8] and tables.max_seeds == 8
    five = "hoyito-ii 1,1,1,1,1,0/0,0,0,0,0,0 20-23 S -"
    with pytest.raises(sowing.TablesError, match="layer 5 of the tables .* is not built"):
        tables.value(five)
    with pytest.raises(sowing.TablesError, match="not built"):
        tables.expand(9, 0, 10)  # needs layers 5 and 1
    # Added on request, with the layer below it that its captures reach.
    assert sowing.tables.build("hoyito-ii", max_seeds=0, dir=tmp_path, extra=[5])["built"] == [1, 5]
    done = subprocess.run([sow, "tables", "probe", "--dir", str(tmp_path), five],
                          check=True, capture_output=True, text=True)
    assert sowing.tables.probe(five, dir=tmp_path).value == json.loads(done.stdout)["value"]
    with pytest.raises(ValueError, match="reachable"):
        sowing.tables.build("hoyito-ii", max_seeds=4, dir=tmp_path, layers="some")


def test_beyond_the_tables_and_bad_input(tmp_path):
    sowing.tables.build(max_seeds=3, dir=tmp_path, layers="all")
    with pytest.raises(sowing.TablesError, match="beyond the tables"):
        sowing.tables.probe("hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -", dir=tmp_path)
    with pytest.raises(sowing.ParseError):
        sowing.tables.probe("hoyito-ii 4,4 0-0 S -", dir=tmp_path)
    empty = sowing.tables.Tables("ayoayo", dir=tmp_path / "none")
    assert empty.max_seeds == 0
    with pytest.raises(sowing.TablesError):
        empty.value("ayoayo 0,0,0,0,0,1/1,0,0,0,0,0 23-23 S -")
    with pytest.raises(sowing.TablesError, match="at most"):
        sowing.tables.build(max_seeds=10_000, dir=tmp_path)
    with pytest.raises(sowing.RulesError):
        sowing.tables.Tables("chess", dir=tmp_path)


def test_a_corrupt_file_is_refused(tmp_path):
    sowing.tables.build(max_seeds=3, dir=tmp_path, layers="all")
    layer = sorted(p for p in tmp_path.rglob("*") if p.is_file())[-1]
    data = bytearray(layer.read_bytes())
    data[-1] ^= 0xFF
    layer.write_bytes(bytes(data))
    with pytest.raises(sowing.TablesError):
        sowing.tables.Tables(dir=tmp_path)


def test_the_default_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("SOWING_TABLES", str(tmp_path))
    assert sowing.tables.default_dir() == str(tmp_path)
    assert sowing.tables.default_dir("elsewhere") == "elsewhere"
    monkeypatch.delenv("SOWING_TABLES")
    assert Path(sowing.tables.default_dir()).parts[-2:] == ("sowing", "tables")
