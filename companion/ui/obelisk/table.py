"""The Obelisk table: the map as it lies on the table (mapview.py), and beside it who still acts today, the Day's
actions or the Night's captures with the advisor's plan and its reasons, the Quarry and the Dark Realm, the moves
and Undo.

`TableModel` is the view-model: one method per tap; every move goes to the engine first, so that a refusal is said
in its words (never a silent no) and nothing changes. `ObeliskTableScreen` is layout only (table.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.screenmanager import Screen

from companion.games.errors import IllegalAction, InvalidInput, Message
from companion.games.obelisk import advisor, payments, words
from companion.games.obelisk.actions import (
    Build, Capture, Dawn, Decipher, March, Mine, Nightfall, Pass, Pay, Reinforce, Roll, Rotate, Spawn,
)
from companion.games.obelisk.box import DEMON_COLOURS
from companion.games.obelisk.cycle import spawn_count
from companion.games.obelisk.model import DIRECTIONS, all_cells
from companion.games.obelisk.vocabulary import COLOUR, SCROLL
from companion.i18n.messages import translate_message
from companion.ui.obelisk import charges, look, texts
from companion.ui.obelisk.dice import ObeliskDice
from companion.ui.obelisk.mapview import ObeliskMap  # noqa: F401  (the kv rule uses it)
from companion.ui.obelisk.moves import MoveLog
from companion.ui.obelisk.seats import ObeliskSeats

DAY_BUTTONS = ("mine", "rotate", "best", "pass", "nightfall")
NIGHT_BUTTONS = ("march", "dawn", "watch")
# The real Dark Realm (the box top): the demons that came out, tapped in the order they came, then confirmed.
SPAWN_BUTTONS = ("draw_green", "draw_yellow", "draw_blue", "draw_back", "spawn")
WALK_REST = 0.25  # seconds the demons rest on each tile of tonight's walk, after their glide there (mapview.GLIDE)


class TableModel(EventDispatcher):
    title = StringProperty("")
    prompt = StringProperty("")
    night = BooleanProperty(False)
    players = ListProperty()      # rows: text, rgba, ink, selected, dimmed, value (colour), angle — every player
    long_rows = ListProperty()    # … of the players at the long sides: the rows under the prompt
    left_rows = ListProperty()    # … at the screen's left edge, turned to the end of the table there
    right_rows = ListProperty()   # … at its right edge
    prompt_angle = NumericProperty(0)  # the prompt faces the acting player when they sit at a long side
    buttons = ListProperty()      # text, enabled, value (one of DAY_BUTTONS / NIGHT_BUTTONS)
    captures = ListProperty()     # text, selected (the advice), value (index into self._captures)
    lines = ListProperty()        # the advisor's sentences
    moves = ListProperty()        # the move log, newest first
    quarry = StringProperty("")
    realm = StringProperty("")
    to_build = StringProperty("")
    scrolls = StringProperty("")    # the deciphered Scrolls waiting to be charged
    extra_lines = NumericProperty(0)  # how many of those two are shown under the map (it gives them room)
    speakers = StringProperty("")   # Rotating Leadership: who holds the token, who may speak
    capture_title = StringProperty("")
    undo_text = StringProperty("")
    undo_enabled = BooleanProperty(False)
    picture = DictProperty()      # what the map draws (mapview.py)
    facing = NumericProperty(0)   # 0: read from the near long side; 180: turned for the far side (Menu)
    clock = StringProperty("")    # Time Trials: what is left of this Day's or Night's minute ("0:42")
    hurry = BooleanProperty(False)  # … ten seconds or less

    def __init__(self, plugin, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self.table = None
        self.log = MoveLog()
        self.actor: str | None = None
        self.pending: dict = {}       # cell -> the new direction tapped in for the next Rotate
        self._captures: list = []
        self._advice = None
        self.drawn: list[str] = []          # the real Dark Realm: the demons tapped in so far tonight
        self.walk_step: int | None = None   # watching tonight's walk: the step shown (None: where demons stand)
        self._walk_state = None             # … of this state's demons (the Night before Demons move), None: now
        self._walk_ev = None
        self.dice = ObeliskDice(self)       # smart dice standing on corners
        self.seats = ObeliskSeats(self)     # who sits at which side of the table (kept with the settings)

    # -- following the table -----------------------------------------------------------------------------------------
    def start(self, table) -> None:
        self.table = table
        self.log.clear()
        self.log.follow(table)
        self.actor = None
        self.pending = {}
        self.refresh()

    def stop(self) -> None:
        self.stop_walk()
        self.table = None
        self.log.clear()

    def changed(self, before=None) -> None:
        """The table changed; `before`: the state before a move (None for Undo and the like). After Demons move the
        demons walk there on the map, step by step as they went, from where they stood (only the map moves)."""
        self.stop_walk()
        self.drawn = []
        self.log.follow(self.table)
        self.pending = {}
        last = self.table.actions[-1] if self.table is not None and self.table.actions else None
        if before is not None and isinstance(last, March) and any(self._walking(before, d) for d in before.demons):
            self._start_walk(before)
        self.refresh()

    @property
    def state(self):
        return self.table.state

    def refresh(self) -> None:
        if self.table is None:
            return
        s, t = self.state, self.app.t
        self.night = s.is_night
        if self.actor not in s.acting:
            self.actor = s.acting[0] if s.acting else None
        self._advice = advisor.night_advice(s)
        self._captures = self._capture_options(s)
        self.title = (t(texts.OVER) if s.is_over else
                      t(texts.NIGHT if s.is_night else texts.DAY).format(n=s.day))
        if self.walk_step is not None:
            self.title += " · " + t(texts.WALK_STEP).format(n=self.walk_step)
        self.prompt = self._prompt(s)
        self._place_rows(s)
        self.buttons = self._button_rows(s)
        self.undo_enabled = self._allowed("undo", s) is None
        self.undo_text = (t(texts.UNDO).format(move=self.log.line(self._undo_index(), self.app.lang))
                          if self._has_undo() else t(texts.BUTTON["undo"]))
        self.captures = self._capture_rows(s)
        self.capture_title = t(texts.CAPTURES) if self._captures else (t(texts.NO_CAPTURE_NOW) if self.night
                                                                       else "")
        self.lines = self._advice_lines(s)
        lang = self.app.lang
        self.moves = [{"text": line} for line in self.log.lines(lang)]
        q = s.quarry
        self.quarry = t(texts.QUARRY).format(green=s.quarry_green, yellow=q.yellow, blue=q.blue)
        self.realm = t(texts.REALM).format(n=s.realm.total)
        self.speakers = self._speakers(s)
        self.scrolls = charges.face_up(s, t)
        self.extra_lines = bool(self.scrolls) + bool(self.speakers)
        self.to_build = t(texts.TO_BUILD).format(names=", ".join(
            f"{name} {s.unplaced[i]}" for i, (name, _) in enumerate(s.setup.players)))
        self.picture = self._picture(s)
        self.show_clock()

    def show_clock(self) -> None:
        """The Time Trials minute (nothing without Time Trials, or between minutes)."""
        from companion.games.obelisk.model import TIME_TRIALS as TIMER

        clock = self.plugin.gameclock
        glass = clock.glass() if clock is not None and self.table is not None else None
        if glass is None:
            self.clock, self.hurry = "", False
            return
        left = max(0.0, self.table.timers.remaining(TIMER))
        whole = int(left + 0.999)
        self.clock = f"{whole // 60}:{whole % 60:02d}"
        self.hurry = left <= 10

    def _speakers(self, s) -> str:
        if not s.setup.leadership or s.is_over:
            return ""
        t = self.app.t
        if s.phase != "day":
            return t(texts.SILENT_NIGHT)
        names = ", ".join(s.setup.name_of(c) for c in s.speakers)
        return t(texts.LEADER).format(name=s.setup.players[s.leader][0], names=names)

    def _say_message(self, message: Message) -> str:
        return translate_message(message, self.app.lang)

    def _prompt(self, s) -> str:
        t = self.app.t
        if s.is_over:
            return self.log.line(len(self.log) - 1, self.app.lang) if len(self.log) else t(texts.OVER)
        if s.phase == "day":
            if self.actor is None:
                return t(texts.DAY_DONE)
            return t(texts.DAY_PROMPT).format(name=s.setup.name_of(self.actor))
        if s.phase == "march":
            return t(texts.MARCH_PROMPT)
        if s.phase == "spawn":

            so_far = ", ".join(t(COLOUR[c]) for c in self.drawn) or "—"
            return t(texts.SPAWN_PROMPT).format(n=spawn_count(s), k=len(self.drawn), drawn=so_far)
        if s.phase == "decipher":
            return t(texts.DECIPHER_PROMPT)
        if s.phase == "roll" and s.pending:
            o = s.obelisk_at(s.pending[0])
            return t(texts.ROLL_PROMPT).format(corner=words.corner(o.corner), scroll=t(SCROLL[o.scroll]))
        return t(texts.SWARM_PROMPT)

    def _player_rows(self, s) -> list[dict]:
        t = self.app.t
        rows = []
        for i, (name, colour) in enumerate(s.setup.players):
            left = s.actions_left(colour)
            said = name
            if s.phase == "day":
                said += "\n" + (t(texts.ACTIONS_LEFT["one" if left == 1 else "other"]).format(n=left) if left
                                else t(texts.DONE_TODAY))
            rows.append({"text": said, "rgba": list(look.PLAYER[colour]), "ink": list(look.PLAYER_INK[colour]),
                         "selected": colour == self.actor, "enabled": colour in s.acting, "value": colour,
                         # facing its seat, whichever side the screen is turned to
                         "angle": self.seats.row_angle(colour, self.facing)})
        return rows

    def _place_rows(self, s) -> None:
        """Every row where its player sits: the long sides' under the prompt, each end's in a strip at its edge."""
        rows = self._player_rows(s)
        strip = {r["value"]: self.seats.strip(r["value"], self.facing) for r in rows}
        self.players = rows
        self.long_rows = [r for r in rows if not strip[r["value"]]]
        self.left_rows = [r for r in rows if strip[r["value"]] == "left"]
        self.right_rows = [r for r in rows if strip[r["value"]] == "right"]
        # The one prompt faces whoever acts (as Obscurians' centre does) when they sit at a long side; a player at an
        # end reads it from the side, their own row turned to them and lit.
        angle = self.seats.row_angle(self.actor, self.facing) if self.actor is not None else 0
        self.prompt_angle = angle if angle in (0, 180) else 0

    # -- where everyone sits (seats.py) --------------------------------------------------------------------------------
    def seat_angle(self, colour) -> int:
        """Which way a sheet for `colour` opens (it lies over the whole window): their side's angle."""
        return self.seats.angle(colour) if self.table is not None and colour is not None else 0

    def seats_sheet(self) -> None:
        self.seats.sheet()

    def seats_changed(self) -> None:
        if self.table is not None:
            self._place_rows(self.state)

    def _codes(self, s) -> tuple:
        if s.phase == "spawn":
            return SPAWN_BUTTONS
        if s.phase == "decipher":
            return tuple(("decipher", a.scroll) for a in s.legal_actions())
        if s.phase == "roll":
            return tuple(("roll", n) for n in range(1, 7))
        return NIGHT_BUTTONS if s.is_night else DAY_BUTTONS

    def _button_rows(self, s) -> list[dict]:

        t = self.app.t
        rows = []
        for code in self._codes(s):
            if isinstance(code, tuple):   # a Scroll the real deck can show, or a die's face
                text = str(code[1]) if code[0] == "roll" else t(SCROLL[code[1]])
                rows.append({"text": text, "enabled": True, "value": code})
                continue
            if code.startswith("draw_") and code != "draw_back":
                colour = code[5:]
                left = s.realm[colour] - self.drawn.count(colour)
                rows.append({"text": t(texts.DRAW).format(colour=t(COLOUR[colour]), n=left),
                             "enabled": self._allowed(code, s) is None, "value": code})
                continue
            text = t(texts.BUTTON[code])
            if code == "rotate" and self.pending:
                text = t(texts.ROTATE_N).format(n=len(self.pending))
            elif code == "watch" and self._walk_ev is not None:
                text = t(texts.STOP_WATCHING)
            rows.append({"text": text, "enabled": self._allowed(code, s) is None, "value": code})
        return rows

    def _has_undo(self) -> bool:
        clock = self.plugin.gameclock
        if self.plugin.opened_from_history or not len(self.log):
            return False
        return clock.can_undo if clock is not None else self.table.can_undo

    def _undo_index(self) -> int:
        """The move Undo takes back: the last one a person entered (with Time Trials, the minute's own moves stay)."""
        clock = self.plugin.gameclock
        i = clock.undo_index() if clock is not None else None
        return len(self.log) - 1 if i is None else i

    def _action_for(self, code: str, s):
        actor = self.actor
        if code == "mine":
            return Mine(actor) if actor else None
        if code == "rotate":
            return Rotate(actor, tuple(self.pending.items())) if actor and self.pending else None
        if code == "pass":
            return Pass(actor) if actor else None
        if code == "spawn":
            return Spawn(tuple(self.drawn))
        if isinstance(code, tuple) and code[0] == "roll":
            return Roll(s.pending[0], code[1]) if s.pending else None
        if isinstance(code, tuple):
            return Decipher(code[1])
        return {"nightfall": Nightfall(), "march": March(), "dawn": Dawn()}.get(code)

    def _allowed(self, code: str, s):
        """None when the button can do something now, else the sentence that says why not."""
        t = self.app.t
        if code == "undo":
            if self.plugin.opened_from_history:
                return t(texts.READ_ONLY)
            clock = self.plugin.gameclock
            can = clock.can_undo if clock is not None else self.table.can_undo
            if can and clock is not None and any(a.TYPE == "timeout" for a in self.table.actions[self._undo_index():]):
                # Undo back into a minute that ran out would start that minute again: time is real (table rule 9)
                return t(texts.MINUTE_STANDS)
            return None if can else t(texts.NOTHING_TO_UNDO)
        if code in ("mine", "rotate", "best", "pass") and self.actor is None:
            return t(texts.NO_ONE)
        if code == "best":
            return None if s.phase == "day" and s.markers else self._refusal(Rotate(self.actor, ()), s)
        if code == "rotate" and not self.pending:
            return t(texts.NO_TURNS)
        if code == "watch":
            return None if s.phase in ("march", "swarm") and self._walk_length(s) else t(texts.NOTHING_WALKS)
        if isinstance(code, str) and code.startswith("draw_"):

            if code == "draw_back":
                return None if self.drawn else t(texts.NOTHING_DRAWN)
            colour = code[5:]
            if len(self.drawn) >= spawn_count(s):
                return t(texts.ALL_DRAWN).format(n=spawn_count(s))
            if self.drawn.count(colour) >= s.realm[colour]:
                return t(texts.NONE_LEFT).format(colour=t(COLOUR[colour]))
            return None
        return self._refusal(self._action_for(code, s), s)

    def _refusal(self, action, s):
        if action is None:
            return self.app.t(texts.NO_ONE)
        try:
            s.apply(action)
        except (IllegalAction, InvalidInput) as err:
            return translate_message(err, self.app.lang)
        return None

    def _capture_options(self, s) -> list:
        from companion.games.obelisk.legal import captures

        options = captures(s)
        suggested = set()
        if self._advice is not None:
            suggested = {(c.obelisk, c.demon, c.step) for c in self._advice.captures}
        first = [c for c in options if (c.obelisk, c.demon, c.step) in suggested]
        ordered = first + [c for c in options if (c.obelisk, c.demon, c.step) not in suggested]
        # Demons of one colour standing together with the same past are the same to capture: one row for them
        seen, out = set(), []
        for c in ordered:
            d = s.demon(c.demon)
            key = (c.obelisk, d.colour, d.visited, d.walked, c.step)
            if key not in seen:
                seen.add(key)
                out.append(c)
        return out

    def _capture_rows(self, s) -> list[dict]:
        suggested = set()
        if self._advice is not None:
            suggested = {(c.obelisk, c.demon, c.step) for c in self._advice.captures}
        rows = []
        for i, c in enumerate(self._captures):
            d = s.demon(c.demon)
            cell = s.tonight_walk(d).cells[c.step]
            o = s.obelisk_at(c.obelisk)
            params = {"demon": words.demon(d.colour), "cell": words.cell(cell), "colour": words.colour(o.owner),
                      "corner": words.corner(o.corner)}
            if c.step:
                params["step"] = words.step(c.step)
            text = self._say_message(Message(advisor.CAPTURE_AFTER if c.step else advisor.CAPTURE_AT_START, params))
            mark = (c.obelisk, c.demon, c.step) in suggested
            rows.append({"text": (self.app.t(texts.SUGGESTED) + text) if mark else text, "selected": mark,
                         "enabled": True, "value": i})
        return rows

    def _advice_lines(self, s) -> list[dict]:
        if s.is_over:
            return []
        if s.is_night and self._advice is not None:
            said = [self._say_message(m) for m in self._advice.reasons]
        else:
            said = [self._say_message(r.said) for r in advisor.routes(s) if r.demon is not None or r.loses]
        said = list(dict.fromkeys(said))   # demons standing together say the same: once
        return [{"text": line, "danger": False} for line in said]

    def _picture(self, s) -> dict:
        t = self.app.t
        tiles = []
        for cell in all_cells():
            tile = s.map[cell]
            tiles.append((cell, None if tile is None else (tile.kind, tile.facing, cell in s.markers,
                                                           self.pending.get(cell), texts.land_word(tile.kind, t))))
        routes = []
        if not s.is_over:
            for k, r in enumerate(advisor.routes(s)):
                if r.demon is None and s.phase == "swarm":
                    continue
                routes.append({"cells": list(r.walk.cells), "loses": r.loses, "demon": r.demon is not None,
                               "target": r.walk.target if r.loses else None, "lane": k % 4})
        if s.is_over and s.loss is not None:   # where the game was lost: the losing step, red
            routes.append({"cells": [s.loss.at], "loses": True, "demon": True, "target": s.loss.target, "lane": 1})
        by_cell: dict = {}
        walkers = self._walk_state or s
        for d in walkers.demons:
            at, came = d.at, None
            if self.walk_step is not None and self._walking(walkers, d):
                cells = walkers.tonight_walk(d).cells
                at = cells[min(self.walk_step, len(cells) - 1)]
                came = cells[min(self.walk_step - 1, len(cells) - 1)] if self.walk_step else None
            key = (at, came if came != at else None)   # demons that just stepped glide there (mapview.py)
            by_cell.setdefault(key, {}).setdefault(d.colour, 0)
            by_cell[key][d.colour] += 1
        demons = [{"cell": cell, "from": came, "colours": [(c, n[c]) for c in DEMON_COLOURS if c in n]}
                  for (cell, came), n in by_cell.items()]
        highlight = {c.obelisk for c in self._advice.captures} if self._advice is not None else set()
        obelisks = [{"corner": o.corner, "owner": o.owner, "strength": o.strength, "captured": len(o.captured),
                     "highlight": o.corner in highlight, "rune": o.scroll is not None, "aim": o.aim}
                    for o in s.obelisks]
        return {"tiles": tiles, "routes": routes, "demons": demons, "obelisks": obelisks, "step": self.walk_step,
                "dice": sorted(self.dice.standing())}

    # -- watching tonight's walk (the map only: no control moves, nothing is recorded) ---------------------------------
    @staticmethod
    def _walking(s, d) -> bool:
        """Whether `d` walks in the part of the Night now: all demons before they move, tonight's new ones after."""
        return s.phase == "march" or (s.phase == "swarm" and d.id in s.tonight)

    def _walk_length(self, s) -> int:
        return max((s.tonight_walk(d).steps for d in s.demons if self._walking(s, d)), default=0)

    def watch_walk(self) -> None:
        if self._walk_ev is not None:
            self.stop_walk()
            self.refresh()
            return
        self._start_walk(None)
        self.refresh()

    def _start_walk(self, walkers) -> None:
        """Step the demons of `walkers` (None: the table now) along tonight's walk: each step is drawn (the map
        glides the demons there and calls `rested`), then after WALK_REST the next."""
        from kivy.clock import Clock

        self._walk_state = walkers
        self.walk_step = 0
        self._walk_ev = Clock.schedule_once(self._next_step, WALK_REST * 2)

    def rested(self, step) -> None:
        """The map has the demons on the tiles of `step` (their glide done): the next step after a rest. Chained to
        the drawing, not to a clock of its own, so a slow frame never cuts a glide short."""
        from kivy.clock import Clock

        if self._walk_ev is None or step is None or step != self.walk_step or step == 0:
            return
        self._walk_ev.cancel()
        self._walk_ev = Clock.schedule_once(self._next_step, WALK_REST)

    def _next_step(self, _dt) -> None:
        if self.table is None or self.walk_step is None:
            self.stop_walk()
            return
        if self.walk_step >= self._walk_length(self._walk_state or self.state):
            self.stop_walk()
        else:
            from kivy.clock import Clock

            self.walk_step += 1
            # Should the map not say it rested (hidden behind a sheet), the walk still goes on.
            self._walk_ev = Clock.schedule_once(self._next_step, WALK_REST + 1.0)
        self.refresh()

    def stop_walk(self) -> None:
        if self._walk_ev is not None:
            self._walk_ev.cancel()
        self._walk_ev = None
        self.walk_step = None
        self._walk_state = None

    # -- the tile-grid board: a turned tile is a proposal ------------------------------------------------------------
    def board_read(self, index: int, tile: int, direction: str) -> None:
        """A tile on the board now points `direction` (issue 18 §4): during the Day a proposed Rotate (checked by the
        engine: a marker, the budget), shown on the map for the players to confirm with Rotate; at Night a question,
        since nobody may touch the map then. Nothing is played by the board alone."""
        from companion.ui.obelisk.board import cell_of

        if self.table is None:
            return
        s, t = self.state, self.app.t
        cell = cell_of(index)
        lying = s.map[cell]
        name = words.cell(cell)
        if lying is None or not tile:
            self.app.say(t(texts.BOARD_OTHER).format(cell=name))
            return
        if s.is_night or s.is_over:
            if direction != lying.facing:
                self.app.say(t(texts.BOARD_NIGHT).format(cell=name))
            return
        turns = dict(self.pending)
        if direction == lying.facing:
            if turns.pop(cell, None) is not None:
                self.pending = turns
                self.refresh()
                self.app.say(t(texts.BOARD_TURNED_BACK).format(cell=name))
            return
        turns[cell] = direction
        why = self._refusal(Rotate(self.actor, tuple(turns.items())), s) if self.actor else t(texts.NO_ONE)
        if why is not None:
            self.app.say(why)
            return
        self.pending = turns
        self.refresh()
        self.app.say(t(texts.BOARD_TURNED).format(cell=name))

    # -- taps --------------------------------------------------------------------------------------------------------
    def turn_around(self) -> None:
        """The shared parts of the screen half a turn round, to be read from the other long side of the table (the
        players' rows keep facing their seats)."""
        self.facing = (self.facing + 180) % 360
        self.seats_changed()

    def _move(self, action) -> bool:
        return self.app.try_move(lambda: self.table.apply(action))

    def tap_player(self, colour: str) -> None:
        s = self.state
        if colour not in s.acting:
            self.app.say(self.app.t(texts.NOT_ACTING).format(name=s.setup.name_of(colour)) + ": "
                         + (self._refusal(Mine(colour), s) or ""))
            return
        self.actor = colour
        self.refresh()

    def press(self, code: str) -> None:
        s = self.state
        why = self._allowed(code, s)
        if why is not None:
            self.app.say(why)
            return
        if code == "undo":
            clock = self.plugin.gameclock
            self.app.try_move(clock.undo if clock is not None else self.table.undo)
        elif isinstance(code, str) and code.startswith("draw_"):
            if code == "draw_back":
                self.drawn.pop()
            else:
                self.drawn.append(code[5:])
            self.refresh()
        elif code == "best":
            self.best_turn()
        elif code == "watch":
            self.watch_walk()
        else:
            self._move(self._action_for(code, s))

    def best_turn(self) -> None:
        """The advisor's Rotate choices for the acting player, best first (ranked by how many Nights every path stays
        legal); the one picked is tapped in on the map, and the players still confirm it with Rotate."""
        s, t = self.state, self.app.t
        choices = advisor.rotate_choices(s, self.actor)
        if not choices:
            self.app.say(self._refusal(Rotate(self.actor, ()), s) or t(texts.NO_TURNS))
            return
        options = []
        for choice in choices[:texts.RANKED]:
            turns = ", ".join(t(texts.TURN_TO).format(cell=words.cell(c), way=t(texts.WAY[f])) for c, f in choice.tiles)
            why = self._say_message(choice.reasons()[0])
            options.append({"text": f"{turns}: {why}", "action": (lambda c=choice: self._propose(c))})
        self.plugin.pick(t(texts.BEST_TITLE), options, self.seat_angle(self.actor))

    def _propose(self, choice) -> None:
        self.pending = dict(choice.tiles)
        self.refresh()
        self.app.say(" · ".join(self._say_message(m) for m in choice.reasons()))

    def tap_cell(self, cell) -> None:
        s = self.state
        if s.is_night:
            self.app.say(self.app.t(texts.NIGHT_MAP))
            return
        if s.phase != "day" or self.actor is None:
            self.app.say(self.app.t(texts.NO_ONE))
            return
        tile = s.map[cell]
        turns = dict(self.pending)
        if tile is not None:
            others = [f for f in DIRECTIONS if f != tile.facing]
            now = turns.get(cell)
            if now is None:
                turns[cell] = others[0]
            elif others.index(now) + 1 < len(others):
                turns[cell] = others[others.index(now) + 1]
            else:
                del turns[cell]   # round again: the tile as it lies
        if tile is None or cell in turns:
            probe = Rotate(self.actor, tuple(turns.items()) if tile is not None else ((cell, "N"),))
            why = self._refusal(probe, s)
            if why is not None:
                self.app.say(why)
                return
        self.pending = turns
        self.refresh()

    def tap_corner(self, corner) -> None:
        if self.dice.tap_corner(corner):    # a smart die waited for its corner: that was this tap
            return
        s = self.state
        o = s.obelisk_at(corner)
        if s.is_night:
            self.app.say(self.app.t(texts.NIGHT_OBELISK if o is not None else texts.NIGHT_MAP))
            return
        if s.phase != "day" or self.actor is None:
            self.app.say(self.app.t(texts.NO_ONE))
            return
        if o is None:
            self._move(Build(self.actor, corner))
            return
        self.reinforce(corner)

    def reinforce(self, corner) -> None:
        """The payment picker: only the valid sets the Quarry (or an unplaced Obelisk) can pay; with Scrolls, the
        deciphered Scrolls that can be charged on this Obelisk too."""
        s, t = self.state, self.app.t
        actor = self.actor
        options = [p for p in payments.sensible(s, actor) if s.is_legal(Reinforce(actor, corner, p))]
        scrolls = charges.ways(s, actor, corner) if s.setup.scrolls else {}
        runes = charges.runes(s, actor, corner) if s.setup.scrolls else []
        if not options and not scrolls and not runes:
            self.app.say(self._refusal(Reinforce(actor, corner, Pay(blue=2)), s)
                         or self._refusal(Reinforce(actor, corner, Pay(green=4)), s) or t(texts.NO_ONE))
            return
        o = s.obelisk_at(corner)
        name = s.setup.name_of(actor)
        title = (t(texts.PAY_TITLE).format(corner=words.corner(corner), n=o.strength + 1) if options
                 else t(texts.THE_OBELISK).format(corner=words.corner(corner)))
        self.plugin.pick(title, [
            {"text": texts.pay_words(p, name, t), "action": (lambda p=p: self._pay(corner, p))} for p in options] + [
            {"text": t(charges.CHARGE).format(scroll=t(SCROLL[x])), "action": (lambda w=w: self._charge_how(corner, w))}
            for x, w in scrolls.items()] + [
            {"text": charges.said(msgid, params, t), "action": (lambda a=a: self._move(a))}
            for msgid, params, a in runes], self.seat_angle(actor))

    def _charge_how(self, corner, ways) -> None:
        """The ways to charge one Scroll here (one way: straight to the payment)."""
        if len(ways) == 1:
            self._charge_pay(corner, ways[0])
            return
        t = self.app.t
        self.plugin.pick(t(charges.HOW).format(scroll=t(SCROLL[ways[0].scroll])), [
            {"text": w.said(t), "action": (lambda w=w: self._charge_pay(corner, w))} for w in ways],
            self.seat_angle(self.actor))

    def _charge_pay(self, corner, way) -> None:

        s, t = self.state, self.app.t
        actor = self.actor
        pays = [p for p in payments.sensible(s, actor) if s.is_legal(way.action(actor, corner, p))]
        name = s.setup.name_of(actor)
        self.plugin.pick(
            t(charges.PAY).format(scroll=t(SCROLL[way.scroll]), corner=words.corner(corner)),
            [{"text": texts.pay_words(p, name, t), "action": (lambda p=p: self._move(way.action(actor, corner, p)))}
             for p in pays], self.seat_angle(actor))

    def _pay(self, corner, pay) -> None:
        self._move(Reinforce(self.actor, corner, pay))

    def capture(self, index: int) -> None:
        if 0 <= index < len(self._captures):
            c = self._captures[index]
            self._move(Capture(c.obelisk, c.demon, c.step))


class ObeliskTableScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
