"""Driving an engine process that speaks the protocol (UCI or UGI), in the
manner of python-chess's ``chess.engine.SimpleEngine``::

    >>> import pasang, pasang.engine
    >>> with pasang.engine.SimpleEngine.popen("target/release/pasang") as engine:
    ...     result = engine.play(pasang.Board(), pasang.engine.Limit(time=0.1))
    ...     info = engine.analyse(pasang.Board(), pasang.engine.Limit(depth=6))
    >>> result.move in pasang.Board().legal_moves
    True

One blocking object owns one process: it sends typed commands
(``setoption``, ``position``, ``go`` built from a :class:`Limit`), parses
every ``info`` line into a dictionary once, waits with deadlines, keeps the
engine's stderr for diagnostics, and always reaps the process (``quit()``,
the ``with`` block, or garbage collection). A process that dies raises
:class:`EngineTerminatedError`; one that does not answer in time,
:class:`EngineTimeoutError`; a command the engine refuses
(``info string error: ...``), :class:`EngineError` with its message.
"""

import collections
import queue
import subprocess
import threading
import time as _time
import weakref
from typing import Any, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, TypedDict, Union, cast

from ._pasang import Board, InvalidMoveError, Move, rule_options

__all__ = [
    "SimpleEngine",
    "Limit",
    "InfoDict",
    "PlayResult",
    "Option",
    "Score",
    "Cp",
    "Mate",
    "PovScore",
    "Wdl",
    "PovWdl",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
]


class EngineError(RuntimeError):
    """The engine refused a command, or broke the protocol."""


class EngineTerminatedError(EngineError):
    """The engine process exited (or closed its output) unexpectedly."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time; the process is killed."""


class Limit:
    """When a search stops: ``time`` (seconds for this move), ``depth``
    (plies), ``nodes``, ``mate`` (a win in that many moves), or the clocks:
    ``south_clock``/``north_clock`` (seconds left) with
    ``south_inc``/``north_inc``. ``white_*``/``black_*`` are accepted as
    python-chess's names of South's and North's."""

    def __init__(
        self,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        mate: Optional[int] = None,
        south_clock: Optional[float] = None,
        north_clock: Optional[float] = None,
        south_inc: Optional[float] = None,
        north_inc: Optional[float] = None,
        white_clock: Optional[float] = None,
        black_clock: Optional[float] = None,
        white_inc: Optional[float] = None,
        black_inc: Optional[float] = None,
    ) -> None:
        self.time = time
        self.depth = depth
        self.nodes = nodes
        self.mate = mate
        self.south_clock = south_clock if south_clock is not None else white_clock
        self.north_clock = north_clock if north_clock is not None else black_clock
        self.south_inc = south_inc if south_inc is not None else white_inc
        self.north_inc = north_inc if north_inc is not None else black_inc

    def __repr__(self) -> str:
        fields = ", ".join(
            "{}={!r}".format(name, value) for name, value in vars(self).items() if value is not None
        )
        return "Limit({})".format(fields)


class Score:
    """A score from one player's point of view: :class:`Cp` (centipoints,
    100 = one point of the game's score) or :class:`Mate` (a forced end of
    the game in so many of that player's own moves)."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """The centipoints, or for a mate ``mate_score`` less the moves
        (None without ``mate_score``)."""
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        """The moves to a forced end (negative: lost), or None."""
        raise NotImplementedError

    def is_mate(self) -> bool:
        return self.mate() is not None

    def __neg__(self) -> "Score":
        raise NotImplementedError


class Cp(Score):
    """A centipoint score."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return self.cp

    def mate(self) -> Optional[int]:
        return None

    def __neg__(self) -> "Cp":
        return Cp(-self.cp)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cp) and other.cp == self.cp

    def __hash__(self) -> int:
        return hash(("cp", self.cp))

    def __repr__(self) -> str:
        return "Cp({:+d})".format(self.cp)

    def __str__(self) -> str:
        return "{:+d}".format(self.cp)


