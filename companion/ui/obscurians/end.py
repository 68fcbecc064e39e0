"""The end of an Obscurians game: the players tap in the revealed missions, then the itemised scores, the winners,
the export. `EndModel` is the view-model; `ObsnEndScreen` is layout only (end.kv).

A finished game's scores are read-only when opened from Home's finished games; right after the game, Undo is
still there (a mistyped mission), but taking back the last move of a finished game asks first.
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from kivy.event import EventDispatcher
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.errors import N_, IllegalAction, InvalidInput
from companion.games.obscurians.movelog import move_line
from companion.games.obscurians.scoring import TEMPLATES_EN, render
from companion.games.obscurians.setup import mission_refusals
from companion.games.obscurians.vocabulary import COLOUR, MISSION
from companion.ui import widgets  # noqa: F401  (shared widget rules first)
from companion.ui.obscurians import look, widgets as _own_widgets  # noqa: F401  (this game's widget classes)
from companion.ui.obscurians.round import goods_pills, new_game_state, next_redo, rules_note_text
from companion.i18n.messages import translate_message

log = logging.getLogger(__name__)


class EndModel(EventDispatcher):
    mode = StringProperty("missions")  # "missions": players enter them; "over": the scores
    mission_rows = ListProperty()
    score_cards = ListProperty()
    winners_text = StringProperty("")
    guidance_text = StringProperty("")  # 4 players: the two mission cards put back at the start
    export_text = StringProperty("")
    can_score = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    read_only = BooleanProperty(False)  # opened from the finished games: nothing can be taken back here
    undo_text = StringProperty("")
    photo_busy = BooleanProperty(False)   # the camera's goods count is running (a worker thread)

    def __init__(self, plugin, table, **kwargs):
        super().__init__(**kwargs)
        self.plugin = plugin
        self.app = plugin.app
        self.table = table
        self._missions: list[str | None] = list(table.state.setup.missions or [None] * table.state.n_players)
        self._photo: list | None = None     # per seat, the goods the players confirmed on a photo

    # -- intents -------------------------------------------------------------------------------------------------
    def tap_mission(self, seat: int, mission: str, enabled: bool) -> None:
        """A mission card tapped for a player: set (or, tapped again, cleared) — or, if it cannot be theirs, why."""
        if not enabled:
            state = self.table.state
            why = mission_refusals(self._missions, state.n_players, state.setup.put_back)[seat].get(mission)
            if why is not None:
                self.app.say(translate_message(why, self.app.lang))
            return
        self._missions[seat] = None if self._missions[seat] == mission else mission
        self.refresh()

    def reveal_missions(self) -> None:
        if not all(self._missions):
            missing = [n for (n, _), m in zip(self.table.state.setup.players, self._missions) if not m]
            self.app.say(self.app.t(N_("Tap in every player's mission first: {names}")).format(
                names=", ".join(missing)))
            return
        self.app.try_move(lambda: self.table.apply(
            self.table.adapter.action_from_json({"type": "missions", "missions": self._missions})))

    def undo(self) -> None:
        """Take back the last move; for a finished game only once the players confirm (it reopens the game)."""
        if self.read_only:
            self.app.say(self.app.t(N_("This finished game is read-only.")))
            return
        if not self.table.can_undo:
            self.app.say(translate_message(IllegalAction.of("Nothing to undo"), self.app.lang))
            return
        if self.table.finished:
            t = self.app.t
            self.app.confirm(t(N_("Reopen this finished game?")), t(N_("Undo")), self._undo,
                             detail=t(N_("Undo takes back: {move}")).format(move=self.undo_text) + "\n"
                             + t(N_("The scores are gone until the missions are tapped in again.")))
            return
        self._undo()

    def _undo(self) -> None:
        self.app.try_move(self.table.undo)

    def redo(self) -> None:
        self.app.try_move(self.table.redo)

    def export(self) -> None:
        """Write the log and the BG Stats record (companion.session.export) and say, in words, where they went."""
        done = self.app.export(self.table)
        if done is not None:
            where, paths = done
            self.export_text = self.app.t(N_("Saved in {folder}: {files}")).format(
                folder=where, files=", ".join(p.name for p in paths))

    # -- the goods on a photo (issue 19 §5): counted by the camera, confirmed by the players ---------------------
    def goods_from_photo(self) -> None:
        """Count every player's goods on the camera's picture; the photo with its detections is shown, and the
        counts are used (beside the app's) only once the players confirm them."""
        from companion.ui.camera import first_camera, load_calibration

        t = self.app.t
        if self.photo_busy:
            return
        url = first_camera(self.app)
        device = self.app.devices.manager.device(url) if url else None
        if url is None:
            self.app.say(t(N_("No camera yet: add one in Dice and boards (camera://0, or a photo file://…).")))
            return
        calibration, why = load_calibration(self.app)
        if calibration is None:
            self.app.say(why)
            return
        if device is None or getattr(device, "last_frame", None) is None:
            self.app.say(t(N_("The camera gives no picture yet{detail}.")).format(detail=""))
            return
        from vision.goods import count_goods

        self.photo_busy = True
        task = asyncio.ensure_future(device.look(lambda image: count_goods(image, calibration)))
        task.add_done_callback(self._photo_counted)

    def _photo_counted(self, task) -> None:
        from companion.ui.camera import goods_boxes
        from companion.ui.obscurians.goods_photo import held, seat_counts, words
        from companion.ui.photo import PhotoConfirmSheet

        self.photo_busy = False
        t = self.app.t
        err = None if task.cancelled() else task.exception()
        if err is not None:
            log.error("the goods photo could not be counted", exc_info=err)
            self.app.say(t(N_("The camera could not read this: {what}")).format(what=err))
            return
        image, reading = task.result()
        players = self.table.state.setup.players
        counted = seat_counts(reading.zones, players)
        app_goods = held(self.table.state) if self.table.state.phase == "over" else [{}] * len(players)
        lines = []
        for (name, _colour), photo, logged in zip(players, counted, app_goods):
            if photo is None:
                lines.append(t(N_("{name}: no zone on the photo")).format(name=name))
                continue
            lines.append((t(N_("{name}: {photo} — the same as the app")) if photo == logged else
                          t(N_("{name}: {photo} — the app says {app}"))).format(
                name=name, photo=words(photo, t), app=words(logged, t)))
        doubtful = sum(b.confidence < 0.6 for b in reading.blobs)
        if doubtful:
            lines.append(t(N_("{n} heaps are doubtful (amber): count them by hand.")).format(n=doubtful))
        sheet = PhotoConfirmSheet(question=t(N_("The goods on the photo: check the boxes")), lines="\n".join(lines),
                                  yes_text=t(N_("Use these counts")))
        sheet.yes_action = lambda: self._use_photo(counted, app_goods)
        self.app.open_sheet(sheet)
        sheet.show(image, goods_boxes(reading.blobs, t))

    def _use_photo(self, counted, app_goods) -> None:
        """The players confirmed the photo's counts: each score card shows them beside the app's; where they
        differ the banner names the players (the log's goods stay the scorer's: the photo never rewrites moves)."""
        t = self.app.t
        self._photo = counted
        self.refresh()
        differ = [name for (name, _), photo, logged in zip(self.table.state.setup.players, counted, app_goods)
                  if photo is not None and photo != logged]
        self.app.say(t(N_("The photo agrees with the app's goods.")) if not differ else
                     t(N_("The photo differs from the app for {names}: look at their goods, or undo the move that "
                          "moved them.")).format(names=", ".join(differ)))

    def open_menu(self) -> None:
        self.app.open_menu(0, lambda: [{"text": self.app.t(N_("Home (the table stays saved)")),
                                        "action": self.app.go_home}])

    def announce_winners(self) -> None:
        """The winner's moment: the names, large, for the whole table, with a chime."""
        result = self.table.state.score()
        if result is None:
            return
        t = self.app.t
        names = [p.name for p in result.players if p.colour in set(result.winners)]
        title = (t(N_("{names} wins!")) if len(names) == 1 else t(N_("{names} win!"))).format(
            names=t(N_(" and ")).join(names))
        ranking = sorted(result.players, key=lambda p: -p.total)
        # The Lose mission never wins with the most points: say so next to that player's total.
        lose = t(MISSION["lose"])
        text = "   ".join(f"{p.name} {p.total}" + (f" ({lose})" if p.mission == "lose" else "") for p in ranking)
        self.app.announce(title, text, "winner")

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        state, t = self.table.state, self.app.t
        self.read_only = bool(self.plugin.opened_from_history) and self.table.finished
        self.can_undo, self.can_redo = self.table.can_undo and not self.read_only, self.table.can_redo
        self.undo_text = self._last_move()
        self.mode = state.phase
        players = state.setup.players
        put_back = state.setup.put_back
        self.guidance_text = (t(N_("Put back in the box at the start: {a} and {b}")).format(
            a=t(MISSION[put_back[0]]), b=t(MISSION[put_back[1]])) if put_back else "")
        if state.phase == "missions":
            # The engine's rule (RULING obscurians-players): what each card cannot be, and why.
            refusals = mission_refusals(self._missions, len(players), put_back)
            rows = []
            for i, (name, colour) in enumerate(players):
                rows.append({"seat": i, "name": name, "colour_rgba": list(look.RGBA[colour]),
                             "ink": list(look.INK[colour]),
                             "options": [{"seat": i, "mission": m, "text": t(MISSION[m]),
                                          "selected": self._missions[i] == m, "enabled": why is None}
                                         for m, why in refusals[i].items()]})
            self.mission_rows = rows
            self.can_score = all(self._missions)
            self.score_cards = []
            self.winners_text = t(N_("The sandstorm ends the game. Reveal the mission cards and tap each one in."))
            return
        result = state.score()  # scored with the table's house rules (setup.rules)
        if result is None:  # the game is still on (a language switch during a round refreshes this model too)
            self.mission_rows, self.score_cards, self.winners_text = [], [], ""
            return
        self.mission_rows = []    # the mission buttons are not shown any more: release them
        winners = set(result.winners)
        templates = self._templates()
        end = state.end_of_game()  # every player's goods, free and secured, as the engine counts them
        cards = []
        for p, held in zip(result.players, end.players):
            goods = dict(held.goods)
            goods.update({g: 1 for g in ("lamp", "artifact") if getattr(held, g)})
            cards.append({
                "name": p.name, "colour_rgba": list(look.RGBA[p.colour]), "ink": list(look.INK[p.colour]),
                "mission": t(MISSION[p.mission]), "total": str(p.total), "winner": p.colour in winners,
                "goods": goods_pills(goods, t),
                "photo": self._photo_line(len(cards), goods),
                "lines": [{"rule": render(ln.key, self._line_params(ln.params), templates),
                           "points": f"{ln.points:+d}"} for ln in p.lines],
            })
        self.score_cards = cards
        names = [p.name for p in result.players if p.colour in winners]
        self.winners_text = (t(N_("Winner: {names}")) if len(names) == 1 else t(N_("Winners: {names}"))).format(
            names=", ".join(names))
        top = max(result.players, key=lambda p: p.total)
        if top.mission == "lose" and top.colour not in winners:  # RULING obscurians-winner
            self.winners_text += "  " + t(N_("({name} has Lose: the most points do not win with Lose)")).format(
                name=top.name)
        note = rules_note_text(self.table, self.app.lang)
        if note:  # scored under the rules it was played under (issue 14 §5)
            self.winners_text += "  (" + note + ")"

    def _photo_line(self, seat: int, logged: dict) -> str:
        """The confirmed photo's count for a player's score card ("" before a photo was used)."""
        from companion.ui.obscurians.goods_photo import words

        if self._photo is None or seat >= len(self._photo) or self._photo[seat] is None:
            return ""
        photo = self._photo[seat]
        t = self.app.t
        return (t(N_("On the photo: {goods} — the same as the app")) if photo == logged else
                t(N_("On the photo: {goods} — not what the app says"))).format(goods=words(photo, t))

    def _last_move(self) -> str:
        actions = self.table.actions
        if not actions:
            return ""
        state = new_game_state(self.table)
        for action in actions[:-1]:
            state = state.apply(action)
        return translate_message(move_line(state, actions[-1], self.table.state), self.app.lang)

    def redo_move(self) -> str:
        redo = next_redo(self.table)
        if redo is None:
            return ""
        try:
            return translate_message(move_line(self.table.state, redo, self.table.state.apply(redo)), self.app.lang)
        except (IllegalAction, InvalidInput):
            return ""

    def _line_params(self, params):
        """A score line's parameters with colour words translated (sub-terms included)."""
        out = {}
        for k, v in params.items():
            if isinstance(v, str) and v in COLOUR:
                v = self.app.t(COLOUR[v])
            elif k == "terms" and isinstance(v, (list, tuple)):
                v = [(key, self._line_params(p)) for key, p in v]
            out[k] = v
        return out

    def _templates(self):
        """The scorer's English line templates, translated through the catalogue (same msgids)."""
        t = self.app.t

        def tr(v):
            if isinstance(v, str):
                return t(v)
            if isinstance(v, dict):
                return {k: tr(x) for k, x in v.items()}
            if isinstance(v, tuple):
                return tuple(tr(x) for x in v)
            return v
        return {k: tr(v) for k, v in TEMPLATES_EN.items()}


class ObsnEndScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
