"""The goods counted on a photo at the end of an Obscurians game, set against what the app's log says each player
holds (issue 19 §5). The camera counts per zone (vision/goods.py: zones and colours come from the table's
calibration file); a zone belongs to the player it is named after (a name or a colour), else the zones are taken in
the calibration's order, one per seat.

The engine's goods come from the moves; the photo never overwrites them. What the players confirm is the photo's
count beside the app's, player by player: where they differ, the log or the table is wrong, and they can look.
"""
from __future__ import annotations

from companion.games.obscurians.constants import COLOURS, UNCOLOURED
from companion.games.obscurians.vocabulary import COLOUR, UNCOLOURED_GOOD
from companion.ui.obscurians.goods import good_sort_key

KINDS = set(COLOURS) | set(UNCOLOURED)


def zone_seats(zones, players) -> dict[str, int]:
    """zone → seat: by the player's name or colour (any case); unnamed zones fill the remaining seats in order."""
    seats: dict[str, int] = {}
    for zone in zones:
        key = zone.strip().casefold()
        seat = next((i for i, (name, colour) in enumerate(players)
                     if key in (name.casefold(), colour.casefold())), None)
        if seat is not None and seat not in seats.values():
            seats[zone] = seat
    free = [i for i in range(len(players)) if i not in seats.values()]
    for zone in zones:
        if zone not in seats and free:
            seats[zone] = free.pop(0)
    return seats


def seat_counts(reading_zones: dict, players) -> list[dict[str, int] | None]:
    """Per seat, the goods of Obscurians' kinds the photo counted in that player's zone (None: no zone for them)."""
    out: list[dict[str, int] | None] = [None] * len(players)
    for zone, seat in zone_seats(list(reading_zones), players).items():
        out[seat] = {k: n for k, n in reading_zones[zone].items() if k in KINDS and n}
    return out


def held(state) -> list[dict[str, int]]:
    """What the app's log says each player holds at the end (free and secured; lamp and artifact as 1)."""
    end = state.end_of_game()
    out = []
    for p in end.players:
        goods = dict(p.goods)
        goods.update({g: 1 for g in UNCOLOURED if getattr(p, g)})
        out.append(goods)
    return out


def words(goods: dict[str, int], t) -> str:
    if not goods:
        return t("nothing")
    return ", ".join(f"{n} {t(COLOUR[g])}" if g in COLOUR else
                     t(UNCOLOURED_GOOD[g]) if n == 1 else f"{n} × {t(UNCOLOURED_GOOD[g])}"
                     for g, n in sorted(goods.items(), key=lambda kv: good_sort_key(kv[0])) if n)
