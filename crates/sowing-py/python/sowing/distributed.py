"""Work spread over a Ray cluster: ``python -m sowing.distributed match …``.

``match`` plays a ``sow match`` with every game a Ray task, and prints the same report and
writes the same records as ``sow match`` with the same arguments (built-in players only:
``random``, ``greedy``, ``level:N``, ``search[:…]``, ``mcts[:…]``)::

    python -m sowing.distributed match --p1 level:4 --p2 greedy --games 200 --nodes 20000

The openings are drawn where the command runs, exactly as ``sow match`` draws them; each
game is then one task, seeded as ``sow match`` seeds it, so the games do not depend on
which machine plays them. With a time limit (``--movetime``, the default when no limit is
given) the games depend on each machine's speed, as they do with ``sow match --threads``.

Which cluster: ``--address`` (or the ``RAY_ADDRESS`` environment variable) names a running
one — ``auto`` for the cluster this machine belongs to (``ray start --head`` on one
machine, ``ray start --address HEAD:6379`` on the others), or ``ray://HEAD:10001`` for a
remote one through Ray Client; the package must be installed on every node
(``pip install ./crates/sowing-py``). Without either, a local cluster of ``--num-cpus``
workers (default: every core) is started for the run and stopped after it. A program that
has already called ``ray.init`` uses its cluster.

``tables build`` builds the endgame tables as ``sow tables build`` does — the same files,
byte for byte — with each layer split into rank ranges expanded as Ray tasks over the
layers below it (the costly step); the command solves each layer from its ranges and
writes its file before the next layer starts::

    python -m sowing.distributed tables build --game hoyito-iii --max-seeds 20 --dir /shared/tables

The workers read the lower layers from ``--dir``, so on a cluster of several machines it
must be a directory they all see (a network file system) at the same path.

With ``--split-solve`` (or ``--shards N``) no process holds a whole layer: N Ray actors
(default: one a CPU of the cluster), each a shard owning a rank range of the layer, take
from the expansion tasks the moves that lead into their range, reversed; then each
threshold runs in rounds, each a barrier, in which every shard applies the batches of
messages the others sent it in the round before ("this predecessor of yours wins", "one
of its moves is refuted") and sends the next; the driver passes the batches on by
reference and writes the file from the shards' ranges — the same bytes again::

    python -m sowing.distributed tables build --game hoyito-iii --max-seeds 24 --shards 4 --dir D
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from . import _common, _sowing


def _rules(args: argparse.Namespace) -> tuple[Any, ...]:
    """The rules of the command line: ``(game, pits, options)``, the rule options given
    as a dict by keyword (what the native functions take)."""
    given = {name: getattr(args, name) for name in _common.rule_options()}
    return (args.game, args.pits, _common.game_options(given))


def _options(rules: tuple[Any, ...]) -> dict[str, str]:
    """The rule options of ``rules`` (as ``_rules`` gives them), as keyword arguments."""
    return dict(rules[2])


def _play(rules: tuple[Any, ...], game: dict[str, Any]) -> tuple[float, int, Optional[str], list[str]]:
    """One game of the match (a Ray task)."""
    return _sowing.match_game(rules, **game)


def match(args: argparse.Namespace, out: Any = None) -> None:
    """Plays the match of ``args`` on the Ray cluster and prints the report to ``out``
    (standard output by default)."""
    import ray

    rules = _rules(args)
    for flag, name in (("--p1", args.p1), ("--p2", args.p2)):
        if name.startswith("engine:"):
            raise _sowing.SowingError(f"{flag}: external engines play only in sow match")
        try:
            _sowing.match_player(name)
        except _sowing.SowingError as error:
            raise _sowing.SowingError(f"{flag}: {error}") from None
    _sowing.Game(args.game, args.pits, **_options(rules))
    pairs = max(1, (args.games + 1) // 2)
    openings = _sowing.match_openings(
        rules, args.opening_plies, args.balance, args.seed, pairs
    )
    with _cluster(args):
        task = ray.remote(_play)
        shared = ray.put(rules)
        refs = [
            task.remote(
                shared,
                dict(
                    rounds=args.rounds,
                    opening=openings["moves"][index // 2],
                    p1=args.p1,
                    p2=args.p2,
                    p1_south=index % 2 == 0,
                    seed=(args.seed * 1_000_003 + index) % (1 << 64),
                    index=index,
                    movetime=args.movetime,
                    nodes=args.nodes,
                    depth=args.depth,
                ),
            )
            for index in range(2 * pairs)
        ]
        results = ray.get(refs)
    directory = Path(args.out)
    directory.mkdir(parents=True, exist_ok=True)
    for index, (_, _, fault, records) in enumerate(results):
        for round_index, record in enumerate(records):
            if args.rounds is None:
                name = f"game-{index + 1:04}.txt"
            else:
                name = f"game-{index + 1:04}-round-{round_index + 1}.txt"
            (directory / name).write_text(record)
        if fault is not None:
            print(f"game {index + 1}: {fault}; scored as lost for it", file=sys.stderr)
    report = _sowing.match_report(
        rules,
        args.p1,
        args.p2,
        args.rounds,
        openings,
        [(score, plies, fault) for score, plies, fault, _ in results],
        args.out,
    )
    (out or sys.stdout).write(report)


_lower: dict[tuple[Any, ...], Any] = {}


def _lower_tables(rules: tuple[Any, ...], directory: str, seeds: int) -> Any:
    """The layers below ``seeds``, kept open by the worker between the tasks of a layer."""
    key = (rules[0], rules[1], tuple(sorted(rules[2].items())), directory, seeds - 1)
    tables = _lower.get(key)
    if tables is None:
        _lower.clear()
        tables = _lower[key] = _sowing.Tables(
            rules[0], rules[1], dir=directory, max_seeds=seeds - 1, **_options(rules))
    return tables


def _expand(rules: tuple[Any, ...], directory: str, seeds: int, start: int, end: int) -> tuple[bytes, bytes, bytes]:
    """Expands positions ``start .. end`` of layer ``seeds`` (a Ray task)."""
    return _lower_tables(rules, directory, seeds).expand(seeds, start, end)


def _usage() -> tuple[str, int, float]:
    """This worker process (host and process id), its peak resident memory in bytes
    (``VmHWM``; 0 where Linux's /proc is missing) and its CPU time so far (user and
    system, seconds)."""
    import resource
    import socket

    peak = 0
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) * 1024
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return f"{socket.gethostname()}:{os.getpid()}", peak, usage.ru_utime + usage.ru_stime


def _expand_to_shards(rules: tuple[Any, ...], directory: str, seeds: int, start: int, end: int,
                      bounds: list[int], shards: list[Any]) -> tuple[str, int, float]:
    """Expands positions ``start .. end`` of layer ``seeds`` and sends each shard its part
    (a Ray task); returns once every shard has it, with the worker's ``_usage``."""
    import ray

    parts = _lower_tables(rules, directory, seeds).expand_parts(seeds, start, end, bounds)
    ray.get([shard.receive.remote(part) for shard, part in zip(shards, parts) if part])
    return _usage()


