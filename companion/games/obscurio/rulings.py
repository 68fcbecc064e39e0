"""The rules profile: every RULINGS.md decision this engine applies, in words a group can check at the table.

Each entry is a `Ruling(id, title, summary, field)` (companion/games/rulings.py): the setup screen and
`companion rules obscurio` show the titles and summaries, with the group's current value for the editable ones
(`field`: the Rules attribute that edits it); the full text as decided is `ruling.text`.
"""
from __future__ import annotations

from companion.games import rulings as _rulings
from companion.games.obscurio.constants import TRAP_NAME
from companion.games.obscurio.rules import Rules
from companion.games.rulings import Ruling

RULINGS = (
    Ruling("obscurio-hourglass", "Hourglass",
           "One hourglass times step 4 (turned when the first card is down) and the accusation's discussion; "
           "the box's glass runs 60 seconds, and a group with another sets its own.", "hourglass"),
    Ruling("obscurio-time-track", "Time track",
           "The printed track is not in our rulebook: unless the group sets its own, 3 spaces, +0, +1, +2. The "
           "hourglass moves one space each time it runs out; the space where step 4 ends adds that many traps next "
           "turn; running out on the last space is \"Stop!\".", "time_track"),
    Ruling("obscurio-cohesion", "Cohesion tokens",
           "Cohesion tokens by players incl. the Grimoire: 2: 12, 3: 9, 4: 14, 5: 18, 6: 22, 7: 26, 8: 30. Dark area: "
           "5 with 2-5 players, 7 with 6-8. Type the numbers printed in your box.", "cohesion"),
    Ruling("obscurio-traps", "Trap bag",
           "14 trap tokens: the 13 known traps once each and a second +2. Purple traps leave the bag with 2-3 "
           "players. The bag can be edited; the app can draw or you tell it what you drew.", "traps"),
    Ruling("obscurio-evanescent", "Evanescent Room",
           "The Evanescent Room's tile is a single hourglass without bonus: step 4 ends when it runs out.",
           "evanescent_track"),
    Ruling("obscurio-progress", "Progress and escape",
           "The marker starts on space 1 of 6; each turn with a chip on the Exit crosses a room. On the last space "
           "the Watcher is active; one more success is the escape."),
    Ruling("obscurio-resolution-order", "Resolving the doors",
           "Step 4 resolves in order: progress (an escape ends the game at once), one token per wrong or missing "
           "chip in seat order, Dangerous Room, then the Accusation Phase if the normal area emptied."),
    Ruling("obscurio-watcher", "The Watcher",
           "The Watcher is announced and changes nothing; or pick the trap it acts as, every turn from then on.",
           "watcher"),
    Ruling("obscurio-dangerous-room", "Dangerous Room",
           "Dangerous Room: one more token to the box for each wrong door holding a chip (or for each wrong chip); "
           "chips in front of no door add nothing.", "dangerous_room"),
    Ruling("obscurio-unplaced", "Chips in front of no door",
           "A chip can stay in the centre only after \"Stop!\" or on a Locked Doors turn; it costs a token like a "
           "wrong door. Under Locked Doors a chip takes the door just revealed or waits, and stays once placed."),
    Ruling("obscurio-accusation", "Accusation",
           "Votes are simultaneous; abstain or point at any wizard. Most votes are accused, ties all accused; each "
           "loyal one costs 2 tokens to the box. Repeat until the Traitor is found or the cohesion runs out. An "
           "exposed Traitor removes their chip and still plays step 3."),
    Ruling("obscurio-2-3-loss", "2-3 players: losing",
           "With 2-3 players there is no Traitor: when the cohesion runs out, nobody wins."),
    Ruling("obscurio-door-example", "The door example",
           "The rulebook's door example only adds up if the Exit is door 4: Blue, Red and Yellow each lose a token "
           "and the group advances."),
    Ruling("obscurio-2-3-players", "2-3 players",
           "2-3 players: no Traitor, no loyalty cards, no step 3, no purple traps, no accusation. With 2 the wizard "
           "also moves a companion chip: own chip wrong 2 tokens, companion 1."),
)


def _track(track) -> str:
    return ", ".join(f"+{b}" for b in track)


def values(rules: Rules) -> dict[str, str]:
    """The group's choice for each editable ruling, in English words (keyed by Rules field)."""
    return {
        "hourglass": f"{rules.hourglass} s",
        "time_track": _track(rules.time_track),
        "cohesion": "; ".join(f"{n} players: {total}" for n, total in rules.cohesion)
                    + f"; dark area with 2-3 players: {rules.dark_2_3}",
        "traps": ", ".join(f"{TRAP_NAME[t]} x{n}" for t, n in rules.traps if n),
        "evanescent_track": _track(rules.evanescent_track),
        "watcher": "no effect" if rules.watcher is None else f"acts as {TRAP_NAME[rules.watcher]}",
        "dangerous_room": "per wrong door" if rules.dangerous_room == "door" else "per wrong chip",
    }


def profile(rules: Rules = Rules()) -> list[dict]:
    """The rulings with the group's current value for each editable one."""
    return _rulings.profile(RULINGS, values(rules))
