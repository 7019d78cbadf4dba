"""Issue #29: the log is one line per event, JSON lines with LOG_FORMAT=json; every interaction is logged with
its guild, channel, game, command and latency; and no line ever holds a token, a hand, a secret choice or a
seed — checked at DEBUG over seeded games of every game, through the table service and through Discord."""

from __future__ import annotations

import io
import json
import logging
import random

import pytest

from cogs.runner import TeahouseBot
from engine import GAMES
from store import Store
from table import TableService, User, Where, logs
from table.logs import ContextFilter, LineFormatter
from tests.fakediscord import FakeDiscord
from tests.support import answer


def record(msg="game %s: move %s", args=(7, 3), level=logging.INFO, exc_info=None, **extra) -> logging.LogRecord:
    r = logging.LogRecord("teahouse.table", level, __file__, 1, msg, args, exc_info)
    for k, v in extra.items():
        setattr(r, k, v)
    return r


class Capture:
    """What the bot would write at DEBUG, as it is configured (logs.configure), in both formats, and the
    records themselves (their arguments, before formatting)."""

    def __init__(self):
        self.json_out, self.text_out = io.StringIO(), io.StringIO()
        self.records: list[logging.LogRecord] = []

    def emit(self, r: logging.LogRecord) -> None:
        self.records.append(r)

    def everything(self) -> str:
        return "\n".join([self.json_out.getvalue(), self.text_out.getvalue(),
                          *(f"{r.msg!r} {r.args!r}" for r in self.records)])

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in self.json_out.getvalue().splitlines()]


@pytest.fixture
def captured():
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), {n: logging.getLogger(n).level for n in logs.QUIET_LIBRARIES})
    cap = Capture()
    logs.configure("DEBUG", "json", stream=cap.json_out)        # the bot's own configuration, at DEBUG
    text = logging.StreamHandler(cap.text_out)
    text.addFilter(ContextFilter())
    text.setFormatter(LineFormatter())
    keep = logging.Handler()
    keep.addFilter(ContextFilter())
    keep.emit = cap.emit
    root.addHandler(text)
    root.addHandler(keep)
    try:
        yield cap
    finally:
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        for name, level in saved[2].items():
            logging.getLogger(name).setLevel(level)


# ----- the format ---------------------------------------------------------------------------------------------
def test_a_text_line_is_one_line_with_its_context_fields():
    line = LineFormatter().format(record(guild=5, channel=6, command="/game move", latency_ms=12.5))
    assert line.endswith("INFO    teahouse.table: game 7: move 3 guild=5 channel=6 command=/game move latency_ms=12.5")
    assert "\n" not in LineFormatter().format(record("two\nlines", ()))


def test_a_traceback_stays_on_the_line():
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        import sys
        exc = sys.exc_info()
    text = LineFormatter().format(record("failed", (), level=logging.ERROR, exc_info=exc))
    assert "\n" not in text and "Traceback" in text and "ValueError: bad\\nthing" in text
    line = json.loads(LineFormatter(json_lines=True).format(record("failed", (), level=logging.ERROR, exc_info=exc)))
    assert line["msg"] == "failed" and line["exc"].startswith("Traceback") and line["exc"].endswith("bad\nthing")


def test_a_json_line_has_time_level_logger_message_and_context():
    line = LineFormatter(json_lines=True).format(record(guild=5, game=7, ack_ms=3.0))
    assert "\n" not in line
    data = json.loads(line)
    assert data == {"ts": data["ts"], "level": "INFO", "logger": "teahouse.table", "msg": "game 7: move 3",
                    "guild": 5, "game": 7, "ack_ms": 3.0}
    assert data["ts"].endswith("Z") and data["ts"][10] == "T" and len(data["ts"]) == 24


def test_the_context_reaches_every_line_logged_inside_it(captured):
    log = logging.getLogger("teahouse.test")
    with logs.context(guild=1, channel=2, command="/game status"):
        log.info("inside")
        logs.set_context(game=9)
        log.info("later", extra={"channel": 3})        # a field given to the call wins
    log.info("outside")
    inside, later, outside = [line for line in captured.lines() if line["logger"] == "teahouse.test"]
    assert inside["guild"] == 1 and inside["command"] == "/game status" and "game" not in inside
    assert later["game"] == 9 and later["channel"] == 3
    assert {"guild", "channel", "command", "game"}.isdisjoint(outside)