class Mate(Score):
    """A forced end of the game in ``moves`` of the player's own moves
    (negative: the player loses; ``Mate(0)``: lost now)."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        if self.moves > 0:
            return mate_score - self.moves
        return -mate_score - self.moves

    def mate(self) -> Optional[int]:
        return self.moves

    def __neg__(self) -> "Mate":
        return Mate(-self.moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mate) and other.moves == self.moves

    def __hash__(self) -> int:
        return hash(("mate", self.moves))

    def __repr__(self) -> str:
        return "Mate({:+d})".format(self.moves) if self.moves else "Mate(-0)"

    def __str__(self) -> str:
        return "#{:+d}".format(self.moves) if self.moves else "#-0"


def _other(player: str) -> str:
    return "north" if player == "south" else "south"


class PovScore:
    """A score and whose point of view it has: ``relative`` is the score of
    ``turn``, the side to move when it was reported."""

    def __init__(self, relative: Score, turn: str) -> None:
        self.relative = relative
        self.turn = turn

    def pov(self, player: str) -> Score:
        """The score from ``player``'s point of view ("south", "north")."""
        return self.relative if player == self.turn else -self.relative

    def south(self) -> Score:
        return self.pov("south")

    def north(self) -> Score:
        return self.pov("north")

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PovScore) and self.south() == other.south()

    def __repr__(self) -> str:
        return "PovScore({!r}, {!r})".format(self.relative, self.turn)


class Wdl:
    """Win, draw and loss chances in per mille."""

    def __init__(self, wins: int, draws: int, losses: int) -> None:
        self.wins = wins
        self.draws = draws
        self.losses = losses

    def total(self) -> int:
        return self.wins + self.draws + self.losses

    def expectation(self) -> float:
        """The expected game points, 0 to 1."""
        return (self.wins + 0.5 * self.draws) / max(1, self.total())

    def __neg__(self) -> "Wdl":
        return Wdl(self.losses, self.draws, self.wins)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter((self.wins, self.draws, self.losses))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Wdl) and tuple(other) == tuple(self)

    def __repr__(self) -> str:
        return "Wdl(wins={}, draws={}, losses={})".format(self.wins, self.draws, self.losses)


class PovWdl:
    """Win/draw/loss chances and whose point of view they have."""

    def __init__(self, relative: Wdl, turn: str) -> None:
        self.relative = relative
        self.turn = turn

    def pov(self, player: str) -> Wdl:
        return self.relative if player == self.turn else -self.relative

    def south(self) -> Wdl:
        return self.pov("south")

    def north(self) -> Wdl:
        return self.pov("north")

    def __repr__(self) -> str:
        return "PovWdl({!r}, {!r})".format(self.relative, self.turn)


class PlayResult:
    """What :meth:`SimpleEngine.play` returns: ``move`` (None when the
    game is over), ``ponder`` (the expected reply) and ``info`` (the last
    line the engine reported)."""

    def __init__(self, move: Optional[Move], ponder: Optional[Move], info: "InfoDict") -> None:
        self.move = move
        self.ponder = ponder
        self.info = info

    def __repr__(self) -> str:
        return "<PlayResult move={} ponder={} info={!r}>".format(self.move, self.ponder, self.info)


class Option:
    """An option the engine declared: ``name``, ``type`` (spin, check,
    combo, button, string), ``default``, ``min``, ``max`` and ``var`` (a
    combo's values)."""

    def __init__(
        self,
        name: str,
        type: str,
        default: Optional[str],
        min: Optional[int],
        max: Optional[int],
        var: List[str],
    ) -> None:
        self.name = name
        self.type = type
        self.default = default
        self.min = min
        self.max = max
        self.var = var

    def __repr__(self) -> str:
        return "Option(name={!r}, type={!r}, default={!r}, min={!r}, max={!r}, var={!r})".format(
            self.name, self.type, self.default, self.min, self.max, self.var
        )


#: The engine options that carry the board's rules, by ``Board.rules`` key
#: (from the engine's own table of rule options).
RULE_OPTIONS: Dict[str, str] = {field: name for field, name, _values, _default in rule_options()}

