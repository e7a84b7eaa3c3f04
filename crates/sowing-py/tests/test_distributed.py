"""`python -m sowing.distributed` on a local Ray cluster started here: `match` gives the
same report and records as `sow match`, `tables build` the same files as `sow tables build`."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway local cluster
import ray  # noqa: E402

from sowing import distributed  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


MATCHES = [
    ["--p1", "level:2", "--p2", "greedy", "--games", "6", "--nodes", "2000", "--seed", "3"],
    ["--game", "ayoayo", "--p1", "level:1", "--p2", "random", "--games", "4", "--nodes", "500"],
    ["--game", "hoyito-iii", "--p1", "greedy", "--p2", "level:1", "--games", "2",
     "--rounds", "2", "--nodes", "500", "--balance", "any"],
    ["--game", "hoyito-ii", "--pits", "12", "--p1", "greedy", "--p2", "random", "--games", "2",
     "--depth", "1", "--opening-plies", "2"],
]


@pytest.mark.parametrize("arguments", MATCHES)
def test_same_report_and_records_as_sow_match(arguments, sow, tmp_path, capsys, monkeypatch):
    ours, theirs = tmp_path / "ray", tmp_path / "sow"
    ours.mkdir()
    theirs.mkdir()
    monkeypatch.chdir(ours)
    assert distributed.main(["match", *arguments, "--out", "records"]) == 0
    report = capsys.readouterr().out
    expected = subprocess.run(
        [sow, "match", *arguments, "--out", "records", "--quiet"],
        cwd=theirs, capture_output=True, text=True, check=True,
    ).stdout
    assert report == expected
    names = sorted(p.name for p in (theirs / "records").iterdir())
    assert names and names == sorted(p.name for p in (ours / "records").iterdir())
    for name in names:
        assert (ours / "records" / name).read_text() == (theirs / "records" / name).read_text()


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--p1", "chess", "--p2", "random"], "--p1: "),
        (["--p1", "random", "--p2", "engine:sow engine"], "external engines"),
        (["--p1", "random", "--p2", "random", "--game", "ayoayo", "--casa-rows", "any"],
         "casa-rows is not an option of ayoayo"),
        (["--p1", "random", "--p2", "random", "--rounds", "2"], "--rounds plays Hoyito III"),
        (["--p1", "random", "--p2", "random", "--balance", "lots"], "--balance"),
    ],
)
def test_bad_arguments(arguments, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert distributed.main(["match", *arguments, "--games", "2"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags, max_seeds, layers",
    [(["--game", "hoyito-ii"], 9, [4, 8]),  # by default the layers play reaches
     (["--game", "hoyito-iii", "--final-four", "north", "--layers", "all"], 8, range(1, 9)),
     (["--game", "hoyito-iii", "--layer", "6"], 4, [2, 4, 6]),
     (["--game", "ayoayo"], 7, range(1, 8))],
)
def test_tables_build_writes_the_files_of_sow_tables_build(flags, max_seeds, layers, sow,
                                                            tmp_path, capsys):
    ours, theirs = tmp_path / "ray", tmp_path / "sow"
    arguments = ["tables", "build", *flags, "--max-seeds", str(max_seeds), "--ranges", "5",
                 "--dir", str(ours)]
    assert distributed.main(arguments) == 0
    printed = capsys.readouterr().out
    assert f"layer {list(layers)[-1]}: " in printed and "5 tasks" in printed
    subprocess.run([sow, "tables", "build", *flags, "--max-seeds", str(max_seeds),
                    "--dir", str(theirs)], check=True, capture_output=True)
    files = sorted(p.relative_to(ours) for p in ours.rglob("*") if p.is_file())
    assert [int(p.stem.split("-")[1]) for p in files] == list(layers)
    assert files == sorted(p.relative_to(theirs) for p in theirs.rglob("*") if p.is_file())
    for name in files:
        assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name
    # A second run keeps every layer.
    assert distributed.main(arguments) == 0
    assert capsys.readouterr().out.count("on disk, checked and kept") == len(files)


@pytest.mark.parametrize(
    "flags, max_seeds, shards, moves",
    [(["--game", "hoyito-iii"], 12, 3, "scratch"),
     (["--game", "hoyito-ii", "--layers", "all"], 7, 2, "memory"),
     (["--game", "ayoayo", "--leftover", "holder"], 6, 1, "default")],
)
def test_split_solve_writes_the_files_of_sow_tables_build(flags, max_seeds, shards, moves, sow,
                                                          tmp_path, capsys):
    """The shards keep their moves in a given scratch directory (emptied after), in
    memory, or in the workers' temporary directory."""
    ours, theirs, stats = tmp_path / "ray", tmp_path / "sow", tmp_path / "stats.jsonl"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    where = {"scratch": ["--shard-scratch", str(scratch)],
             "memory": ["--shard-moves-in-memory"], "default": []}[moves]
    arguments = ["tables", "build", *flags, "--max-seeds", str(max_seeds), "--shards",
                 str(shards), "--stats", str(stats), "--dir", str(ours), *where]
    assert distributed.main(arguments) == 0
    assert list(scratch.iterdir()) == []
    printed = capsys.readouterr().out
    assert f"layer {max_seeds}: " in printed and f"{shards} shards" in printed
    subprocess.run([sow, "tables", "build", *flags, "--max-seeds", str(max_seeds),
                    "--dir", str(theirs)], check=True, capture_output=True)
    files = sorted(p.relative_to(theirs) for p in theirs.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(ours) for p in ours.rglob("*") if p.is_file())
    for name in files:
        assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name
    layers = [json.loads(line) for line in stats.read_text().splitlines()]
    assert [layer["seeds"] for layer in layers] == [int(p.stem.split("-")[1]) for p in files]
    top = layers[-1]
    assert top["rounds"] and top["shards"] == shards
    # Messages travel between shards only when there are several.
    assert (sum(messages for messages, _ in top["rounds"]) > 0) == (shards > 1)
    assert len(top["shard_peaks"]) == shards
