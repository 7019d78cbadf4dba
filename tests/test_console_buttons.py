"""Every button has a console line (issue #33 part 3).

The first test walks every kind of component the Discord front end can send — the kinds are read from the
custom-id templates of the DynamicItem classes the cogs register (and the review navigations and selects'
entries within them) — builds each from a real reply as the cogs build it, and finds in what the console
prints for that same reply the line that does what the component does. A new kind of button without a line
here fails it. The second plays a game to its end at the console and then goes to its review and a rematch
following only lines the console printed.
"""

from __future__ import annotations

import importlib
import re
from types import SimpleNamespace

import discord

import tests.tinygame  # noqa: F401
from console import lines
from console.table import Console
from store import Store
from table import TableService
from table.replies import Offer, Reply, ReviewPage, Turn, User, Where

HERE = Where("t", guild="console")
ALICE, BOB, CAROL = User("alice", "alice"), User("bob", "bob"), User("carol", "carol")


def discord_kinds() -> set[str]:
    """Every kind of component the Discord front end may send, from its DynamicItem templates: a button or
    select kind letter (``th:<kind>:…``); a review button per navigation, a review select per entry kind."""
    from cogs import game, runner, ui

    for name in runner.cog_modules():             # every cog loaded: their components are registered
        importlib.import_module(name)
    items = {c for c in _subclasses(discord.ui.DynamicItem) if c.__module__.startswith("cogs.")}
    assert items == set(ui.DYNAMIC_ITEMS), "a DynamicItem outside ui.DYNAMIC_ITEMS: add it, and its line"
    kinds = set()
    for cls in items:
        pattern = cls.__discord_ui_compiled_template__.pattern
        letters = re.match(r"th:\(\?P<kind>\[(\w+)\]\)", pattern)
        if letters:
            kinds |= set(letters[1])
            continue
        fixed = re.match(r"th:(\w):", pattern)
        assert fixed, f"a custom-id template this test cannot read: {pattern}"
        if fixed[1] == "L":         # a league's sign-up (#35): th:L:<league>:<join|leave|start>
            kinds |= {f"L.{act}" for act in re.search(r"\(\?P<act>([\w|]+)\)", pattern)[1].split("|")}
            continue
        # a review select's entries (a jump, a view) reach the handler as the review button "j." or "s." would
        chosen = {"j", "s"}
        assert chosen <= set(game.REVIEW_NAVS)
        kinds |= {f"{fixed[1]}.{nav}" for nav in (set(game.REVIEW_NAVS) - chosen if fixed[1] == "w" else chosen)}
    return kinds


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def kind_of(item) -> tuple[str, str, list[str]]:
    """(kind, custom id, select values) of a Discord component as the tests walk it."""
    cid = item.custom_id
    if cid.startswith("th:L:"):
        return f"L.{cid.split(':')[3]}", cid, []
    _th, letter, _g, _v, arg = cid.split(":", 4)
    values = [o.value for o in getattr(item, "options", [])]
    if letter == "w":
        return f"w.{arg.partition('.')[0]}", cid, values
    if letter == "j":
        return f"j.{arg.partition('.')[0]}", cid, values
    return letter, cid, values


def review_line(game: str, step: str, viewer: str, page: ReviewPage, user: str) -> str:
    """The console line a review component's target reads as (the view named unless it is the reader's own)."""
    own = str(page.seats.index(user)) if user in page.seats else "t"
    line = f"/game review game:{game} step:{step}"
    if viewer and viewer != own:
        line += " seen_by:" + ("table" if viewer == "t" else page.seats[int(viewer)])
    return line


def button_line(turn: Turn, action: str) -> str:
    """An action button's console line: its label in the reader's language → the exact line to type."""
    return f"    {lines.action_label(turn, action)} → /game move action:{action}"


