#!/usr/bin/env python3
"""The memory figure of `sow serve`: creates GAMES games through the API and plays MOVES
random legal moves in each (8 clients at once, loopback only), then prints the server's
resident memory (VmRSS, and its peak VmHWM, from /proc).

    sow serve --addr 127.0.0.1:8099 --db /tmp/mem.db --no-limits &
    scripts/web-memory.py --url http://127.0.0.1:8099 --pid $! --games 10000 --moves 4

Standard library only. It stops by itself after GAMES games.
"""

import argparse
import http.client
import json
import random
import sys
import threading
import time
import urllib.parse


def rss(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return fields["VmRSS"], fields["VmHWM"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the server, http://127.0.0.1:PORT")
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("web-memory: only loopback servers")

    variants = ["hoyito-ii", "hoyito-iii", "ayoayo"]
    counter = iter(range(args.games))
    lock = threading.Lock()
    errors = []
    moves = [0]

    def client(number):
        rng = random.Random(args.seed * 1000 + number)
        conn = http.client.HTTPConnection(url.hostname, url.port)

        # Each client's games are its own (docs/api.md, "Owners").
        key = f"{rng.getrandbits(128):032x}"

        def call(method, path, body):
            headers = {"Content-Type": "application/json", "X-Player-Key": key}
            conn.request(method, path, json.dumps(body), headers)
            response = conn.getresponse()
            return response.status, json.loads(response.read())

        while True:
            with lock:
                index = next(counter, None)
            if index is None:
                return
            status, view = call("POST", "/api/games", {"game": variants[index % 3]})
            if status != 201:
                errors.append(f"create: {status} {view}")
                continue
            state, ply = view["state"], 0
            while ply < args.moves and not state["over"]:
                move = rng.choice(state["legal"])
                status, answer = call(
                    "POST", f"/api/games/{view['id']}/moves?brief=true", {"move": move, "ply": ply}
                )
                if status != 200:
                    errors.append(f"game {view['id']} move {move}: {status} {answer}")
                    break
                state, ply = answer["state"], ply + 1
                with lock:
                    moves[0] += 1

    print(f"web-memory: before: VmRSS {rss(args.pid)[0]}")
    start = time.time()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    now, peak = rss(args.pid)
    print(
        f"web-memory: {args.games} games, {moves[0]} moves in {time.time() - start:.0f} s, "
        f"{len(errors)} errors; server VmRSS {now}, peak VmHWM {peak}"
    )
    for error in errors[:5]:
        print(f"web-memory: error: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
