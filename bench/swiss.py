"""A Swiss keeps its word (issue #47): simulated leagues, and table/swiss.py against bbpPairings' FIDE Dutch.

    .venv/bin/python bench/swiss.py leagues [--seeds 6]               # sizes 4-20, every round count accepted
    .venv/bin/python bench/swiss.py compare --bbp /tmp/bbp [--tournaments 250] [--examples 2]

``leagues`` plays Swiss leagues of 4 to 20 entrants at every round count the league accepts
(``swiss.most_rounds``), ``--seeds`` leagues each, with random results (40 % wins, 40 % losses, 20 % draws)
and counts what must never happen: leagues short of their rounds, rematches, second byes, colour breaches
before the last round (three first moves, or seconds, running; firsts and seconds more than two apart), a
round 1 that does not alternate; with the slowest round's pairing time.

``compare`` needs bbpPairings (Apache-2.0, the FIDE Dutch engine lichess uses; not part of Teahouse): a
directory with its source or its built ``bbpPairings.exe``. Without one, get it so (about 20 s to build):

    git clone https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp && make -C /tmp/bbp

The bench builds it if only the source is there. It has bbpPairings generate whole random tournaments
(``--dutch -g CONFIG -o OUT.trf -s SEED``: 6 to 20 players, 3 to 7 rounds, 20 % draws, no forfeits), then
pairs each of their rounds with table/swiss.py given the same history, and prints how often the two pair the
same players, and with the same first movers; whose score gaps are larger; each kind of difference with the
criteria's order (the first on which the two pairings differ, as table/swiss.py ranks them) and examples;
and the tournaments bbpPairings could not finish (no pairing for a round under its absolute criteria).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from table import pairing as pr  # noqa: E402
from table import swiss as sw  # noqa: E402


# ----- simulated leagues -------------------------------------------------------------------------------------
def play_league(n: int, rounds: int, seed: int):
    """A league of ``n`` for ``rounds``: (history, per round (seconds, what was relaxed), rounds played)."""
    rnd = random.Random(seed)
    players = [f"p{i:02d}" for i in range(1, n + 1)]
    history: list[pr.Played] = []
    info = []
    for r in range(1, rounds + 1):
        began = time.process_time()
        try:
            got = sw.pair_round(players, history, rounds)
        except ValueError:
            return history, info, r - 1
        info.append((time.process_time() - began, got.relaxed))
        for t in got.tables:
            if len(t) == 1:
                history.append(pr.Played(r, t, {t[0]: pr.BYE_POINTS}))
                continue
            x = rnd.random()
            pts = (1.0, 0.0) if x < 0.4 else (0.0, 1.0) if x < 0.8 else (0.5, 0.5)
            history.append(pr.Played(r, t, dict(zip(t, pts, strict=True))))
    return history, info, rounds


def breaches(history: list[pr.Played], rounds: int) -> Counter:
    """Colour breaches before the last round: a third first move (or second) running, firsts and seconds more
    than two apart."""
    seq: dict[str, list[int]] = defaultdict(list)
    out: Counter = Counter()
    for g in sorted(history, key=lambda g: g.round):
        if g.bye:
            continue
        for i, s in enumerate(g.seats):
            seq[s].append(i)
            if g.round < rounds:
                c = seq[s]
                out["three running"] += len(c) >= 3 and c[-1] == c[-2] == c[-3]
                out["apart by more than two"] += abs(c.count(0) - c.count(1)) > 2
    return out


def alternates(history: list[pr.Played], n: int) -> bool:
    """Round 1 as the Dutch rules have it: board k of the top half against the bottom half, the first move
    to the higher seed on odd boards and to the lower on even ones (1–5, 6–2, 3–7, 8–4)."""
    seed = {f"p{i:02d}": i for i in range(1, n + 1)}
    games = sorted((g for g in history if g.round == 1 and not g.bye), key=lambda g: min(seed[s] for s in g.seats))
    half = len(games)
    for board, g in enumerate(games, 1):
        want = (f"p{board:02d}", f"p{board + half:02d}")
        if g.seats != (want if board % 2 else want[::-1]):
            return False
    return True


def leagues(seeds: int) -> int:
    figures: Counter = Counter()
    slowest, where = 0.0, None
    relaxed: Counter = Counter()
    started = time.time()
    for n in range(4, 21):
        for rounds in range(1, sw.most_rounds(n) + 1):
            for seed in range(seeds):
                history, info, played = play_league(n, rounds, seed * 1000 + n * 20 + rounds)
                figures["leagues"] += 1
                figures["rounds"] += played
                figures["short of their rounds"] += played < rounds
                figures["rematches"] += sum(v - 1 for v in pr.met(history).values())
                figures["second byes"] += sum(v - 1 for v in pr.byes_of(history).values())
                figures.update(breaches(history, rounds))
                figures["round 1 not alternating"] += not alternates(history, n)
                for r, (secs, what) in enumerate(info, 1):
                    if what:
                        relaxed[(what, "last round" if r == rounds else "before the last")] += 1
                    if secs > slowest:
                        slowest, where = secs, (n, rounds, r)
    print(f"{figures['leagues']} Swiss leagues (4-20 entrants, every round count accepted, {seeds} each), "
          f"{figures['rounds']} rounds, in {time.time() - started:.0f} s:")
    for key in ("short of their rounds", "rematches", "second byes", "three running", "apart by more than two",
                "round 1 not alternating"):
        print(f"  {key}: {figures[key]}")
    for (what, when), k in sorted(relaxed.items()):
        print(f"  rounds paired without {what} ({when}): {k}")
    print(f"  slowest round's pairing: {slowest * 1000:.0f} ms of processor time ({where[0]} players, "
          f"{where[1]} rounds, round {where[2]})")
    bad = sum(figures[k] for k in ("short of their rounds", "rematches", "second byes", "three running",
                                   "apart by more than two", "round 1 not alternating"))
    return 1 if bad else 0


# ----- bbpPairings -------------------------------------------------------------------------------------------
def engine(path: str) -> Path:
    where = Path(path)
    exe = where if where.is_file() else where / "bbpPairings.exe"
    if not exe.exists():
        if not (where / "Makefile").exists():
            sys.exit(f"no bbpPairings at {path}: get it with\n  git clone "
                     "https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp && make -C /tmp/bbp")
        print(f"building bbpPairings in {where} ...", flush=True)
        subprocess.run(["make", "-C", str(where)], check=True, capture_output=True)
    return exe


def read_trf(path: Path):
    """A TRF's players (pairing number → list per round of (opponent or None for a bye, 0 first / 1 second /
    None, points)) and the number of rounds paired."""
    text = path.read_bytes().decode().replace("\r", "\n")
    games: dict[int, list] = {}
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        number = int(line[4:8])
        row = []
        for i in range(91, len(line), 10):
            chunk = line[i:i + 8]
            if len(chunk) < 8 or not chunk.strip():
                break
            opp, colour, result = int(chunk[:4]), chunk[5], chunk[7]
            points = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "F": 1.0,
                      "Z": 0.0, "W": 1.0, "D": 0.5, "L": 0.0}[result]
            row.append((opp or None, {"w": 0, "b": 1}.get(colour), points))
        games[number] = row
    return games, max((len(r) for r in games.values()), default=0)


def rounds_of(games) -> list[list[tuple[str, ...]]]:
    """Each round's tables (first mover first), and points, as Played lists."""
    out = []
    for r in range(max(len(v) for v in games.values())):
        tables = []
        for p, row in games.items():
            if r >= len(row):
                continue
            opp, colour, points = row[r]
            if opp is None:
                tables.append(pr.Played(r + 1, (f"p{p:02d}",), {f"p{p:02d}": points}))
            elif colour == 0:
                q = games[opp][r]
                tables.append(pr.Played(r + 1, (f"p{p:02d}", f"p{opp:02d}"), {f"p{p:02d}": points,
                                                                             f"p{opp:02d}": q[2]}))
        out.append(tables)
    return out


