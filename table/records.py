"""What a game's record yields once stored: replays rebuilt from seed and log, exports, stats.

The action log is append-only, so taking a move back appends a ``#undo`` entry and a player handed to a
computer appends ``#removed``; ``effective_actions`` reads the log as the game saw it.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:      # Pillow is loaded where a replay is drawn (a thread), not with the bot
    from PIL import Image

from engine import Game
from i18n import W_
from store.ratings import is_rated
from store.rows import GameRow, LogEntry

from .replies import name_seats

# Options of the table rather than of its game (issue #15: hints; #27: rated): set and shown in the lobby with
# the game's options and stored with them, never handed to the engine. Tables stored before one existed have
# its default; ``rated``, unless set, is on when at least two people are seated (store/ratings.py).
# #34: speed, the clock (table/clock.py), fixed at the start; tables stored before it are untimed.
TABLE_OPTIONS = {W_("hints"): True, W_("rated"): True, W_("speed"): "untimed",   # names as words of their own
                 W_("playing_hours"): "off", W_("zone"): "UTC"}     # a table's daily window for its clocks (#34)
TABLE_OPTION_CHOICES = {"hints": [True, False], "rated": [True, False],
                        "speed": ["untimed", "fast", "daily", "relaxed"]}


# a rematch's lobby keeps, unseen, the game it follows and its rotated seat order: {"of": id, "order": [ids]}
REMATCH = "_rematch"
# a learn table (issue #28, table/learn.py) is marked, unseen, with True; tables stored before it have no mark
LEARN = "_learn"


def game_options(options: dict) -> dict:
    """What the engine is given of a table's options: all but the table's own (and the unseen ones, "_…")."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTIONS and not k.startswith("_")}


def table_options(options: dict, seats: list | None = None) -> dict:
    """A table's options as shown in its lobby, with the table's own ones at their defaults when never set
    (``rated``: by ``seats``; ``hints``: off at a rated table, #47)."""
    rated = is_rated(options, seats or [])
    defaults = {**TABLE_OPTIONS, "rated": rated, "hints": not rated}
    return {**{k: v for k, v in options.items() if not k.startswith("_")},
            **{k: options.get(k, v) for k, v in defaults.items()}}


def at_start(options: dict, seats: list) -> dict:
    """A table's options as its game starts (#47): ``hints`` stored as the lobby showed it (off at a rated
    table), and a table whose host turned hints on is unrated. A game keeps them to its end; a game started
    before #47 has no ``hints`` stored and keeps the hints it began with (``hints_on``)."""
    out = dict(options)
    if out.get("hints") is True and "rated" not in out:
        out["rated"] = False                     # turned on in a lobby opened before #47: hints or rating
    if "hints" not in out:
        out["hints"] = not is_rated(out, seats)
    return out


def hints_on(options: dict) -> bool:
    """Whether a started game gives hints: as stored at its start; one started before #47 kept the default
    of then (on)."""
    return bool(options.get("hints", True))


UNDO = "#undo"
REMOVED = "#removed"
GIF_WIDTH = 640
MAX_FRAMES = 120


def effective_actions(entries: list[LogEntry]) -> list[LogEntry]:
    """The moves that made the game as it stands: undone moves and markers left out."""
    moves: list[LogEntry] = []
    for e in entries:
        if e.action == UNDO:
            if moves:
                moves.pop()
        elif not e.action.startswith("#"):
            moves.append(e)
    return moves


def rebuild(game: Game, row: GameRow, entries: list[LogEntry]) -> list:
    """Every state of the game from its seed: the start, then one after each effective move."""
    seats, options = [s.user_id for s in row.seats], game_options(row.options)
    state = game.restart(seats, row.seed, options, game.load(row.state)) if row.state else \
        game.new(seats, row.seed, options)
    states = [state]
    for e in effective_actions(entries):
        state = game.apply(state, e.seat, e.action)
        states.append(state)
    return states