def test_configure_replaces_its_own_handler_and_holds_the_libraries_back():
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    other = logging.NullHandler()
    root.addHandler(other)
    try:
        out = io.StringIO()
        logs.configure("DEBUG", "json", stream=io.StringIO())
        handler = logs.configure("debug", "JSON", stream=out)
        ours = [h for h in root.handlers if getattr(h, "_teahouse_handler", False)]
        assert ours == [handler] and other in root.handlers
        assert root.level == logging.DEBUG
        for name in ("aiosqlite", "discord", "discord.gateway", "sqlalchemy.engine", "asyncpg", "aiohttp.access"):
            assert logging.getLogger(name).getEffectiveLevel() >= logging.INFO, name
        logging.getLogger("teahouse.test").debug("hello")
        assert json.loads(out.getvalue())["msg"] == "hello"
        text = io.StringIO()
        logs.configure("nonsense", "text", stream=text)       # an unknown level is INFO; any other format text
        assert root.level == logging.INFO
        logging.getLogger("teahouse.test").info("hello")
        assert text.getvalue().rstrip().endswith("INFO    teahouse.test: hello")
    finally:
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]


# ----- nothing secret, ever -------------------------------------------------------------------------------------
CONFIGS = [("wassamasaw", 2, {}), ("wagara", 3, {}),
           ("mywuxing", 3, {"version": "think", "think_option": 2, "power_cards": "on"}),
           ("seikatsu", 3, {}), ("wurrm", 3, {"petition": True})]
SEEDS = {"wassamasaw": 3141592653589793238, "wagara": 2718281828459045235, "mywuxing": 1414213562373095048,
         "seikatsu": 1732050807568877293, "wurrm": 2236067977499789696}


def precise(texts) -> set[str]:
    """Only strings that cannot turn up by accident: several words, or long ("pass", "2" would match by
    chance; "play 2", "heron iris" or '["2", "4"]' would not)."""
    return {t for t in map(str, texts) if (" " in t.strip() and len(t) >= 6) or len(t) >= 12}


def hidden_texts(game, state) -> set[str]:
    """What some seat may not see in ``state``, as it would be written: the actions a seat is offered
    privately (its hand and secret picks, "play 5", "place heron iris a4", "vote yes"), each item and the whole of
    what its own view shows beyond the public one (hand, secret choice), the hidden parts of the state (decks,
    the bag, the universe deck, votes) and the generator."""
    out: set[str] = set()
    public = game.view(state, None)
    for seat in state["seats"]:
        if seat in game.to_act(state) and game.private_actions(state, seat):
            out |= set(game.legal_actions(state, seat))
        own = game.view(state, seat)
        for key, value in own.items():
            if value and public.get(key) != value:
                out |= {json.dumps(value), repr(value)}
                if isinstance(value, list):
                    out |= {str(item) for item in value}
    for key in (*game.hidden_keys, "rng"):
        if state.get(key):
            out |= {json.dumps(state[key]), repr(state[key])}
            if isinstance(state[key], dict):
                out |= {json.dumps(v) for v in state[key].values() if v}
    if state.get("petition") and state["petition"].get("votes"):
        out.add(json.dumps(state["petition"]["votes"]))
    return precise(out)


async def play_seeded(store, key: str, players: int, options: dict, forbidden: set[str]) -> int:
    """A whole game at the table service, every seat a person choosing by the beginner's policy; the hidden
    information of every state along the way added to ``forbidden``. The number of moves."""
    svc = TableService(store, render=False)
    where = Where(f"chan-{key}", guild="guild-1")
    users = [User(f"31{i}000000000000000{i}", f"Player {i}") for i in range(players)]
    by_id = {u.id: u for u in users}
    assert (await svc.open_table(where, users[0], key, options)).ok
    for u in users[1:]:
        assert (await svc.join(where, u)).ok
    assert (await svc.start(where, users[0])).ok
    game = GAMES[key]
    rnd = random.Random(key)
    moves = 0
    while True:
        row = await store.latest_game(where.channel)
        state = game.load(row.state)
        forbidden |= hidden_texts(game, state) | {str(row.seed), row.state}
        if row.status != "running":
            return moves
        seat = rnd.choice(game.to_act(state))
        action = rnd.choice(game.bot_actions(state, seat))
        if game.private_actions(state, seat):
            forbidden.add(action)
        reply = await svc.act(where, by_id[seat], action)
        assert reply.ok, reply.private
        moves += 1
        assert moves < 1000


