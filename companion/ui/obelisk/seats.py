"""Where everyone sits around the tablet (table rule 1 in docs/architecture.md: every seat can read it): each player
sits at one of the four sides of the table — the near or far long side, or the left or right end as the near side
sees them — and their row on the table screen, and the sheets they open for their own move, face that side.

The group sets it in Menu → Where everyone sits (a player, then their side). It is kept with the group's settings
per table (companion/session/preferences.py), never in the game's log: a replay is the same whoever sat where, and
closing the table, Home → Resume or a restart keep it.
"""
from __future__ import annotations

from companion.session import preferences
from companion.ui.obelisk import texts

# The angle a row at that side is turned by, read from the screen's bottom edge (companion/ui/seating.py's edges).
ANGLE = {"near": 0, "right": 90, "far": 180, "left": 270}
SIDES = ("near", "far", "left", "right")     # the order the choice offers them
ENDS = ("left", "right")
END_SEATS = 2   # an end of the table seats two at most; its strip of rows has no room for more


class ObeliskSeats:
    """The table's part: who sits where (colour -> side), the rows' angles and the Menu's sheets."""

    def __init__(self, model):
        self.model = model
        self._sides: dict = {}     # table id -> {colour: side}, as loaded or set

    @property
    def app(self):
        return self.model.app

    def _data_dir(self):
        store = getattr(self.app, "store", None)
        return getattr(store, "data_dir", None)

    def sides(self) -> dict:
        """{colour: side} for the open table: as the group set it (kept with the settings), else across the table
        from each other (every second seat on the far side)."""
        table = self.model.table
        if table is None:
            return {}
        if table.id not in self._sides:
            colours = list(table.state.setup.colours)
            sides = {c: ("far" if i % 2 else "near") for i, c in enumerate(colours)}
            data_dir = self._data_dir()
            saved = preferences.table_seats(data_dir, table.id) if data_dir is not None else {}
            for colour, side in saved.items():
                if colour in sides and side in ANGLE:
                    sides[colour] = side
            for end in ENDS:   # a hand-edited file with three at one end: the extra ones sit at the near side
                for colour in [c for c in colours if sides[c] == end][END_SEATS:]:
                    sides[colour] = "near"
            self._sides[table.id] = sides
        return self._sides[table.id]

    def side(self, colour) -> str:
        return self.sides().get(colour, "near")

    def angle(self, colour) -> int:
        """Which way a sheet for `colour` opens (it lies over the whole window): their side's angle."""
        return ANGLE[self.side(colour)]

    def strip(self, colour, facing: int) -> str:
        """Where `colour`'s row goes on the screen as turned by `facing`: "" in the rows under the prompt (a long
        side), else the strip at the screen's "left" or "right" edge (the screen turned half round swaps them)."""
        side = self.side(colour)
        if side not in ENDS:
            return ""
        return side if facing % 360 == 0 else ("right" if side == "left" else "left")

    def row_angle(self, colour, facing: int) -> int:
        """The row's angle within the screen turned by `facing`: it faces its player whichever way the screen is."""
        return (ANGLE[self.side(colour)] - facing) % 360

    # -- Menu → Where everyone sits ----------------------------------------------------------------------------------
    def sheet(self) -> None:
        """Each player and their side; a tap asks where they sit."""
        s, t = self.model.state, self.app.t
        self.model.plugin.pick(t(texts.SEATS_TITLE), [
            {"text": t(texts.SITS[self.side(colour)]).format(name=name),
             "action": (lambda c=colour: self.ask(c))} for name, colour in s.setup.players])

    def ask(self, colour) -> None:
        s, t = self.model.state, self.app.t
        name = s.setup.name_of(colour)
        self.model.plugin.pick(t(texts.WHERE).format(name=name), [
            {"text": t(texts.SIDE[side]), "action": (lambda x=side: self.move(colour, x))} for side in SIDES])

    def move(self, colour, side: str) -> None:
        """`colour` sits at `side` now: their row turns to face it, and the table keeps it."""
        t, table = self.app.t, self.model.table
        sides = self.sides()
        name = table.state.setup.name_of(colour)
        if side in ENDS and sides.get(colour) != side and sum(v == side for v in sides.values()) >= END_SEATS:
            self.app.say(t(texts.END_FULL[side]))   # never a silent no: the end's strip has room for two
            return
        sides[colour] = side
        data_dir = self._data_dir()
        if data_dir is not None:
            preferences.keep_seats(data_dir, table.id, sides)
        self.model.seats_changed()
        self.app.say(t(texts.NOW[side]).format(name=name))
