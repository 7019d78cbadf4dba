"""Pebbles: a tiny game that exercises the whole protocol in tests (not one of the five games).

Each round every player secretly bids 1–3 at the same time (a simultaneous, hidden choice). When all have
bid, the bids are revealed and a die is rolled (randomness). The highest bidder (ties: the earliest seat)
then decides alone: ``keep`` the die as points, or ``reroll`` once and keep the new value (a sequential
decision). After ``rounds`` rounds the most points win; ties are shared.
"""

from __future__ import annotations

from engine import Game, IllegalAction, Rng, register


class Pebbles(Game):
    key = "pebbles"
    title = "Pebbles"
    min_players = 2
    max_players = 4
    options = {"rounds": 3}
    option_choices = {"rounds": [1, 2, 3, 4, 5]}

    def setup(self, state, rng):
        state.update(round=1, phase="bid", bids={}, last_bids={}, die=None, claimant=None,
                     scores={s: 0 for s in state["seats"]}, over=False)

    def to_act(self, state):
        if state["over"]:
            return []
        if state["phase"] == "bid":
            return [s for s in state["seats"] if s not in state["bids"]]
        return [state["claimant"]]

    def waiting_message(self, state, seat):
        if state["phase"] == "bid":
            return "You have already bid this round; waiting for the others."
        return "It is not your turn."

    def private_actions(self, state, seat):
        return state["phase"] == "bid"   # a secret bid is chosen privately

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "bid":
            return ["bid 1", "bid 2", "bid 3"]
        return ["keep", "reroll"]

    def play(self, state, seat, action):
        rng = Rng(state)
        if state["phase"] == "bid":
            parts = action.split()
            if len(parts) != 2 or parts[0] != "bid" or parts[1] not in ("1", "2", "3"):
                raise IllegalAction("Bid with 'bid 1', 'bid 2' or 'bid 3'.")
            state["bids"][seat] = int(parts[1])
            if len(state["bids"]) == len(state["seats"]):
                best = max(state["bids"].values())
                state["claimant"] = next(s for s in state["seats"] if state["bids"][s] == best)
                state["last_bids"], state["bids"] = state["bids"], {}
                state["die"] = rng.die()
                state["phase"] = "claim"
            return
        if action not in ("keep", "reroll"):
            raise IllegalAction("Say 'keep' or 'reroll'.")
        if action == "reroll":
            state["die"] = rng.die()
        state["scores"][seat] += state["die"]
        state["claimant"], state["phase"] = None, "bid"
        if state["round"] >= state["options"]["rounds"]:
            state["over"] = True
        else:
            state["round"] += 1

    def view(self, state, viewer):
        v = {
            "round": state["round"],
            "phase": state["phase"],
            "scores": dict(state["scores"]),
            "chosen": {s: s in state["bids"] for s in state["seats"]},
            "last_bids": dict(state["last_bids"]),
            "die": state["die"],
            "claimant": state["claimant"],
        }
        if viewer in state["bids"]:
            v["my_bid"] = state["bids"][viewer]
        return v

    def result(self, state):
        if not state["over"]:
            return None
        best = max(state["scores"].values())
        return {"winners": [s for s in state["seats"] if state["scores"][s] == best],
                "scores": dict(state["scores"])}

    def describe(self, before, seat, action, after):
        if before["phase"] == "bid":
            if after["phase"] == "claim":
                bids = ", ".join(f"{s} {b}" for s, b in after["last_bids"].items())
                return f"{seat} bids. Revealed: {bids}; the die shows {after['die']}."
            return f"{seat} bids."
        gained = after["scores"][seat] - before["scores"][seat]
        return f"{seat} {'keeps' if action == 'keep' else 'rerolls and keeps'} {gained}."


PEBBLES = register(Pebbles())