class Judge:
    """A round's pairing weighed by table/swiss.py's criteria, in their order."""

    CRITERIA = ("rematches or second byes", "colour rule broken", "completion", "score gaps",
                "colour preferences", "floats", "order in the score groups")

    def __init__(self, players, history, rounds, initial):
        past, self.round = sw.read(players, history)
        order = sorted(players, key=lambda p: (-past[p].points, past[p].seed))
        self.graph = sw._Graph(order, past, self.round, self.round >= rounds, (self.round - 1) / 2, True, True,
                               len(players), initial)
        self.left = rounds - self.round

    def pairs(self, tables) -> list[tuple[str, str]]:
        rank = self.graph.rank
        return sorted(tuple(sorted((t + (sw.BYE,))[:2], key=lambda p: rank.get(p, len(rank)))) for t in tables)

    def vector(self, tables) -> tuple:
        g, past = self.graph, self.graph.past
        pairs = self.pairs(tables)
        g.recount(pairs)               # the order within score groups as this pairing brings players down
        again = sum(1 for a, b in pairs if (b in past[a].opponents) or (b == sw.BYE and past[a].byes))
        broken = 0                      # the Dutch rules' C.3: two who must have the same colour met
        for t in tables:
            if len(t) == 2:
                (ca, sa), (cb, sb) = past[t[0]].preference(), past[t[1]].preference()
                broken += sa == sb == 3 and ca == cb and not (g.last and max(past[t[0]].points,
                                                                            past[t[1]].points) > g.lead)
        if self.left > 0:
            complete = 0 if self.completes(tables) else 1
        else:
            complete = 0
        gaps = sorted((round(2 * abs(past[a].points - (past[b].points if b != sw.BYE else g.low - 0.5)))
                       for a, b in pairs), reverse=True)
        colour = [0, 0, 0]              # colours wanted absolutely, at all, strongly, not granted
        floats = 0
        order = 0
        for t, (a, b) in zip(sorted(tables, key=lambda t: self.pairs([t])), pairs, strict=True):
            for i, p in enumerate(t if len(t) == 2 else ()):
                want, strength = past[p].preference()
                if want is not None and want != i:
                    colour[0] += strength == 3
                    colour[1] += 1
                    colour[2] += strength >= 2
            w = g.weight(a, b)
            rest = g.top - w
            floats += (rest % g.k_colour) // g.k_float
            order += rest % g.k_float
        return (again, broken, complete, tuple(gaps), tuple(colour), floats, order)

    def completes(self, tables) -> bool:
        g = self.graph
        vertices = g.nodes
        index = {p: i for i, p in enumerate(vertices)}
        past = g.past
        allowed, states = [], []
        side = {}
        for t in tables:
            for i, p in enumerate(t):
                side[p] = i if len(t) == 2 else None
        for p in vertices:
            if p == sw.BYE:
                allowed.append(sum(1 << index[q] for q in g.order if not past[q].byes and len(
                    next(t for t in tables if q in t)) == 2))
                states.append(None)
                continue
            opp = set(past[p].opponents) | {q for t in tables if p in t for q in t if q != p}
            mask = sum(1 << index[q] for q in g.order if q != p and q not in opp)
            had_bye = past[p].byes or any(t == (p,) for t in tables)
            if not had_bye and sw.BYE in index:
                mask |= 1 << index[sw.BYE]
            allowed.append(mask)
            states.append(sw._after(past[p].colours, side[p]))
        ok, _chosen = sw.completes(allowed, states, self.left, self.left - 1, nodes=10 * sw.SEARCH_NODES)
        return bool(ok)