def expected(kind: str, cid: str, values: list[str], case: dict) -> list[str]:
    """The console lines (any one of each list item must appear) that do what the component does."""
    if kind.startswith("L."):
        return [f": /league {kind[2:]}"]
    _th, _letter, g, v, arg = cid.split(":", 4)
    turn: Turn | None = case.get("turn")
    page: ReviewPage | None = case.get("page")
    if kind == "a":
        return [f"{case['seat']}'s buttons", button_line(turn, turn.public_actions[case["seat"]][int(arg)])]
    if kind == "s":         # an action select: each entry on its line, its label beside the line to type
        return [button_line(turn, turn.public_actions[case["seat"]][int(i)]) for i in values]
    if kind == "g":         # a group: its actions listed, or the whole list one command away
        return ["/game actions"] if len(turn.public_actions[case["seat"]]) > 30 else \
            [button_line(turn, a) for a in turn.public_actions[case["seat"]]]
    if kind == "p":
        return ["choose privately (`/game actions` lists your choices)"]
    if kind == "v":
        return ["👁 My view: /game hand"]
    if kind == "l":
        return {"join": ["Join: /game join"], "leave": ["Leave: /game leave"], "bot": ["Add computer: /game addbot"],
                "start": ["Start: /game start"], "shuffle": ["Start (shuffled seats): /game start order:shuffled"]}[arg]
    if kind == "o":         # one line per option, with every value of the select's
        out = []
        for value in values:
            name, _sep, val = value.partition("=")
            out.append(re.compile(rf"/game option name:{name} value:([^ ]*\|)?{re.escape(val)}(\||$)", re.M))
        return out
    if kind == "x":
        return ["Yes, abandon the game: /game abandon confirm:yes"]
    if kind == "d":
        what, _sep, seat = arg.partition("-")
        return [f"/game {what} player:{seat}"]
    if kind == "r":
        return ["🔁 Rematch: /game rematch"]
    if kind == "n":
        return [f"🔬 Analysis: /game analysis game:{g}"]
    if kind == "e":         # a spectator's buttons (#49)
        return {"watch": [f"👀 Watch: /game watch game:{g}"],
                "rounds": [f"🖼 Each round's picture: /game watch game:{g} send:rounds"],
                "end": [f"🏁 Only the end: /game watch game:{g} send:end"],
                "stop": [f"🛑 Stop watching: /game unwatch game:{g}"]}[arg]
    user = case.get("user", "alice")
    nav, _sep, viewer = arg.partition(".")
    if kind == "w.r":
        return [f"🔎 Review: /game review game:{g}"]
    if kind in ("w.f", "w.p", "w.n"):
        return [review_line(g, v, viewer, page, user)]
    if kind == "w.l":
        return [review_line(g, str(page.moves) if page.ended else "last", viewer, page, user)]
    if kind == "j.j":
        return [review_line(g, value.partition("-")[0], viewer, page, user) for value in values]
    if kind == "j.s":       # a chosen view is always named
        return [f"/game review game:{g} step:{v} seen_by:" + ("table" if code == "t" else page.seats[int(code)])
                for code in values]
    raise AssertionError(f"the Discord component kind {kind!r} ({cid}) has no console line in this test: give "
                         f"it its line in console/lines.py and here")


def printed(console_lines: list[str], want) -> bool:
    text = "\n".join(console_lines)
    return bool(want.search(text)) if isinstance(want, re.Pattern) else want in text


def shown(console: Console, reply: Reply, lobby=None) -> list[str]:
    out: list[str] = []
    write, console.write = console.write, out.append
    try:
        console.show("t", reply, lobby)
    finally:
        console.write = write
    return out


