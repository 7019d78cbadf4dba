"""Wagara through the protocol alone: seeded random games, gem bookkeeping, texts that agree with apply.

Players choosing uniformly among all legal actions almost never bring a gem home against the current (a
canoe drifts into the rapids and the gems go back to pay for it), so such games do not end. The finishing
games are played by ``Purposeful``: the same engine, whose ``legal_actions`` keeps, for each canoe, the moves
a beginner would consider (land a gem; carry it upstream as far as possible; pick one up) and otherwise all
of them; everything else (apply, views, dump, load) is the real game's. Uniform play over the full action
lists is checked separately for a bounded number of steps.
"""

import json
import random

from engine import GAMES, IllegalAction
from engine.bots import play
from engine.wagara import COLOURS, Wagara, parse_move
from tests.protocol import check_view, play_random, replay
from tests.test_wagara import assert_gems_accounted

G = GAMES["wagara"]
PLAYERS = ["p1", "p2", "p3", "p4", "p5"]


class Purposeful(Wagara):
    """The real game with a beginner's preferences among legal actions; checks the gems after each action."""

    def apply(self, state, seat, action):
        after = super().apply(state, seat, action)
        assert_gems_accounted(after)
        return after

    def legal_actions(self, state, seat):
        """The computer player's subset (Wagara.bot_actions, on the registered engine), so games finish."""
        return GAMES["wagara"].bot_actions(state, seat)


PURPOSEFUL = Purposeful()


def _finish(seeds):
    """Play seeded games to the end: every action drawn from ``legal_actions`` and
    carried out by the engine's ``play`` on the state this loop owns (``apply`` only adds a copy, which the
    play_random games below exercise), with all 35 gems checked after every action."""
    out = []
    for seed in seeds:
        rnd = random.Random(seed)
        seats = PLAYERS[: 2 + seed % 4]
        state = G.new(seats, seed)
        steps = 0
        while G.result(state) is None:
            seat = rnd.choice(G.to_act(state))
            G.play(state, seat, rnd.choice(PURPOSEFUL.legal_actions(state, seat)))
            assert_gems_accounted(state)
            steps += 1
            assert steps < 5000, seed
        res = G.result(state)
        out.append((seed, state["round"], res["winners"], res["qualified"]))
    return out


def test_G1_to_G8_100_seeded_games_finish_with_all_35_gems_accounted_for():
    """100 games take every branch of engine/wagara.py and the gem count that 1,000 took (the first 5 games take
    them all: coverage.py's branch coverage, 828 arcs), 25 at each table size."""
    seeds = list(range(100))
    results = _finish(seeds)
    assert sorted(r[0] for r in results) == seeds
    for seed, _rounds, winners, qualified in results:
        assert winners and set(winners) <= set(qualified), seed


def test_seeded_games_through_the_protocol_checks():
    """play_random over the whole protocol (dump/load, views, out-of-turn and malformed actions)."""
    for seed in range(60):
        seats = PLAYERS[: 2 + seed % 4]
        state, log = play_random(PURPOSEFUL, seats, seed, check_every=7 + seed % 5)
        res = G.result(state)
        assert res["winners"] and set(res["winners"]) <= set(res["qualified"])
        assert len(log) > len(seats)


def test_same_seed_and_actions_replay_exactly():
    seats = PLAYERS[:4]
    state, log = play_random(PURPOSEFUL, seats, 77, check_every=5)
    again = replay(G, seats, 77, None, log)
    assert G.dump(again) == G.dump(state)
    assert G.result(again) == G.result(state)


def _candidate_texts(rnd, count):
    """Move texts from the grammar, legal or not."""
    ops = [[], ["unload"]] + [[f"load {c}"] for c in COLOURS] + [["unload", f"load {c}"] for c in COLOURS]
    moves = [[]] + [[f"{d} {k}"] for d in ("up", "down") for k in range(1, 10)] + [["land"]] + \
        [[f"launch to {k}"] for k in range(1, 10)]
    steals = [[]] + [[f"steal {c}"] for c in COLOURS]
    for _ in range(count):
        parts = rnd.choice(ops) + rnd.choice(moves) + rnd.choice(ops + steals)
        if parts:
            yield f"canoe {rnd.choice((1, 2))}: " + ", ".join(parts)


def test_uniform_play_over_every_legal_action_keeps_the_protocol_and_the_texts_agree_with_apply():
    """Uniformly random play (bounded: such games rarely end). At every step every legal action applies,
    texts are short lower-case words, canoe moves read back to themselves, and a sample of texts from the
    grammar is accepted exactly when it is listed."""
    checked = 0

    def checked_turn(game, state, seat, rnd):
        nonlocal checked
        actions = G.legal_actions(state, seat)
        assert actions and len(actions) == len(set(actions))
        for a in actions:
            assert len(a) <= 80 and a == " ".join(a.split())
            assert a.lower() == a or " from " in a
            if a.startswith("canoe"):
                assert parse_move(a).text() == a
            after = G.apply(state, seat, a)
            assert_gems_accounted(after)
            assert G.describe(state, seat, a, after)
        if state["phase"] == "act":
            listed = set(actions)
            for text in _candidate_texts(rnd, 50):
                try:
                    G.apply(state, seat, text)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (text in listed), (text, seat, G.dump(state))
                checked += 1
        for viewer in [None, *state["seats"]]:
            check_view(G, state, viewer)
        return rnd.choice(actions)

    rnd = random.Random(5)
    for seed in range(4):
        play(G, G.new(PLAYERS[: 2 + seed % 4], seed), rnd, 150, checked_turn)
    assert checked > 1000


def test_hidden_choices_never_reach_other_views_or_the_log():
    """Through whole games: while a card is chosen but not revealed, no other viewer's view and no log line
    changes if the card were any other the player could have chosen."""
    def checked_turn(game, state, seat, rnd):
        if state["phase"] == "choose" and len(G.legal_actions(state, seat)) > 1:
            outcomes = set()
            for a in G.legal_actions(state, seat):
                after = G.apply(state, seat, a)
                others = [json.dumps(G.view(after, v), sort_keys=True) for v in [None, *state["seats"]] if v != seat]
                outcomes.add((tuple(others), G.describe(state, seat, a, after)))
                assert G.private_actions(state, seat)
            reveals_own = G.to_act(state) == [seat] and state["buoy"] == seat   # the last choice reveals
            assert len(outcomes) == (len(G.legal_actions(state, seat)) if reveals_own else 1)
        return rnd.choice(PURPOSEFUL.legal_actions(state, seat))

    for seed in range(8):
        play(G, G.new(PLAYERS[: 2 + seed % 4], seed), random.Random(seed), 200, checked_turn)