def show(judge: Judge, tables) -> str:
    return ", ".join("–".join(t) if len(t) == 2 else f"{t[0]} bye" for t in
                     sorted(tables, key=lambda t: min(judge.graph.rank[p] for p in t)))


def standing(judge: Judge) -> str:
    past = judge.graph.past
    return "; ".join(f"{p} {past[p].points:g} {''.join('FS'[c] for c in past[p].colours) or '-'}"
                     for p in judge.graph.order)


def compare(bbp: str, tournaments: int, seed: int, examples: int) -> int:
    exe = engine(bbp)
    rnd = random.Random(seed)
    totals: Counter = Counter()
    kinds: Counter = Counter()
    shown: dict[str, list[str]] = defaultdict(list)
    gaps = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(tournaments):
            n, rounds = rnd.randint(6, 20), rnd.randint(3, 7)
            rounds = min(rounds, sw.most_rounds(n))
            config = Path(tmp) / "config.txt"
            config.write_text(f"PlayersNumber={n}\nRoundsNumber={rounds}\nDrawPercentage=20\n"
                              "ForfeitRate=1000000000\nRetiredRate=1000000000\nHalfPointByeRate=1000000000\n")
            out = Path(tmp) / "t.trf"
            out.unlink(missing_ok=True)
            run = subprocess.run([str(exe), "--dutch", "-g", str(config), "-o", str(out), "-s", str(seed + k)],
                                 capture_output=True, text=True)
            totals["tournaments"] += 1
            if not out.exists():
                totals["bbp failed to generate"] += 1
                continue
            games, paired = read_trf(out)
            initial = games[1][0][1] if games[1] and games[1][0][1] is not None else 0    # bbp draws it
            if run.returncode == 1:
                totals["tournaments bbpPairings could not finish"] += 1
                shown["bbp could not finish"].append(f"{n} players, {rounds} rounds: no pairing for round "
                                                     f"{paired + 1} ({run.stderr.strip().splitlines()[-1][-90:]})")
            players = [f"p{i:02d}" for i in sorted(games)]
            history: list[pr.Played] = []
            for r, theirs in enumerate(rounds_of(games), 1):
                ours = sw.pair_round(players, history, rounds, initial=initial)
                judge = Judge(players, history, rounds, initial)
                bbp_tables = [t.seats for t in theirs]
                totals["rounds"] += 1
                same = judge.pairs(ours.tables) == judge.pairs(bbp_tables)
                totals["same players"] += same
                totals["same players and first movers"] += same and sorted(ours.tables) == sorted(bbp_tables)
                ov, bv = judge.vector(ours.tables), judge.vector(bbp_tables)
                gap_ours, gap_bbp = sum(ov[3]), sum(bv[3])
                gaps["ours larger"] += gap_ours > gap_bbp
                gaps["ours smaller"] += gap_ours < gap_bbp
                if ours.relaxed:
                    totals[f"rounds ours paired without {ours.relaxed}"] += 1
                if not same or sorted(ours.tables) != sorted(bbp_tables):
                    if same:
                        kind = "first movers only"
                    else:
                        i = next((i for i in range(len(ov)) if ov[i] != bv[i]), None)
                        if i is None:
                            kind = "equal by every criterion (another of the pairings as good)"
                        elif Judge.CRITERIA[i] == "order in the score groups":    # ours only approximates it
                            kind = "the same on every criterion but the order within score groups"
                        else:
                            kind = f"{Judge.CRITERIA[i]}: {'ours better' if ov[i] < bv[i] else 'bbpPairings better'}"
                    kinds[kind] += 1
                    if len(shown[kind]) < examples:
                        shown[kind].append(
                            f"{n} players, {rounds} rounds, round {r}. Standings (points, first/second moves): "
                            f"{standing(judge)}\n      bbpPairings: {show(judge, bbp_tables)}\n      ours:        "
                            f"{show(judge, ours.tables)}\n      criteria (ours | bbp): {ov} | {bv}")
                history += theirs
    print(f"{totals['tournaments']} tournaments generated by bbpPairings (6-20 players, 3-7 rounds), "
          f"{totals['rounds']} rounds paired again by table/swiss.py with the same history:")
    r = totals["rounds"] or 1
    print(f"  same players: {totals['same players']} ({100 * totals['same players'] / r:.0f} %); same players "
          f"and first movers: {totals['same players and first movers']} "
          f"({100 * totals['same players and first movers'] / r:.0f} %)")
    print(f"  sum of score gaps: ours larger in {gaps['ours larger']} rounds, smaller in {gaps['ours smaller']}")
    for key in sorted(k for k in totals if k.startswith(("rounds ours", "tournaments bbp", "bbp failed"))):
        print(f"  {key}: {totals[key]}")
    print("  kinds of difference (the first criterion on which the pairings differ):")
    for kind, count in kinds.most_common():
        print(f"    {count:4d}  {kind}")
    for kind, lines in shown.items():
        print(f"\n  {kind}:")
        for line in lines:
            print(f"    {line}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    lg = sub.add_parser("leagues")
    lg.add_argument("--seeds", type=int, default=6)
    cp = sub.add_parser("compare")
    cp.add_argument("--bbp", required=True, help="bbpPairings' directory (source or built) or its executable")
    cp.add_argument("--tournaments", type=int, default=250)
    cp.add_argument("--seed", type=int, default=47)
    cp.add_argument("--examples", type=int, default=2)
    args = ap.parse_args()
    if args.what == "leagues":
        return leagues(args.seeds)
    return compare(args.bbp, args.tournaments, args.seed, args.examples)


if __name__ == "__main__":
    sys.exit(main())