async def test_every_discord_component_has_its_console_line(tmp_path):
    from cogs import game as game_cog
    from cogs import ui

    kinds = discord_kinds()
    seen: set[str] = set()
    async with Store(tmp_path / "c.db") as store:
        svc = TableService(store, render=False)
        console = Console(svc, tmp_path / "img", write=lambda _text: None)
        cog = SimpleNamespace(service=svc)

        async def check(reply: Reply, rows: list[discord.ui.ActionRow], **case):
            lobby = await console.lobby_of(reply)
            out = shown(console, reply, lobby)
            for item in ui.children(rows):
                kind, cid, values = kind_of(item)
                seen.add(kind)
                for want in expected(kind, cid, values, case):
                    assert printed(out, want), f"{kind} ({cid}): no console line {want!r} in:\n" + "\n".join(out)

        # the lobby: its buttons and the host's option select
        reply = await svc.open_table(HERE, ALICE, "pebbles")
        row = await store.game(reply.game_id)
        await check(reply, game_cog.lobby_rows(row))
        await check(await svc.join(HERE, BOB), await game_cog.GameCog.components(cog, reply))

        # a turn: action buttons, an action select, groups (buttons and a select), a private choice, my view
        def turn(actions, private=()):
            return Turn(1, "pebbles", 3, ["alice"], {} if private else {"alice": actions}, list(private),
                        {"alice": "alice"})
        few = ["keep", "reroll"]
        some = [f"take {i}" for i in range(22)]
        grouped = [f"go {i} {j}" for i in range(6) for j in range(6)]
        many = [f"w{i} x" for i in range(24) for _j in range(2)]
        for actions in (few, some, grouped, many):
            t = turn(actions)
            await check(Reply(text="Your move.", game_id=1, status="running", turn=t), ui.turn_rows(t),
                        turn=t, seat="alice")
        t = turn([], private=["alice"])
        await check(Reply(text="Choose.", game_id=1, status="running", turn=t), ui.turn_rows(t), turn=t)

        # past a deadline: Skip and Remove
        offer = Offer(1, 3, ["bob"], {"bob": "bob"})
        await check(Reply(text="bob has not played.", game_id=1, offer=offer), ui.offer_rows(offer))

        # an ended game: Rematch and Review (the follow-ups), then its review's steps, jumps and views
        await svc.set_option(HERE, ALICE, "rounds", "2")
        reply = await svc.start(HERE, ALICE)
        while reply.rematch is None:
            now = (await svc.status(HERE, ALICE)).turn
            who = now.to_act[0]
            reply = await svc.act(HERE, User(who, who), "keep" if now.public_actions else "bid 2")
        await check(reply, await game_cog.GameCog.components(cog, reply))
        gid = reply.rematch
        for user, step, seen_by in ((ALICE, 0, None), (ALICE, 3, None), (ALICE, 4, "bob"), (CAROL, 5, None)):
            review = await svc.review(HERE, user, gid, step, seen_by=seen_by)
            assert review.ok, review.private
            await check(review, ui.review_rows(review.review), page=review.review, user=user.id)

        # a running game's review (⏭ fetches the newest move) and the abandon confirmation
        await svc.rematch(HERE, BOB)
        await svc.join(HERE, ALICE)
        await svc.start(HERE, BOB)
        await svc.act(HERE, ALICE, "bid 1")
        await svc.act(HERE, BOB, "bid 2")
        review = await svc.review(HERE, ALICE, None, 1)
        await check(review, ui.review_rows(review.review), page=review.review, user="alice")
        question = await svc.abandon(HERE, BOB)
        assert question.ok and question.controls
        await check(question, ui.rows([ui.ConfirmAbandon(question.game_id)]))   # as cogs.game's /game abandon answers

        # a league's sign-up (#35): Join, Leave, Start
        from cogs import league as league_cog
        signup = await svc.leagues.new(Where("lg", guild="console"), ALICE, "seikatsu", "swiss", 2, "fast", True)
        await check(signup, league_cog.signup_rows(1))

    missing = kinds - seen
    assert not missing, f"Discord component kinds this walk never met (give each a case and a line): {missing}"
    assert seen <= kinds


def command_after(out: list[str], marker: str) -> str:
    """The command printed on the latest line that holds ``marker``: from the "/" after its ": " or "→ "."""
    line = next(text for text in reversed(out) if marker in text)
    return re.search(r"(?::|→) (/.*)$", line)[1]