class InfoDict(TypedDict, total=False):
    """One ``info`` line (or an in-process search's line) as python-chess
    names its fields; each is there only when the engine said it."""

    depth: int
    seldepth: int
    multipv: int
    score: PovScore
    wdl: PovWdl
    nodes: int
    nps: int
    hashfull: int
    time: float
    pv: List[Move]
    currmove: Move
    currmovenumber: int
    string: str


_INFO_INTS = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "currmovenumber")


def _parse_moves(words: Iterable[str]) -> List[Move]:
    moves = []
    for word in words:
        try:
            moves.append(Move.from_str(word))
        except InvalidMoveError:
            break
    return moves


def parse_info(line: str, turn: str) -> InfoDict:
    """The fields of one ``info`` line as python-chess names them: depth,
    seldepth, multipv, score (a :class:`PovScore` for ``turn``), wdl (a
    :class:`PovWdl`), nodes, nps, hashfull, time (seconds), pv (moves),
    currmove, currmovenumber, string. Unknown words are skipped."""
    words = line.split()
    info: Dict[str, Any] = {}
    index = 1
    while index < len(words):
        word = words[index]
        index += 1
        try:
            if word == "string":
                info["string"] = " ".join(words[index:])
                break
            if word == "pv":
                info["pv"] = _parse_moves(words[index:])
                break
            if word in _INFO_INTS:
                info[word] = int(words[index])
                index += 1
            elif word == "time":
                info["time"] = int(words[index]) / 1000.0
                index += 1
            elif word == "score":
                kind, value = words[index], int(words[index + 1])
                index += 2
                score: Score = Cp(value) if kind == "cp" else Mate(value)
                info["score"] = PovScore(score, turn)
            elif word == "wdl":
                wins, draws, losses = (int(words[index + k]) for k in range(3))
                index += 3
                info["wdl"] = PovWdl(Wdl(wins, draws, losses), turn)
            elif word == "currmove":
                info["currmove"] = Move.from_str(words[index])
                index += 1
        except (IndexError, ValueError):
            # A field cut short or not a number: keep what came before.
            break
    return cast(InfoDict, info)


def _line_info(line: Sequence[Any], turn: str) -> "InfoDict":
    """An in-process search's line (see ``pasang.search``) as an info dict."""
    multipv, depth, seldepth, (kind, value), (wins, draws, losses), nodes, time_ms, pv = line
    score: Score = Cp(value) if kind == "cp" else Mate(value)
    return {
        "multipv": multipv,
        "depth": depth,
        "seldepth": seldepth,
        "score": PovScore(score, turn),
        "wdl": PovWdl(Wdl(wins, draws, losses), turn),
        "nodes": nodes,
        "time": time_ms / 1000.0,
        "pv": list(pv),
    }


def _kill(process: "subprocess.Popen[str]") -> None:
    """Ends and reaps ``process`` (a finalizer: never raises)."""
    try:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=5)
    except Exception:
        pass