class _ShardActor:
    """One shard of a layer's split solve (a Ray actor): the layer's rank range
    ``bounds[index] .. bounds[index + 1]``, its positions' values and counters and the
    predecessor rows of its positions (``sowing.TablesShard``). ``begin`` and ``step``
    return one batch of messages a shard and, last, this shard's tally ``(messages, bytes,
    pending)``: ``shards + 1`` values, which the driver passes on by reference."""

    def __init__(self, memory: Optional[int] = None, scratch: Optional[str] = "") -> None:
        """``memory``: a cap in bytes on this worker's private memory (``RLIMIT_DATA``: its
        heap and anonymous mappings, not the object store's shared pages), so that a shard
        that needs more fails at once rather than crowd the machine. ``scratch``: the
        directory where the shard keeps its moves in until sealed (8 bytes a move on disk,
        so that its memory holds 4 at the seal, not 8): "" for this worker's temporary
        directory, None to keep them in memory."""
        import tempfile

        self.shard: Any = None
        self.scratch = tempfile.gettempdir() if scratch == "" else scratch
        if memory is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))

    def open(self, bounds: list[int], index: int) -> None:
        self.shard = _sowing.TablesShard(bounds, index, scratch=self.scratch)

    def receive(self, part: bytes) -> None:
        self.shard.receive(part)

    def seal(self) -> int:
        return self.shard.seal()

    def begin(self, threshold: int) -> tuple[Any, ...]:
        return self._outbox(self.shard.begin(threshold))

    def step(self, *inbox: bytes) -> tuple[Any, ...]:
        return self._outbox(self.shard.step(list(inbox)))

    def _outbox(self, batches: list[bytes]) -> tuple[Any, ...]:
        messages = sum((len(b) - 4) // 4 for b in batches if b)
        return (*batches, (messages, sum(len(b) for b in batches), self.shard.pending))

    def values(self) -> tuple[bytes, tuple[str, int, float]]:
        """The range's values (the shard is then dropped) and this worker's ``_usage``."""
        values = self.shard.values()
        self.shard = None
        return values, _usage()


def _even_bounds(count: int, shards: int) -> list[int]:
    """``shards`` ranges of about equal length over ``count`` positions (as the tables
    crate's ``split::even_bounds``)."""
    return [count * k // shards for k in range(shards + 1)]


def _split_solve(rules: tuple[Any, ...], directory: str, seeds: int, count: int,
                 actors: list[Any], ranges: int) -> dict[str, Any]:
    """Builds layer ``seeds`` with its solve split across ``actors``: the expansion's
    ranges as tasks that send each move to its child's owner, then every threshold in
    rounds, each a barrier: every shard applies the batches sent to it in the round before
    and sends the next. Writes the layer's file; returns its figures."""
    import ray

    n = len(actors)
    bounds = _even_bounds(count, n)
    ray.get([actor.open.remote(bounds, k) for k, actor in enumerate(actors)])
    started_at = time.perf_counter()
    task = ray.remote(_expand_to_shards)
    cuts = [count * k // ranges for k in range(ranges + 1)]
    spans = [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]
    expansion = ray.get([task.remote(rules, directory, seeds, a, b, bounds, actors)
                         for a, b in spans])
    top = max(ray.get([actor.seal.remote() for actor in actors]))
    expanded_at = time.perf_counter()
    rounds: list[tuple[int, int]] = []  # (messages, bytes) between shards, a round
    for threshold in range(top, 0, -1):
        mail = [actor.begin.options(num_returns=n + 1).remote(threshold) for actor in actors]
        while True:
            tallies = ray.get([out[n] for out in mail])
            messages, size = sum(t[0] for t in tallies), sum(t[1] for t in tallies)
            if messages == 0 and not any(t[2] for t in tallies):
                break
            rounds.append((messages, size))
            mail = [actors[to].step.options(num_returns=n + 1).remote(*[out[to] for out in mail])
                    for to in range(n)]
    results = ray.get([actor.values.remote() for actor in actors])
    path = _sowing.tables_write_layer(rules, seeds, [values for values, _ in results], directory)
    # Each worker's peak memory and CPU time so far, by process (a task's worker runs many).
    workers = {name: ("expansion", peak, cpu) for name, peak, cpu in expansion}
    workers.update({name: ("shard", peak, cpu) for _, (name, peak, cpu) in results})
    return dict(path=path, tasks=len(spans), rounds=rounds,
                expand_seconds=expanded_at - started_at,
                solve_seconds=time.perf_counter() - expanded_at,
                shard_peaks=[peak for _, (_, peak, _) in results],
                expansion_peak=max(peak for _, peak, _ in expansion), workers=workers)


@contextlib.contextmanager
def _cluster(args: argparse.Namespace) -> Iterator[None]:
    """Inside: joined to the cluster of ``--address``/``$RAY_ADDRESS``, or to a local one
    started for the block and stopped after it (a program that called ``ray.init`` keeps
    its own)."""
    import ray

    if ray.is_initialized():
        yield
        return
    address = args.address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def tables_build(args: argparse.Namespace, out: Any = None) -> None:
    """Builds the tables of ``args`` on the Ray cluster, layer by layer."""
    import ray

    out = out or sys.stdout
    rules = _rules(args)
    options = _options(rules)
    directory = str(_sowing.tables_dir(args.dir))
    if args.shards is not None and args.shards < 1:
        raise _sowing.SowingError(f"--shards {args.shards}: at least one shard")
    with _cluster(args):
        task = ray.remote(_expand)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        ranges = args.ranges or 4 * cpus
        actors = []
        workers: dict[str, tuple[str, int, float]] = {}  # by process: role, peak, CPU so far
        if args.split_solve or args.shards:
            shard = ray.remote(_ShardActor).options(scheduling_strategy="SPREAD")
            memory = None if args.shard_memory is None else int(args.shard_memory * (1 << 30))
            scratch = None if args.shard_moves_in_memory else args.shard_scratch
            actors = [shard.remote(memory, scratch) for _ in range(args.shards or cpus)]
        plan = _sowing.tables_plan(args.game, args.pits, max_seeds=args.max_seeds,
                                   layers=args.layers, extra=args.layer or [], **options)
        for seeds in plan:
            present = _sowing.Tables(args.game, args.pits, dir=directory, max_seeds=seeds, **options)
            if seeds in present.layers:
                print(f"layer {seeds}: on disk, checked and kept", file=out)
                continue
            count = present.layer_len(seeds)
            if actors:
                # By default ranges of at most 2**21 positions: each task's parts (8 bytes
                # a move) stay small while they wait for their shards.
                spans = args.ranges or max(ranges, -(-count // (1 << 21)))
                figures = _split_solve(rules, directory, seeds, count, actors, spans)
                _print_split(seeds, count, len(actors), figures, out)
                workers.update(figures.pop("workers"))
                if args.stats:
                    with open(args.stats, "a") as stats:
                        stats.write(json.dumps(dict(seeds=seeds, positions=count,
                                                    shards=len(actors),
                                                    **{k: v for k, v in figures.items()
                                                       if k != "path"})) + "\n")
                continue
            bounds = [count * k // ranges for k in range(ranges + 1)]
            spans = [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a] or [(0, 0)]
            started_at = time.perf_counter()
            refs = [task.remote(rules, directory, seeds, a, b) for a, b in spans]
            parts = [(a, *ray.get(ref)) for (a, _), ref in zip(spans, refs)]
            path = _sowing.tables_solve(rules, seeds, parts, directory)
            seconds = time.perf_counter() - started_at
            print(f"layer {seeds}: {count:,} positions in {len(spans)} tasks, "
                  f"{seconds:.1f} s: {path}", file=out, flush=True)
        if workers:
            _print_workers(workers, out)


def _print_workers(workers: dict[str, tuple[str, int, float]], out: Any) -> None:
    """The peak memory and CPU time of the processes of a split build, by role."""
    gib = 1 << 30
    _, driver_peak, driver_cpu = _usage()
    for role in ("shard", "expansion"):
        mine = [(peak, cpu) for r, peak, cpu in workers.values() if r == role]
        peaks = ", ".join(f"{peak / gib:.2f}" for peak, _ in mine)
        print(f"{len(mine)} {role} workers: peak RSS {peaks} GiB, CPU "
              f"{sum(cpu for _, cpu in mine):.1f} s", file=out)
    print(f"driver: peak RSS {driver_peak / gib:.2f} GiB, CPU {driver_cpu:.1f} s", file=out,
          flush=True)


def _print_split(seeds: int, count: int, shards: int, figures: dict[str, Any], out: Any) -> None:
    """The line of a layer built with its solve split across shards."""
    rounds = figures["rounds"]
    messages, size = sum(r[0] for r in rounds), sum(r[1] for r in rounds)
    busiest = max((r[1] for r in rounds), default=0)
    gib = 1 << 30
    peaks = ", ".join(f"{p / gib:.2f}" for p in figures["shard_peaks"])
    print(f"layer {seeds}: {count:,} positions in {figures['tasks']} tasks and {shards} shards, "
          f"{len(rounds)} rounds, {messages:,} messages between shards ({size / 1e6:.1f} MB, "
          f"at most {busiest / 1e6:.1f} MB a round); expanded in "
          f"{figures['expand_seconds']:.1f} s, solved in {figures['solve_seconds']:.1f} s; "
          f"peak RSS of the shards {peaks} GiB, of the expansion workers "
          f"{figures['expansion_peak'] / gib:.2f} GiB: {figures['path']}", file=out, flush=True)


def _game_arguments(command: argparse.ArgumentParser) -> None:
    """The game and its options, as ``sow`` names them."""
    command.add_argument("--game", default="hoyito-ii", help="hoyito-ii, hoyito-iii or ayoayo")
    command.add_argument("--pits", type=int, default=6,
                         help="pits per row: 6, or 12 for Hoyito II")
    for name, option in _common.rule_options().items():
        command.add_argument(
            option["flag"], dest=name, choices=option["values"],
            help=f"{option['description']} ({option['rule']}; {', '.join(option['games'])})",
        )


def _cluster_arguments(command: argparse.ArgumentParser) -> None:
    """Which Ray cluster (``_cluster``)."""
    command.add_argument("--address",
                         help="the Ray cluster (default: $RAY_ADDRESS, else local)")
    command.add_argument("--num-cpus", type=int,
                         help="workers of a local cluster (default: every core)")


def parser() -> argparse.ArgumentParser:
    """The command line: ``match`` with the arguments of ``sow match``."""
    top = argparse.ArgumentParser(
        prog="python -m sowing.distributed",
        description="Work spread over a Ray cluster.",
    )
    commands = top.add_subparsers(dest="command", required=True)
    m = commands.add_parser(
        "match",
        help="a sow match with every game a Ray task; the same report",
        description="Play a match between two players on a Ray cluster and report the score "
        "and Elo difference, as sow match does.",
    )
    _game_arguments(m)
    m.add_argument("--p1", required=True, help="the first player")
    m.add_argument("--p2", required=True, help="the second player")
    m.add_argument("--games", type=int, default=100, help="games (rounded up to an even number)")
    m.add_argument("--movetime", type=int, help="milliseconds a move (default "
                   f"{_sowing.MATCH_MOVETIME_MS} with no limit)")
    m.add_argument("--nodes", type=int, help="nodes a move")
    m.add_argument("--depth", type=int, help="depth a move")
    m.add_argument("--opening-plies", type=int, help="random plies of each pair's opening")
    m.add_argument("--balance", help="keep openings within this many seeds of even, or any")
    m.add_argument("--rounds", type=int, help="Hoyito III: each game a match of R rounds")
    m.add_argument("--seed", type=int, default=1, help="seed of the openings and players")
    m.add_argument("--out", default="match-records", help="directory for the game records")
    _cluster_arguments(m)

    t = commands.add_parser("tables", help="endgame tables on a Ray cluster")
    tables_commands = t.add_subparsers(dest="tables_command", required=True)
    b = tables_commands.add_parser(
        "build",
        help="build the tables as sow tables build does, each layer's expansion as Ray tasks",
        description="Build the endgame tables of one game up to a number of seeds on the board: "
        "the files of sow tables build. Layers on disk are checked and kept.",
    )
    _game_arguments(b)
    b.add_argument("--max-seeds", type=int, required=True, help="the largest layer to build")
    b.add_argument("--dir", help="the tables' directory (default: $SOWING_TABLES, else the "
                   "user's data directory); every worker must see it")
    b.add_argument("--layers", choices=["reachable", "all"], default="reachable",
                   help="the layers play from the start reaches (in Hoyito every fourth; the "
                   "default), or all")
    b.add_argument("--layer", type=int, action="append",
                   help="build this layer too, with the layers below it that it needs")
    b.add_argument("--ranges", type=int, help="tasks a layer (default: 4 a CPU of the cluster)")
    b.add_argument("--split-solve", action="store_true",
                   help="solve each layer split across Ray actors (shards), each owning a "
                   "rank range, so that no worker holds the whole layer")
    b.add_argument("--shards", type=int,
                   help="shards of --split-solve (implies it; default: the cluster's CPUs)")
    b.add_argument("--shard-memory", type=float, metavar="GIB",
                   help="with --split-solve: cap each shard's private memory (RLIMIT_DATA) "
                   "at this many GiB; a shard that needs more stops the build")
    b.add_argument("--shard-scratch", metavar="DIR", default="",
                   help="with --split-solve: where each shard keeps the moves into its range "
                   "until the solve (8 bytes a move, removed after; default: the worker's "
                   "temporary directory)")
    b.add_argument("--shard-moves-in-memory", action="store_true",
                   help="with --split-solve: keep each shard's moves in memory instead (8 "
                   "bytes a move at the peak rather than 4)")
    b.add_argument("--stats", help="with --split-solve: append each layer's figures (the "
                   "messages and bytes of every round, peak memory) to this file, a JSON "
                   "object a line")
    _cluster_arguments(b)
    return top


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "tables":
        try:
            tables_build(args)
        except _sowing.SowingError as error:
            print(f"python -m sowing.distributed: {error}", file=sys.stderr)
            return 2
        return 0
    if args.rounds is not None and args.game != "hoyito-iii":
        print("--rounds plays Hoyito III matches (H3.3): add --game hoyito-iii", file=sys.stderr)
        return 2
    try:
        match(args)
    except _sowing.SowingError as error:
        print(f"python -m sowing.distributed: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
