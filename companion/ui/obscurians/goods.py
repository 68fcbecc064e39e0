"""The goods of an Obscurians table as the round screen shows them: in a fixed order (the players' colours, then
the lamp and the artifact), short on a chip."""
from __future__ import annotations

from companion.games.obscurians.constants import COLOURS, UNCOLOURED
from companion.games.obscurians.vocabulary import GOOD_SHORT

GOOD_ORDER = COLOURS + UNCOLOURED


def good_sort_key(good: str) -> tuple:
    return (GOOD_ORDER.index(good) if good in GOOD_ORDER else 99, good)


def good_label(good: str) -> str:
    """The msgid on a small goods pill: the count shows for colours, a short name for lamp and artifact."""
    return GOOD_SHORT[good]


def goods_columns(state) -> tuple[str, ...]:
    """The goods columns of every player's row, fixed for the whole game: the table's colours, lamp, artifact."""
    at_table = {c for _, c in state.setup.players}
    return tuple(c for c in COLOURS if c in at_table) + UNCOLOURED
