"""Checks every game must pass through the protocol alone (engine.core). Game tests call these."""

from __future__ import annotations

import json
import random

from engine import Game, IllegalAction

SECRET_KEYS = {"rng", "seed"}


def _keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _keys(v)


def check_view(game: Game, state, viewer) -> dict:
    """A view is JSON-serialisable and never carries the generator state or the seed."""
    v = game.view(state, viewer)
    json.dumps(v)
    leaked = SECRET_KEYS & set(_keys(v))
    assert not leaked, f"view for {viewer!r} shows {leaked}"
    return v


def play_random(game: Game, seats: list[str], seed: int, options: dict | None = None,
                max_steps: int = 20000, check_every: int = 1):
    """Play a whole game choosing uniformly among legal actions; check the protocol at every step.

    Returns (final state, list of (seat, action)).
    """
    rnd = random.Random(seed)
    state = game.new(seats, seed, options)
    log = []
    for step in range(max_steps):
        if game.result(state) is not None:
            assert game.to_act(state) == []
            res = game.result(state)
            assert set(res["winners"]) <= set(seats) and res["winners"]
            assert set(res["scores"]) == set(seats)
            json.dumps(res)
            return state, log
        acting = game.to_act(state)
        assert acting, "a running game must await someone"
        seat = rnd.choice(acting)
        actions = game.legal_actions(state, seat)
        assert actions, f"{seat} is to act but has no legal action"
        assert len(actions) == len(set(actions)), "legal actions repeat"
        action = rnd.choice(actions)
        if step % check_every == 0:
            before = game.dump(state)
            assert game.load(before) == state
            assert game.dump(game.load(before)) == before
            check_view(game, state, None)
            for s in seats:
                check_view(game, state, s)
            outsider = next((s for s in seats if s not in acting), None)
            if outsider is not None:
                try:
                    game.apply(state, outsider, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{outsider} acted out of turn")
            try:
                game.apply(state, seat, "\x00 not an action \x00")
            except IllegalAction:
                pass
            else:
                raise AssertionError("a malformed action was accepted")
            assert game.dump(state) == before, "apply mutated its argument"
        after = game.apply(state, seat, action)
        line = game.describe(state, seat, action, after)
        assert isinstance(line, str) and line
        state = after
        log.append((seat, action))
    raise AssertionError(f"game did not finish in {max_steps} steps")


def replay(game: Game, seats, seed, options, log):
    state = game.new(seats, seed, options)
    for seat, action in log:
        state = game.apply(state, seat, action)
    return state
