"""Issue #16, "Right on every page": the players' guides say what RULES.md says, and the table's texts read
right (game-over results, private hands, exported logs, image descriptions)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine import GAMES
from store import Store
from table import TableService


def wagara_over(collections):
    G = GAMES["wagara"]
    state = G.new(list(collections), 1)
    for seat, gems in collections.items():
        for colour, n in gems.items():
            state["collections"][seat][colour] += n
            state["sites"][colour][colour] -= n
    state["over"] = True
    state["phase"] = "over"
    return G, state


def test_G7_result_ranks_qualifiers_first_and_says_who_did_not_qualify(svc):
    # bob holds 6 gems of 3 colours (not qualified); ann 5 colours (qualified): ann wins and is listed first
    G, state = wagara_over({"ann": {c: 1 for c in ("violet", "white", "yellow", "blue", "red")},
                            "bob": {"violet": 3, "white": 3}, "cy": {"red": 4}})
    res = G.result(state)
    assert res["winners"] == ["ann"] and res["ranking"] == ["ann", "cy", "bob"]
    row = SimpleNamespace(names={"ann": "Ann", "bob": "Bob", "cy": "Cy"})
    text = svc._result_text(row, G, state)
    assert "Ann wins" in text
    assert text.index("Ann 5 gems") < text.index("Cy 4 gems") < text.index("Bob 6 gems")
    assert "Bob 6 gems (value 9), not qualified" in text and "Ann 5 gems (value 15)," in text
    assert "Only players holding 5 colours, 4 of one colour or 7 gems could win" in text


def test_G7_equal_gems_the_higher_value_wins(svc):
    G, state = wagara_over({"ann": {"violet": 4}, "bob": {"red": 4}})
    res = G.result(state)
    assert res["winners"] == ["bob"] and res["ranking"] == ["bob", "ann"]


def test_S3_a_four_player_team_win_reads_as_a_team_win(svc):
    G = GAMES["seikatsu"]
    res = {"winners": ["bob", "dee"], "scores": {"ann": 114, "bob": 117, "cy": 114, "dee": 117},
           "teams": [["ann", "cy"], ["bob", "dee"]]}
    state = {}
    row = SimpleNamespace(names={"ann": "Ann", "bob": "Bob", "cy": "Cy", "dee": "Dee"})
    text = svc._result_text(row, SimpleNamespace(result=lambda s: res), state)
    assert "Team Bob and Dee wins!" in text and "Shared" not in text
    assert "team Bob and Dee 117, team Ann and Cy 114" in text
    res["winners"] = ["ann", "bob", "cy", "dee"]
    text = svc._result_text(row, SimpleNamespace(result=lambda s: res), state)
    assert "Shared victory: team Ann and Cy and team Bob and Dee" in text
    assert G.key == "seikatsu"


def test_S3_seikatsu_result_names_the_teams_at_four_only():
    from tests.test_seikatsu import full_board, position
    board = full_board()
    del board["a1"]
    state = position(n=4, board=board, hands={"ann": [], "bob": ["sparrow marigold"], "cy": [], "dee": []},
                     bag=[], turn=1)
    end = GAMES["seikatsu"].apply(state, "bob", "place sparrow marigold a1")
    assert GAMES["seikatsu"].result(end)["teams"] == [["ann", "cy"], ["bob", "dee"]]


# ----- the guides: long ones come in several messages ---------------------------------------------------------

def test_pages_cut_at_paragraphs_within_the_limit():
    from table.replies import pages
    text = "\n\n".join(f"para {i} " + "x" * 600 for i in range(7))
    parts = pages(text)
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert "\n\n".join(parts) == text                                 # nothing lost, cut only between paragraphs
    assert all(p.startswith("para ") for p in parts)
    assert pages("short") == ["short"]
    long_para = "\n".join("y" * 150 for _ in range(30))               # one paragraph over the limit: cut at lines
    assert all(len(p) <= 2000 for p in pages(long_para)) and "".join(pages(long_para)).count("y") == 4500


@pytest.mark.parametrize("key", ["wagara", "mywuxing", "seikatsu", "wassamasaw", "wurrm"])
def test_every_guide_fits_in_pages_of_2000(key):
    from table.replies import pages
    text = (__import__("pathlib").Path("data/rules") / f"{key}.md").read_text(encoding="utf-8")
    parts = pages(text)
    assert all(0 < len(p) <= 2000 for p in parts)
    assert "\n\n".join(parts) == text.strip()


async def test_game_rules_sends_a_guide_as_private_cards_of_at_most_4000_characters(tmp_path):
    """A guide is one private card (every guide fits Discord's 4,000 characters of a card); a longer text is
    cut at paragraphs into several, nothing lost."""
    from cogs.runner import TeahouseBot
    from tests.fakediscord import FakeDiscord
    text = (__import__("pathlib").Path("data/rules/wagara.md")).read_text(encoding="utf-8")
    longer = "\n\n".join([text.strip()] * 4)
    assert len(text) <= 4000 < len(longer)
    async with FakeDiscord() as fake:
        store = Store(tmp_path / "bot.db")
        bot = TeahouseBot(store, service=TableService(store))
        async with fake.run(bot):
            r = await fake.slash("alice", "general", "game rules", options={"game": "wagara"})
            assert r.ephemeral and r.message.components_v2 and r.said == text.strip() and not r.followups
            bot.service.rules = lambda key: longer
            r = await fake.slash("alice", "general", "game rules", options={"game": "wagara"})
            await r.wait_followups(1)
            assert all(m.ephemeral and m.components_v2 and len(m.said) <= 4000 for m in r.messages)
            assert "\n\n".join(m.said for m in r.messages) == longer


def guide(key: str) -> str:
    return " ".join((__import__("pathlib").Path("data/rules") / f"{key}.md").read_text(encoding="utf-8").split())


def test_wagara_guide_says_G4_G7_G9_G10():
    text = guide("wagara")
    assert "Most gems wins" not in text
    assert "Only those who qualify can win: most gems, then the higher gem value; then the win is shared" in text  # G7
    assert "positions 3 violet, 4 white, 5 yellow, 6 blue, 7 red" in text                                   # G1
    assert "cannot paddle past 9" in text and "leftover points are lost" in text                          # G4
    assert "you may load only a different colour" in text                                                 # G4 reload
    assert "*stops exactly* on a rival canoe" in text and "never in passing" in text                      # G4 steal
    assert "at the start of your action (any card) you may bring one canoe back" in text                  # G4 rapids
    assert "one comes back free" in text
    assert "may not be loaded by your other canoe in the same turn" in text                               # G9
    assert "an empty canoe lands only with its last point" in text                                        # G10


# ----- MyWuXing: options and counters ------------------------------------------------------------------------

def test_X8_power_cards_with_learn_are_refused_at_creation():
    from engine import IllegalAction
    G = GAMES["mywuxing"]
    with pytest.raises(IllegalAction, match="only in Think WuXing"):
        G.new(["a", "b"], 1, {"power_cards": "on"})
    with pytest.raises(IllegalAction, match="only in Think WuXing"):
        G.check_options({"version": "learn", "power_cards": "on"})
    assert G.new(["a", "b"], 1, {"version": "think", "power_cards": "on"})["options"]["power_cards"] == "on"


async def test_X8_the_lobby_refuses_power_cards_with_learn(svc):
    from table import User, Where
    here, alice = Where("chan", guild="g"), User("111", "Alice")
    assert (await svc.open_table(here, alice, "mywuxing")).ok
    r = await svc.set_option(here, alice, "power_cards", "on")
    assert not r.ok and "only in Think WuXing" in r.private[0].text
    assert (await svc.set_option(here, alice, "version", "think")).ok
    assert (await svc.set_option(here, alice, "power_cards", "on")).ok


def test_X8_reaction_time_defaults_to_a_day_and_keeps_live_choices():
    G = GAMES["mywuxing"]
    assert G.options["reaction_time"] == 86400
    choices = G.option_choices["reaction_time"]
    assert 86400 in choices and {10, 20, 30, 60} <= set(choices)
    state = G.new(["a", "b", "c"], 1, {"version": "think", "power_cards": "on"})
    assert state["options"]["reaction_time"] == 86400
    # the lobby's select of options stays within Discord's 25 entries
    assert sum(len(v) for v in G.option_choices.values()) <= 25


def test_seconds_text_reads_well_for_long_windows():
    from table.service import seconds_text
    assert seconds_text(20) == "20 seconds" and seconds_text(90) == "90 seconds"
    assert seconds_text(300) == "5 minutes" and seconds_text(5400) == "1 hour 30 minutes"
    assert seconds_text(86400) == "24 hours" and seconds_text(3600) == "1 hour"


def test_M12_a_lone_dragon_that_can_never_be_matched_is_not_offered():
    from engine import IllegalAction
    from tests.test_mywuxing import power_position
    G = GAMES["mywuxing"]
    s = power_position({"cy": ["star", "wood"], "dee": ["dragon", "earth"]})
    s = G.apply(s, "cy", "activate star")
    assert "counter with dragon" in G.legal_actions(s, "dee")          # ann and bob may still answer
    s = G.apply(G.apply(s, "ann", "pass"), "bob", "pass")
    assert G.to_act(s) == ["dee"]
    assert G.legal_actions(s, "dee") == ["pass"]                        # the last to answer, none pledged
    with pytest.raises(IllegalAction, match="one Dragon alone does not cancel"):
        G.apply(s, "dee", "counter with dragon")


def test_M12_a_dragon_that_completes_a_pledged_one_is_offered_to_the_last():
    from tests.test_mywuxing import power_position
    G = GAMES["mywuxing"]
    s = power_position({"cy": ["star", "wood"], "dee": ["dragon", "earth"]})
    s["hands"]["ann"] = ["dragon"]
    s = G.apply(s, "cy", "activate star")
    s = G.apply(G.apply(s, "dee", "counter with dragon"), "bob", "pass")
    assert G.legal_actions(s, "ann") == ["pass", "counter with dragon"]
    s = G.apply(s, "ann", "counter with dragon")
    assert s["last_hand"]["reaction"]["counter"] == "dragons"


def test_mywuxing_guide_says_X3_X4_X7_X8():
    text = guide("mywuxing")
    assert "each player discards a card to the Void too" in text                               # X3 Star U
    assert "**two equal cards** (also two Dragons) draw" in text                                # X4.2
    assert "the destroyer's card goes back under its owner's deck" in text                      # X4.4
    assert "**Player against player**" in text and "either winner's own card goes back under its deck" in text
    assert "**1** the next player" in text and "**2** any player" in text and "**3** any player" in text  # X7
    assert "Think only — refused with Learn" in text                                            # X8
    assert "a day by default" in text


# ----- Seikatsu ---------------------------------------------------------------------------------------------

def test_seikatsu_guide_fountain_example_is_a_real_corner_and_rows_are_explained():
    import re

    from engine.seikatsu import CORNERS, ROWS
    text = guide("seikatsu")
    example = re.search(r"corner:(\w\d \w\d \w\d)", text).group(1)
    assert tuple(example.split()) in CORNERS and "d4" not in example                      # S1: d4 is the pond
    assert "run towards your pagoda" in text and "alternate corners" in text               # S1, S7
    assert ["a4", "b4", "c4", "e3", "f2", "g1"] in ROWS["pink"]
    assert ["a1", "b2", "c3", "e4", "f4", "g4"] in ROWS["green"]
    assert "for blue the columns a–g" in text and ["c1", "c2", "c3", "c4", "c5", "c6"] in ROWS["blue"]
    assert "team of two at four players, sharing one score" in text                         # S3
    assert len((__import__("pathlib").Path("data/rules/seikatsu.md")).read_text(encoding="utf-8")) <= 2000


def test_S9_engine_hints_name_a_real_corner():
    from engine import IllegalAction
    from engine.seikatsu import CORNERS
    from tests.test_seikatsu import fountain_position
    G = GAMES["seikatsu"]
    state = fountain_position()
    for bad in ("fountain c5", "dance"):
        with pytest.raises(IllegalAction) as e:
            G.apply(state, "ann", bad)
        assert "'fountain b3 c3 c4'" in str(e.value)
    assert ("b3", "c3", "c4") in CORNERS


async def test_D7_seikatsu_fountain_command_with_put_back_works_when_the_bag_is_empty():
    from table.commands import seikatsu_fountain
    from tests.test_seikatsu import fountain_position
    G = GAMES["seikatsu"]

    class Ctx:                                       # the command's view of the table: legal actions after steps
        def __init__(self, state):
            self.state = state

        async def legal(self, steps=()):
            s = self.state
            for step in steps:
                s = G.apply(s, "ann", step)
            return G.legal_actions(s, "ann") if "ann" in G.to_act(s) else []

    empty = fountain_position()
    empty["bag"] = []
    steps = await seikatsu_fountain(Ctx(empty), "c5 d5 d6", "crane", "put back koi")
    assert steps == ["fountain c5 d5 d6", "take crane card"]
    s = empty
    for step in steps:
        s = G.apply(s, "ann", step)
    assert G.to_act(s) == ["bob"] and s["cards"]["pink"] == ["crane"]
    full = fountain_position()
    steps = await seikatsu_fountain(Ctx(full), "c5 d5 d6", "crane", "put back koi")
    assert steps == ["fountain c5 d5 d6", "take crane card", "put back koi"]


# ----- /game hand and export ---------------------------------------------------------------------------------

async def test_game_hand_shows_only_meaningful_private_values_in_words(svc):
    from table import User, Where
    here, ann, bob = Where("chan", guild="g"), User("111", "Ann"), User("222", "Bob")
    assert (await svc.open_table(here, ann, "wagara")).ok
    assert (await svc.join(here, bob)).ok
    assert (await svc.start(here, ann)).ok
    text = (await svc.hand(here, ann)).private[0].text
    assert "None" not in text and "my_choice" not in text and "\nhand:" not in text
    assert "Your hand: 1, 2, 3, 4, 5, 6, cloud" in text
    assert (await svc.act(here, ann, "play 4")).ok
    text = (await svc.hand(here, ann)).private[0].text
    assert "Your choice this round: 4" in text and "Your hand: 1, 2, 3, 5, 6, cloud" in text


async def test_export_lines_use_display_names(svc):
    import json

    from table import User, Where
    here, ann, bob = Where("chan", guild="g"), User("111", "Ann"), User("222", "Bob")
    assert (await svc.open_table(here, ann, "wagara")).ok
    assert (await svc.join(here, bob)).ok
    assert (await svc.start(here, ann)).ok
    assert (await svc.act(here, ann, "play 4")).ok
    data = json.loads((await svc.export(here, bob)).private[0].image.data)
    lines = [e["line"] for e in data["log"]]
    assert any("Ann chooses a paddle card" in line for line in lines), lines
    assert not any("111" in line or "222" in line for line in lines)


# ----- alt text: every picture in words ---------------------------------------------------------------------

@pytest.mark.parametrize("key, options, n", [("wagara", {}, 3), ("mywuxing", {"version": "think"}, 3),
                                             ("seikatsu", {}, 4), ("wassamasaw", {}, 2), ("wurrm", {}, 2)])
def test_every_game_summarises_its_public_view_in_words(key, options, n):
    import random
    G = GAMES[key]
    seats = ["ann", "bob", "cy", "dee"][:n]
    state = G.new(seats, 5, options)
    rnd = random.Random(5)
    for _ in range(3000):
        text = G.summary(G.view(state, None))
        assert text.startswith(G.title) and 0 < len(text) <= 1024
        if G.result(state):
            assert "Game over" in text
            break
        acting = G.to_act(state)
        assert any(s in text for s in acting)                          # whose turn it is
        seat = rnd.choice(acting)
        state = G.apply(state, seat, rnd.choice(G.bot_actions(state, seat)))


def test_wagara_summary_says_what_happened_and_the_gems_but_never_a_hidden_card():
    from tests.test_wagara import position
    G = GAMES["wagara"]
    state = position([("ann", 1, "river", 1, "red")], cards={"ann": "1", "bob": "6", "cy": "cloud"})
    state = G.apply(state, "ann", "canoe 1: land")
    text = G.summary(G.view(state, None))
    assert "ann's canoe 1 lands and delivers red" in text and "ann 1 gem, bob 0 gems" in text
    assert "6" not in text.replace("weather", "") and "cloud" not in text.lower()   # bob's and cy's cards hidden


async def test_images_reach_discord_with_their_description(tmp_path):
    from cogs.runner import TeahouseBot
    from tests.fakediscord import FakeDiscord
    from tests.support import answer
    async with FakeDiscord() as fake:
        store = Store(tmp_path / "bot.db")
        async with fake.run(TeahouseBot(store, service=TableService(store))):
            r = await fake.slash("alice", "general", "game new", options={"game": "wagara"})
            await answer(await fake.click("bob", r.message, label="Join"))
            started = await answer(await fake.click("alice", r.message, label="Start"))
            alt = started.attachments[0].description
            assert alt and alt.startswith("Wagara.") and "Round 1" in alt
            assert "Alice" in alt and "Bob" in alt                      # display names, not seat ids
            assert str(fake.user("alice").id) not in alt
            picker = await answer(await fake.click("alice", started, label="Choose (only you see it)"))
            if picker.attachments:                                      # the private picture is described too,
                assert picker.attachments[0].description                # from public facts only
                assert "cloud" not in picker.attachments[0].description.lower()


async def test_X8_the_default_reaction_window_reads_in_hours(svc):
    from table import User, Where
    here = Where("chan", guild="g")
    users = [User("111", "Ann"), User("222", "Bob"), User("333", "Cy")]
    game = GAMES["mywuxing"]
    assert (await svc.open_table(here, users[0], "mywuxing", {"version": "think", "power_cards": "on"})).ok
    for u in users[1:]:
        assert (await svc.join(here, u)).ok
    assert (await svc.start(here, users[0])).ok
    for _ in range(400):                       # play until a reaction window opens
        state = game.load((await svc.store.open_game("chan")).state)
        if state["phase"] in ("react", "counter"):
            break
        seat = game.to_act(state)[0]
        opened = await svc.act(here, next(u for u in users if u.id == seat), game.legal_actions(state, seat)[0])
        assert opened.ok
    else:
        pytest.skip("no reaction window in this game")
    assert "⏱ 24 hours to answer; silence counts as 'pass'" in opened.text