async def test_a_console_game_to_its_end_then_review_and_rematch_by_the_printed_lines(tmp_path):
    out: list[str] = []
    async with Store(tmp_path / "c.db") as store:
        console = Console(TableService(store, render=False), tmp_path / "img", write=out.append)

        async def say(who: str, command: str) -> list[str]:
            start = len(out)
            assert await console.handle(f"{who}@t {command}")
            return out[start:]

        lobby = await say("alice", "/game new game:pebbles")
        await say("bob", command_after(lobby, "Join: "))
        await say("alice", command_after(lobby, "rounds (now 3)").replace("1|2|3|4|5", "1"))
        said = await say("alice", command_after(lobby, "Start: "))
        moves = 0
        while not any("Game over" in text for text in said):
            # whoever the message calls: a button line, or the private choice's
            called = next(text for text in said if text.startswith("  → @"))[len("  → @"):].split()
            buttons = [text for text in said if text.startswith("  ") and text.endswith("'s buttons, each with the "
                                                                                   "line that does the same:")]
            who = called[0]
            if buttons:
                first = said.index(buttons[0]) + 1          # the first button's line: label → the line to type
                said = await say(who, re.search(r" → (/.*)$", said[first])[1])
            else:
                assert any("`/game actions`" in text for text in said)
                mine = await say(who, "/game actions")
                assert "  Your choices, each with the line that plays it:" in mine
                said = await say(who, command_after(mine, "→ /game move"))      # the last choice's line
            moves += 1
            assert moves < 20
        end = said
        assert "  🔁 Rematch: /game rematch" in end and "  🔎 Review: /game review game:1" in end

        # the review, by its printed lines: first step, next, last, a jump, back to the first, another view
        page = await say("alice", command_after(end, "🔎 Review: "))
        assert "the start, " in page[0]
        page = await say("alice", command_after(page, "▶ next: "))
        assert "move 1 of" in page[0] and "  ◀ previous: /game review game:1 step:0" in page
        page = await say("alice", command_after(page, "⏭ last: "))
        assert "Game over" in "\n".join(page) and not any("▶ next" in text for text in page)
        jump = next(text for text in page if "previous move (" in text)
        page = await say("alice", command_after([jump], jump))
        step = re.search(r"previous move \((\d+)\)", jump)[1]
        assert f"move {step} of" in page[0]
        page = await say("alice", command_after(page, "⏮ first: "))
        assert "the start, " in page[0]
        page = await say("alice", command_after(page, "    bob: /game review"))
        assert "As bob saw it." in page[0]
        assert "  ▶ next: /game review game:1 step:1 seen_by:bob" in page       # the view kept when stepping on

        # the rematch, from the end's line; the others join and the host starts, by the lobby's lines
        lobby = await say("bob", command_after(end, "🔁 Rematch: "))
        assert "bob asks for a rematch of Pebbles" in lobby[0]
        await say("alice", command_after(lobby, "Join: "))
        started = await say("bob", command_after(lobby, "Start: "))
        assert any("Pebbles begins!" in text for text in started)


async def test_the_lines_speak_the_console_language(pebbles_round_in_italian):
    text = pebbles_round_in_italian
    assert "  Unisciti: /partita unisciti" in text
    assert "  Inizia (posti a caso): /partita inizia ordine:casuale" in text
    assert "    rounds (ora 1): /partita opzione nome:rounds valore:1|2|3|4|5" in text
    assert "  pulsanti di alice, ognuno con la riga che fa lo stesso:" in text
    assert "    keep → /partita mossa azione:keep" in text
    assert "  🔁 Rivincita: /partita rivincita" in text and "  🔎 Rivedi: /partita rivedi gioco:1" in text
    assert "  ▶ successiva: /partita rivedi gioco:1 passo:2" in text
    assert "[lo vede solo alice] **Pebbles** #1 — mossa 3 di 3" in text      # passo:ultima, the last move
    assert "Il tavolo ✓: /partita rivedi gioco:1 passo:3 visto_da:tavolo" in text


async def test_a_move_has_one_name_at_the_italian_console(tmp_path, italian):
    """Each button's line (#38): its label in the reader's language, then the exact line to type — the label
    never stands as the command, nor the canonical text as the label; the line typed plays that move."""
    out: list[str] = []
    async with Store(tmp_path / "c.db") as store:
        console = Console(TableService(store, render=False), tmp_path / "img", write=out.append)
        for line in ("alice@t /partita nuova gioco:wassamasaw", "bob@t /partita unisciti",
                     "alice@t /partita inizia"):
            assert await console.handle(line)
        out = "\n".join(out).split("\n")          # one printed line an entry
        head = next(i for i, t in enumerate(out) if re.fullmatch(
            r"  pulsanti di (alice|bob), ognuno con la riga che fa lo stesso:", t))
        who = out[head].split()[2].rstrip(",")          # whoever drafts first
        elements = {"legno": "wood", "fuoco": "fire", "terra": "earth", "metallo": "metal", "acqua": "water"}
        buttons = []
        for text in out[head + 1:]:
            m = re.fullmatch(r"    prendi (\w+) (\d) → /partita mossa azione:take (\w+) (\d)", text)
            if not m:
                break
            assert elements[m[1]] == m[3] and m[2] == m[4], text       # the same move, named twice
            buttons.append(text)
        assert len(buttons) >= 5           # ten dice, two of each element: a line for each different one
        assert not any("take " in t.split(" → ")[0] for t in buttons)
        said: list[str] = []
        console.write = said.append
        assert await console.handle(f"{who}@t " + buttons[0].split(" → ")[1])
        assert any(f"{who} prende" in t for t in said), said