def sample(n: int, most: int = MAX_FRAMES) -> list[int]:
    """At most ``most`` indices of ``n`` frames, evenly spread, first and last always in."""
    if n <= most:
        return list(range(n))
    return sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})


def gif(frames: list[Image.Image], width: int = GIF_WIDTH, ms: int = 700, last_ms: int = 4000) -> bytes:
    """An animated GIF of the frames, scaled to ``width`` and sharing one palette so colours stay put."""
    from PIL import Image

    if not frames:
        raise ValueError("no frames")
    scaled = []
    for f in frames:
        h = round(f.height * width / f.width)
        scaled.append(f.convert("RGB").resize((width, h), Image.LANCZOS))
    height = max(f.height for f in scaled)
    canvas = []
    for f in scaled:   # frames of different heights share the tallest canvas
        c = Image.new("RGB", (width, height), f.getpixel((0, f.height - 1)))
        c.paste(f, (0, 0))
        canvas.append(c)
    palette = canvas[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    frames_p = [c.quantize(palette=palette, dither=Image.Dither.NONE) for c in canvas]
    out = io.BytesIO()
    durations = [ms] * (len(frames_p) - 1) + [last_ms]
    frames_p[0].save(out, format="GIF", save_all=True, append_images=frames_p[1:], duration=durations, loop=0,
                     optimize=False, disposal=1)
    return out.getvalue()


def gif_within(frames: dict[int, Image.Image], limit: int) -> bytes | None:
    """The replay GIF at most ``limit`` bytes: the full width and every sampled frame if it fits, else
    narrower, then fewer frames (first and last always in); None if even the smallest does not fit."""
    order = sorted(frames)
    for width, most in ((GIF_WIDTH, MAX_FRAMES), (480, MAX_FRAMES), (480, 60), (360, 40), (360, 20)):
        keep = [order[i] for i in sample(len(order), most)]
        data = gif([frames[i] for i in keep], width=width)
        if len(data) <= limit:
            return data
    return None


def export(row: GameRow, game: Game, entries: list[LogEntry], ended: bool) -> dict:
    """The game's record as JSON-able data. While it runs, only what is public: the log lines (which never
    name a secret); once it has ended, the action texts and the seed too, so anyone can replay it."""
    names = row.names
    data = {
        "game": row.game, "title": game.title, "id": row.id, "status": row.status, "options": row.options,
        "seats": [{"seat": s.user_id, "name": s.name, "computer": s.is_bot} for s in row.seats],
        "created_at": row.created_at, "updated_at": row.updated_at,
        "rules": row.rules,                          # the rules version it is played by (#26)
        "log": [],
    }
    for e in entries:
        item = {"seq": e.seq, "seat": e.seat, "name": names.get(e.seat, e.seat), "line": name_seats(e.line, names),
                "at": e.at}                                  # the line as players read it: names, not seat ids
        if ended:
            item["action"] = e.action
        data["log"].append(item)
    if ended:
        data["seed"] = row.seed
        data["result"] = row.result
    return data


def export_bytes(data: dict) -> bytes:
    return json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")


@dataclass
class Record:
    played: int = 0      # games that reached an end (finished)
    wins: int = 0
    losses: int = 0
    abandoned: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


@dataclass
class Stats:
    """Per game key: a user's record; ``total`` over all games."""
    by_game: dict[str, Record] = field(default_factory=dict)
    total: Record = field(default_factory=Record)


def tally(outcomes: list[tuple[str, str, int]]) -> Stats:
    """A person's record from (game, outcome, count) rows of the store's results: a shared victory is a win,
    a seat handed to a computer a loss, an abandoned game neither."""
    stats = Stats()
    for key, outcome, count in outcomes:
        rec = stats.by_game.setdefault(key, Record())
        for r in (rec, stats.total):
            if outcome == "abandoned":
                r.abandoned += count
            else:
                r.played += count
                if outcome == "win":
                    r.wins += count
                else:
                    r.losses += count
    return stats
