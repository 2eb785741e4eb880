"""The data set ``pasang-selfplay-v1``: seeded engine games over all 24
rule sets, every position with the teacher's policy and value, the move
played, the game's result and the rule set, written as Parquet shards
(docs/rl.md, "A data set"; the card is python/data/pasang-selfplay-v1/
README.md)::

    python python/scripts/selfplay_dataset.py --out DIR [--games 240]
        [--nodes 1000] [--temperature 100] [--seed 1] [--threads 1]
        [--rows-per-shard 500000] [--engine PATH] [--keep-source]

It runs ``pasang datagen --policy T`` (each game's rule set and four
random opening plies drawn from the seed, then the engine's teacher
search, ``pasang::rl::teacher::teach``, at every position: the search of
``pasang.rl.teach``) into ``DIR/datagen.txt`` and converts it to
``DIR/data/train-0000K-of-0000N.parquet`` (pyarrow), then deletes the
text unless ``--keep-source``. The same arguments give the same rows. Columns, one row a position:

- ``position`` (string): the position string (PROTOCOL.md);
- ``pattern``, ``ka_entry``, ``second_column``, ``centre`` (string): the
  rules, as the protocol's values;
- ``ply`` (int16): plies played before it, the opening's included;
- ``move`` (int16): the action id of the move played (``pasang.rl``);
- ``result`` (int8): the game's result for the side to move, 1, 0 or -1;
- ``value`` (float32): the teacher's value in [-1, 1] for the side to
  move (+1/-1 at a proven result, else the WDL model's win minus loss);
- ``policy`` (list of struct ``action`` int16, ``probability`` float32):
  the teacher's distribution over the legal ids, sparse, heaviest first,
  four decimals (entries below 0.00005 left out).

Needs pyarrow (``pip install pyarrow``) and the engine binary (``--engine``,
or ``$PASANG``, or ``target/release/pasang``, or ``pasang`` on the PATH).
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time

import pasang
import pasang.rl as rl
from pasang.learn import _score as score_of_field

KEYS = ("pattern", "ka_entry", "second_column", "centre")
RESULTS = {"w": 1, "d": 0, "l": -1}


def engine_path(given):
    """The engine binary: ``given``, ``$PASANG``, the repository's build or
    the PATH's."""
    for path in (given, os.environ.get("PASANG"), os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "pasang")):
        if path and os.path.exists(path):
            return path
    found = shutil.which("pasang")
    if found is None:
        raise SystemExit("no pasang binary: pass --engine PATH (cargo build --release makes target/release/pasang)")
    return found


def rows_of(path):
    """The rows of a ``pasang datagen --policy`` file, one a position."""
    plies = 0
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\n")
            if line.startswith("# game "):
                # `# game <i> <4 rule words> plies <ply>...`: the records
                # follow the opening, one ply apart.
                plies = len(line.split(" plies", 1)[1].split())
                continue
            if not line or line.startswith("#"):
                continue
            fields = line.split(" | ")
            if len(fields) != 6:
                raise SystemExit("{}:{}: not a datagen line with a policy".format(path, number))
            position, rules, score, outcome, played, policy = fields
            rules = dict(zip(KEYS, rules.split()))
            board = pasang.Board(position, **rules)
            pairs = []
            for entry in policy.split():
                move, probability = entry.split(":")
                pairs.append({"action": board.action_of(board.parse_move(move)), "probability": float(probability)})
            internal = score_of_field(score)
            yield {
                "position": position,
                **rules,
                "ply": plies,
                "move": board.action_of(board.parse_move(played)),
                "result": RESULTS[outcome.split()[0]],
                "value": rl.value_of_score(internal),
                "policy": pairs,
            }
            plies += 1


def schema(pa):
    return pa.schema(
        [
            ("position", pa.string()),
            ("pattern", pa.string()),
            ("ka_entry", pa.string()),
            ("second_column", pa.string()),
            ("centre", pa.string()),
            ("ply", pa.int16()),
            ("move", pa.int16()),
            ("result", pa.int8()),
            ("value", pa.float32()),
            ("policy", pa.list_(pa.struct([("action", pa.int16()), ("probability", pa.float32())]))),
        ]
    )


def write_shards(rows, folder, rows_per_shard):
    """Parquet shards of ``rows`` under ``folder``: their paths."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = list(rows)
    count = max(1, -(-len(rows) // rows_per_shard))
    os.makedirs(folder, exist_ok=True)
    paths = []
    for index in range(count):
        chunk = rows[index * rows_per_shard : (index + 1) * rows_per_shard]
        table = pa.Table.from_pylist(chunk, schema=schema(pa))
        path = os.path.join(folder, "train-{:05d}-of-{:05d}.parquet".format(index, count))
        pq.write_table(table, path, compression="zstd")
        paths.append(path)
    return paths, len(rows)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the data set's folder (created; must not hold a datagen.txt)")
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--temperature", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rows-per-shard", type=int, default=500_000)
    parser.add_argument("--engine", help="the pasang binary")
    parser.add_argument("--keep-source", action="store_true", help="keep DIR/datagen.txt")
    args = parser.parse_args()
    engine = engine_path(args.engine)
    os.makedirs(args.out, exist_ok=True)
    text = os.path.join(args.out, "datagen.txt")
    start = time.perf_counter()
    subprocess.run(
        [
            engine, "datagen", "--out", text, "--games", str(args.games), "--nodes", str(args.nodes),
            "--policy", str(args.temperature), "--seed", str(args.seed), "--threads", str(args.threads),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    generated = time.perf_counter() - start
    paths, count = write_shards(rows_of(text), os.path.join(args.out, "data"), args.rows_per_shard)
    total = time.perf_counter() - start
    print("pasang-selfplay-v1: {} games, {} positions, {} shard(s); {:.1f} s ({:.1f} s of engine games)".format(
        args.games, count, len(paths), total, generated))
    with open(text) as handle:
        print("header: {}".format(handle.readline().strip()))
    for path in paths:
        print("{}  {}  {} bytes".format(sha256(path), os.path.relpath(path, args.out), os.path.getsize(path)))
    print("datagen.txt: {} bytes (the source; not part of the set)".format(os.path.getsize(text)))
    if not args.keep_source:
        os.remove(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
