"""The end of the game as the contract's Outcome: the group wins or loses together.

Winners are every player's colour on a victory, nobody on a loss. Each player's lines say how it ended, how many
demons their Obelisks captured, and the rulebook's advice for the next game ("Decrease the difficulty by one" after
a loss, "Increase difficulty by one" after a victory). Lines are English text built from `LINES` (the game's
`line_templates`, translated by the UI) with their params.
"""
from __future__ import annotations

from companion.games.contract import Outcome, OutcomeLine, PlayerResult
from companion.games.obelisk import words
from companion.games.obelisk.box import DIFFICULTIES
from companion.games.obelisk.model import cell_name

LINES = {
    "won": "All {n} Stone Demons captured in {nights} Nights: the group wins",
    "lost.off-map": "Night {night}: {demon} walked off the map from {cell}",
    "lost.empty": "Night {night}: {demon} walked from {cell} into the empty space at {target}",
    "lost.mountain": "Night {night}: {demon} walked from {cell} into the Mountain at {target}",
    "lost.loop": "Night {night}: {demon} stepped on {target} a second time, a loop",
    "caught": {"one": "Your Obelisks captured 1 demon", "other": "Your Obelisks captured {n} demons"},
    "next": "Next game: {level}",
}
LEVEL = {
    "even_easier": "Even Easier", "very_easy": "Very Easy", "easy": "Easy", "mostly_easy": "Mostly Easy",
    "normal": "Normal", "almost_hard": "Almost Hard", "hard": "Hard", "very_hard": "Very Hard",
    "even_harder": "Even Harder",
}


def next_difficulty(difficulty: str, won: bool) -> str:
    i = DIFFICULTIES.index(difficulty) + (1 if won else -1)
    return DIFFICULTIES[min(max(i, 0), len(DIFFICULTIES) - 1)]


def ending_line(s) -> OutcomeLine:
    if s.result == "won":
        params = {"n": s.setup.horde.total, "nights": s.day}
        return OutcomeLine(LINES["won"].format(**params), None, "won", params)
    loss = s.loss
    params = {"night": s.day, "demon": words.demon(loss.colour), "cell": cell_name(loss.at),
              "target": cell_name(loss.target) if 0 <= loss.target[0] < 5 and 0 <= loss.target[1] < 5 else ""}
    key = f"lost.{loss.end}"
    return OutcomeLine(LINES[key].format(**params), None, key, params)


def outcome(s) -> Outcome | None:
    if s.phase != "over":
        return None
    won = s.result == "won"
    end = ending_line(s)
    level = next_difficulty(s.setup.difficulty, won)
    players = []
    for i, (name, colour) in enumerate(s.setup.players):
        n = s.caught[i]
        caught = LINES["caught"]["one" if n == 1 else "other"].format(n=n)
        lines = (end, OutcomeLine(caught, None, "caught", {"n": n}),
                 OutcomeLine(LINES["next"].format(level=LEVEL[level]), None, "next", {"level": level}))
        players.append(PlayerResult(name=name, total=None, lines=lines, extra={"colour": colour, "caught": n}))
    detail = {"result": s.result, "why": end.rule, "nights": s.day, "captured": sum(s.caught),
              "next_difficulty": level,
              "loss": None if s.loss is None else {"demon": s.loss.demon, "colour": s.loss.colour,
                                                   "end": s.loss.end, "at": list(s.loss.at),
                                                   "target": list(s.loss.target), "step": s.loss.step}}
    return Outcome(players=tuple(players), winners=s.setup.colours if won else (), detail=detail)