async def test_seeded_games_of_every_game_log_no_hand_secret_or_seed_at_debug(tmp_path, captured, monkeypatch):
    seeds = iter(SEEDS[key] for key, _n, _o in CONFIGS)
    monkeypatch.setattr("table.lobby.secrets.randbits", lambda bits: next(seeds))
    forbidden: set[str] = set()
    moves = {}
    async with Store(tmp_path / "s.db") as store:
        for key, players, options in CONFIGS:
            mine: set[str] = set()
            moves[key] = await play_seeded(store, key, players, options, mine)
            assert str(SEEDS[key]) in mine
            forbidden |= mine
    # the hidden information is really there to look for, in every game that has some
    assert {"play 5", "play cloud"} <= forbidden                        # Wagara's secret cards
    assert any(t.startswith("place ") and len(t.split()) == 4 for t in forbidden)      # Seikatsu's hand tiles
    assert {"vote yes", "vote no"} & forbidden                         # WURRM World's petition votes
    assert any(t.startswith(("play ", "add ", "discard ")) for t in forbidden)       # MyWuXing's Think picks
    assert all(m > 20 for m in moves.values()), moves
    text = captured.everything()
    assert sum("move" in line["msg"] for line in captured.lines()) >= sum(moves.values())   # it did log
    leaked = sorted(t for t in forbidden if t in text)
    assert not leaked, leaked[:5]


async def test_interactions_are_logged_with_their_context_and_no_token_or_secret(tmp_path, captured):
    """Through Discord (the fake) at DEBUG: a Wagara round chosen by the private picker and by command. Each
    interaction is one line with its guild, channel, game, command and latency; the token, the cards chosen
    and the seed are in none."""
    token = "MTE5ODc2NTQzMjEwOTg3NjU0Mw.GhIjKl.s3cr3tT0k3nP4rtTh4tMu5tN3v3rB3L0gg3d"
    store = Store(tmp_path / "b.db")
    async with FakeDiscord(token=token) as fake, fake.run(TeahouseBot(store, service=TableService(store))):
        r = await fake.slash("alice", "general", "game new", options={"game": "wagara"})
        lobby = r.message
        await answer(await fake.click("bob", lobby, label="Join"))
        started = await answer(await fake.click("alice", lobby, label="Start"))
        picker = await answer(await fake.click("alice", started, label="Choose (only you see it)"))
        card = next(b for b in picker.buttons() if b["label"] == "play 5")
        await answer(await fake.click("alice", picker, card["custom_id"]))
        await fake.autocomplete("bob", "general", "wagara play", {"card": ""}, "card")
        await answer(await fake.slash("bob", "general", "wagara play", options={"card": "cloud"}))
        await fake.settle()
        async with Store(tmp_path / "b.db") as reader:
            row = await reader.latest_game(str(fake.channel("general").id))
    guild, channel = fake.guild.id, fake.channel("general").id
    said = {line["command"]: line for line in captured.lines() if line["logger"] == "teahouse.interaction"}
    for command in ("/game new", "button lobby join", "button lobby start", "button choose privately",
                    "button action", "/wagara play", "autocomplete /wagara play"):
        line = said[command]
        assert line["guild"] == guild and line["channel"] == channel and line["latency_ms"] >= 0, line
        assert line["ack_ms"] <= line["latency_ms"] and line["outcome"] == "ok", line
    assert said["autocomplete /wagara play"]["level"] == "DEBUG" and said["/wagara play"]["level"] == "INFO"
    assert said["/game new"]["game"] == row.id and said["button action"]["game"] == row.id
    assert said["/wagara play"]["game"] == row.id
    # what the service logged while handling an interaction carries its context too
    moves = [line for line in captured.lines() if line["msg"].startswith(f"game {row.id}: move")]
    assert moves and all(m["channel"] == channel and m["command"] for m in moves)
    text = captured.everything()
    for secret in (token, *token.split("."), "play 5", "play cloud", str(row.seed)):
        assert secret not in text, secret
    assert not fake.errors