class SimpleEngine:
    """A blocking driver of one engine process. Start one with
    :meth:`popen` (or :meth:`popen_uci`, :meth:`popen_ugi`); use it in a
    ``with`` block, or call :meth:`quit`, so the process is reaped.

    ``timeout`` (seconds) bounds the handshake, ``isready`` and the grace
    past a timed search's own time; searches limited by depth or nodes
    alone wait as long as the engine searches (a dead engine still ends
    the wait at once).
    """

    def __init__(self, command: Union[str, Sequence[str]], *, protocol: str = "uci", timeout: float = 10.0, **popen_args: Any) -> None:
        if protocol not in ("uci", "ugi"):
            raise ValueError("protocol must be 'uci' or 'ugi', not {!r}".format(protocol))
        args = [command] if isinstance(command, str) else list(command)
        self.protocol = protocol
        self.timeout = timeout
        #: ``id`` lines of the handshake: "name", "author".
        self.id: Dict[str, str] = {}
        #: The options the engine declared, by name.
        self.options: Dict[str, Option] = {}
        #: The engine's last lines on stderr, for diagnostics.
        self.stderr: Deque[str] = collections.deque(maxlen=100)
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._sent_rules: Dict[str, str] = {}
        self._multipv = 1
        self._root: Optional[str] = None
        self._dead = False
        try:
            self.process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                **popen_args,
            )
        except (FileNotFoundError, PermissionError):
            # As python-chess: a path that is not there (or not allowed)
            # raises the operating system's own error.
            raise
        except OSError as error:
            raise EngineTerminatedError("cannot start engine {!r}: {}".format(args, error)) from error
        self._finalizer = weakref.finalize(self, _kill, self.process)
        threading.Thread(target=self._pump, args=(self.process.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._keep_stderr, daemon=True).start()
        try:
            self._handshake()
        except BaseException:
            self.close()
            raise

    @classmethod
    def popen(cls, command: Union[str, Sequence[str]], *, protocol: str = "uci", timeout: float = 10.0, **popen_args: Any) -> "SimpleEngine":
        """Starts ``command`` (a path, or a list of arguments) and
        completes the handshake (``uci``, or ``ugi`` with
        ``protocol="ugi"``)."""
        return cls(command, protocol=protocol, timeout=timeout, **popen_args)

    @classmethod
    def popen_uci(cls, command: Union[str, Sequence[str]], **kwargs: Any) -> "SimpleEngine":
        """python-chess's name: :meth:`popen` over UCI."""
        return cls(command, protocol="uci", **kwargs)

    @classmethod
    def popen_ugi(cls, command: Union[str, Sequence[str]], **kwargs: Any) -> "SimpleEngine":
        """:meth:`popen` over UGI."""
        return cls(command, protocol="ugi", **kwargs)

    # --- the process -------------------------------------------------

    @staticmethod
    def _pump(stream: Any, lines: "queue.Queue[Optional[str]]") -> None:
        try:
            for line in stream:
                lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _keep_stderr(self) -> None:
        try:
            for line in self.process.stderr:  # type: ignore[union-attr]
                self.stderr.append(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass

    def _terminated(self, doing: str) -> EngineTerminatedError:
        self._dead = True
        code = None
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _kill(self.process)
            code = self.process.poll()
        message = "engine process died unexpectedly (exit code: {}) while {}".format(code, doing)
        tail = [line for line in list(self.stderr)[-5:] if line]
        if tail:
            message += "; stderr: " + " | ".join(tail)
        return EngineTerminatedError(message)

    def _send(self, line: str) -> None:
        if self._dead:
            raise EngineTerminatedError("engine process is no longer running")
        try:
            self.process.stdin.write(line + "\n")  # type: ignore[union-attr]
            self.process.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, ValueError) as error:
            raise self._terminated("sending {!r}".format(line)) from error

    def _read(self, deadline: Optional[float], doing: str) -> str:
        """The next line, waiting until ``deadline`` (monotonic seconds)."""
        if self._dead:
            raise EngineTerminatedError("engine process is no longer running")
        try:
            if deadline is None:
                line = self._lines.get()
            else:
                line = self._lines.get(timeout=max(0.0, deadline - _time.monotonic()))
        except queue.Empty:
            self._dead = True
            _kill(self.process)
            raise EngineTimeoutError("engine did not answer in time while {}; it was killed".format(doing)) from None
        if line is None:
            raise self._terminated(doing)
        return line

    def _deadline(self, seconds: Optional[float]) -> Optional[float]:
        return None if seconds is None else _time.monotonic() + seconds

    # --- the protocol ------------------------------------------------

    def _handshake(self) -> None:
        self._send(self.protocol)
        deadline = self._deadline(self.timeout)
        done = self.protocol + "ok"
        while True:
            line = self._read(deadline, "waiting for " + done)
            words = line.split()
            if not words:
                continue
            if words[0] == done:
                return
            if words[0] == "id" and len(words) >= 2:
                self.id[words[1]] = " ".join(words[2:])
            elif words[0] == "option":
                option = self._parse_option(words[1:])
                if option is not None:
                    self.options[option.name] = option

    @staticmethod
    def _parse_option(words: List[str]) -> Optional[Option]:
        keys = ("name", "type", "default", "min", "max", "var")
        fields: Dict[str, List[str]] = {}
        values: List[str] = []
        current: Optional[str] = None
        for word in words:
            # A key starts a field, except inside a name (which runs to "type").
            if word in keys and not (current == "name" and word != "type"):
                if current == "var":
                    fields.setdefault("var", []).append(" ".join(values))
                elif current is not None:
                    fields[current] = [" ".join(values)]
                current, values = word, []
            else:
                values.append(word)
        if current == "var":
            fields.setdefault("var", []).append(" ".join(values))
        elif current is not None:
            fields[current] = [" ".join(values)]
        if "name" not in fields or "type" not in fields:
            return None

        def number(key: str) -> Optional[int]:
            try:
                return int(fields[key][0])
            except (KeyError, ValueError):
                return None

        default = fields.get("default", [None])[0]
        if default == "<empty>":
            default = ""
        return Option(fields["name"][0], fields["type"][0], default, number("min"), number("max"), fields.get("var", []))

    def _option_name(self, name: str) -> Optional[str]:
        for known in self.options:
            if known.lower() == name.lower():
                return known
        return None

    def _sync(self, doing: str) -> None:
        """``isready``: waits for ``readyok``, raising on an ``info string
        error`` the commands before it caused."""
        self._send("isready")
        deadline = self._deadline(self.timeout)
        errors = []
        while True:
            line = self._read(deadline, doing)
            if line == "readyok":
                break
            if line.startswith("info string error"):
                errors.append(line[len("info string "):])
        if errors:
            raise EngineError("; ".join(errors))

    def _setoption(self, name: str, value: Any) -> None:
        if value is None:
            self._send("setoption name {}".format(name))
        else:
            if isinstance(value, bool):
                value = "true" if value else "false"
            self._send("setoption name {} value {}".format(name, value))

    def configure(self, options: Mapping[str, Any]) -> None:
        """Sets options (``{"Hash": 64, "Threads": 2}``; a button's value is
        None). An option the engine did not declare, or a value it refuses,
        raises :class:`EngineError` (with the engine's message)."""
        for name, value in options.items():
            known = self._option_name(name)
            if known is None:
                raise EngineError("engine does not support option {!r}".format(name))
            self._setoption(known, value)
            if known == "MultiPV" and value is not None:
                self._multipv = int(value)
            for key, option in RULE_OPTIONS.items():
                if option == known:
                    self._sent_rules[key] = str(value).lower()
        self._sync("configuring options")

    def _set_position(self, board: Board) -> None:
        """The board's rules (where they differ from what the engine has),
        ``ucinewgame`` when the game changed, and the position: its start
        and its moves."""
        for key, value in board.rules.items():
            if self._sent_rules.get(key, None) == value:
                continue
            known = self._option_name(RULE_OPTIONS[key])
            if known is None:
                if value == pasang_default_rules()[key]:
                    continue
                raise EngineError("engine has no option {!r} for the board's rules".format(RULE_OPTIONS[key]))
            self._setoption(known, value)
            self._sent_rules[key] = value
        root = board.copy()
        moves = []
        while root.move_stack:
            moves.append(str(root.pop()))
        moves.reverse()
        key = root.fen() + repr(sorted(board.rules.items()))
        if key != self._root:
            self._send("{}newgame".format(self.protocol))
            self._root = key
        command = "position fen " + root.fen()
        if moves:
            command += " moves " + " ".join(moves)
        self._send(command)

    def _go(self, board: Board, limit: Limit, multipv: int) -> str:
        if multipv != self._multipv:
            known = self._option_name("MultiPV")
            if known is None and multipv > 1:
                raise EngineError("engine has no option 'MultiPV'")
            if known is not None:
                self._setoption(known, multipv)
            self._multipv = multipv
        self._set_position(board)
        self._sync("setting the position")
        clock = ("p1time", "p2time", "p1inc", "p2inc") if self.protocol == "ugi" else ("wtime", "btime", "winc", "binc")
        words = ["go"]
        for word, value in zip(clock, (limit.south_clock, limit.north_clock, limit.south_inc, limit.north_inc)):
            if value is not None:
                words += [word, str(max(0, int(round(value * 1000))))]
        if limit.time is not None:
            words += ["movetime", str(max(1, int(round(limit.time * 1000))))]
        if limit.depth is not None:
            words += ["depth", str(int(limit.depth))]
        if limit.nodes is not None:
            words += ["nodes", str(int(limit.nodes))]
        if limit.mate is not None:
            words += ["mate", str(int(limit.mate))]
        if len(words) == 1:
            raise ValueError("a search needs a limit: time, depth, nodes, mate or a clock")
        return " ".join(words)

    def _search(self, board: Board, limit: Limit, multipv: int) -> "tuple[Optional[Move], Optional[Move], List[InfoDict]]":
        command = self._go(board, limit, multipv)
        turn = board.turn
        seconds = None
        if limit.time is not None:
            seconds = limit.time + self.timeout
        elif limit.south_clock is not None or limit.north_clock is not None:
            clock = limit.south_clock if turn == "south" else limit.north_clock
            if clock is None:
                clock = limit.north_clock if turn == "south" else limit.south_clock
            seconds = (clock or 0.0) + self.timeout
        self._send(command)
        deadline = self._deadline(seconds)
        lines: Dict[int, InfoDict] = {}
        while True:
            line = self._read(deadline, "searching")
            if line.startswith("info string error"):
                raise EngineError(line[len("info string "):])
            if line.startswith("info "):
                info = parse_info(line, turn)
                if "currmove" in info or "string" in info:
                    continue
                lines.setdefault(info.get("multipv", 1), {}).update(info)
            elif line.startswith("bestmove"):
                words = line.split()
                best = None
                ponder = None
                if len(words) >= 2 and words[1] != "(none)":
                    try:
                        best = Move.from_str(words[1])
                    except InvalidMoveError as error:
                        raise EngineError("engine sent a malformed bestmove: {!r}".format(line)) from error
                if len(words) >= 4 and words[2] == "ponder":
                    ponder = next(iter(_parse_moves(words[3:4])), None)
                if best is not None and best not in board.legal_moves:
                    raise EngineError("engine played an illegal move: {!r} in {}".format(line, board.fen()))
                return best, ponder, [lines[k] for k in sorted(lines)]

    def play(self, board: Board, limit: Limit) -> PlayResult:
        """The engine's move in ``board``'s position (None when the game is
        over) within ``limit``."""
        best, ponder, infos = self._search(board, limit, self._multipv)
        return PlayResult(best, ponder, infos[0] if infos else {})

    def analyse(self, board: Board, limit: Limit, *, multipv: Optional[int] = None) -> Union[InfoDict, List[InfoDict]]:
        """Searches ``board`` within ``limit`` and returns the best line's
        info (score, wdl where the engine sends it, depth, nodes, pv, ...);
        with ``multipv``, a list of that many lines, best first."""
        best, _ponder, infos = self._search(board, limit, multipv or 1)
        if multipv is None:
            return infos[0] if infos else {}
        return infos

    def ping(self) -> None:
        """``isready``, waiting for ``readyok``."""
        self._sync("waiting for readyok")

    def quit(self) -> None:
        """Sends ``quit`` and reaps the process (killed if it does not
        exit within the timeout)."""
        if not self._dead and self.process.poll() is None:
            try:
                self._send("quit")
                self.process.wait(timeout=self.timeout)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.close()

    def close(self) -> None:
        """Kills the process if it still runs, and reaps it."""
        self._dead = True
        self._finalizer()
        # Only stdin: the reader threads end at the dead process's EOF
        # (closing a stream another thread reads could block).
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except (OSError, ValueError):
            pass

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.quit()

    def __repr__(self) -> str:
        return "<SimpleEngine (pid={}) {!r}>".format(self.process.pid, self.id.get("name", "?"))


def pasang_default_rules() -> Dict[str, str]:
    """The rule options of ``Board()``."""
    return Board().rules
