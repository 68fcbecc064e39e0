"""Where each player's panel goes on a tablet lying in the middle of the table, and which way it faces (no Kivy).

Seats run clockwise around the table, as the players sit: along the bottom edge from right to left, up the left
edge, along the top edge from left to right, down the right edge. Each panel is turned to be read from its own
edge (0: bottom, 270: left, 180: top, 90: right). The corners are left free for the few controls everyone needs
(Home, the menu); the centre is shared.

"In the hand" (the tablet held by one person, or propped up) puts every panel upright in a grid instead.
"""
from __future__ import annotations

from dataclasses import dataclass

# How many seats each edge holds (bottom, left, top, right), for 4 to 8 players: the long edges first.
EDGE_SEATS = {
    2: (1, 0, 1, 0), 3: (1, 1, 1, 0), 4: (1, 1, 1, 1), 5: (2, 1, 1, 1), 6: (2, 1, 2, 1), 7: (2, 2, 2, 1),
    8: (2, 2, 2, 2),
}
BOTTOM, LEFT, TOP, RIGHT = 0, 270, 180, 90  # the angle a panel on that edge is turned by


@dataclass(frozen=True)
class Place:
    x: float
    y: float
    w: float
    h: float
    angle: int

    @property
    def area(self) -> list:
        return [self.x, self.y, self.w, self.h]


@dataclass(frozen=True)
class Seating:
    seats: tuple[Place, ...]     # one per seat, in seat order
    centre: Place                # the shared part; its angle faces whoever must read it now
    corners: tuple[Place, ...]   # bottom-left, bottom-right, top-left, top-right (empty when in the hand)


def ring(n: int, width: float, height: float, depth_bottom: float, depth_side: float, first: int = 0) -> Seating:
    """Seats around the edges. `first`: which seat sits at the first place (bottom right), so that the group can
    turn the ring until every panel is in front of its player."""
    bottom, left, top, right = EDGE_SEATS[n]
    dv, dh = depth_bottom, depth_side
    places: list[Place] = []
    span = width - 2 * dh
    places += [Place(dh + span - (i + 1) * span / bottom, 0, span / bottom, dv, BOTTOM) for i in range(bottom)]
    span_v = height - 2 * dv
    places += [Place(0, dv + i * span_v / left, dh, span_v / left, LEFT) for i in range(left)]
    places += [Place(dh + i * span / top, height - dv, span / top, dv, TOP) for i in range(top)]
    places += [Place(width - dh, height - dv - (i + 1) * span_v / right, dh, span_v / right, RIGHT)
               for i in range(right)]
    seats = tuple(places[(seat - first) % n] for seat in range(n))
    corners = (Place(0, 0, dh, dv, BOTTOM), Place(width - dh, 0, dh, dv, BOTTOM),
               Place(0, height - dv, dh, dv, TOP), Place(width - dh, height - dv, dh, dv, TOP))
    return Seating(seats, Place(dh, dv, width - 2 * dh, height - 2 * dv, BOTTOM), corners)


def in_hand(n: int, width: float, height: float, bar: float, centre_width: float) -> Seating:
    """Every panel upright in a grid on the left, the centre on the right, a bar for the controls on top."""
    cols = 2 if n <= 4 else 3
    rows = -(-n // cols)
    gw, gh = width - centre_width, height - bar
    cw, ch = gw / cols, gh / rows
    seats = tuple(Place((i % cols) * cw, gh - (i // cols + 1) * ch, cw, ch, BOTTOM) for i in range(n))
    return Seating(seats, Place(gw, 0, centre_width, gh, BOTTOM), ())


def facing(seating: Seating, seat: int) -> Seating:
    """The same seating with the centre turned to be read from `seat`'s edge."""
    c = seating.centre
    return Seating(seating.seats, Place(c.x, c.y, c.w, c.h, seating.seats[seat].angle), seating.corners)
