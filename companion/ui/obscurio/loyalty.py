"""Loyalty cards dealt by the app, seen in private: the tablet is passed from wizard to wizard, each taps their
own name, and their card shows only while their finger holds it down; lifting the finger hides it at once.

After the deal a card shows only on a deliberate request by its holder ("Only Dan looks"), and every such look is
noted in the move log ("Dan looked at their loyalty card"; the engine's `Look` note, kept through Undo): a peek at
someone else's card is seen by the table.

Hidden stays hidden (table rule 5): no widget holds the word on the card except while its owner holds it (the text
is set on hold and emptied on release, not merely made invisible); the Loyal and the Traitor card look the same
from across the table (same colours, same place, same size); nothing else on any screen depends on who it is.

`LoyaltyModel` is the view-model; `ObsoLoyaltyScreen` is layout only (loyalty.kv).
"""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.games.errors import N_
from companion.games.obscurio.actions import Look
from companion.games.obscurio.vocabulary import ROLE
from companion.ui.obscurio import widgets as _own_widgets  # noqa: F401  (this game's widget rules)
from companion.ui.obscurio.model import TableModel


class LoyaltyModel(TableModel):
    mode = StringProperty("list")     # "list": whose turn to look; "private": one wizard holds the tablet
    wizards = ListProperty()
    heading = StringProperty("")
    who = StringProperty("")
    card_text = StringProperty("")    # the card's word, ONLY while its owner holds it; "" otherwise
    holding = BooleanProperty(False)
    from_table = BooleanProperty(False)
    finish_text = StringProperty("")
    note_text = StringProperty("")   # the look is noted in the move log

    def __init__(self, plugin, **kwargs):
        super().__init__(plugin, **kwargs)
        self._seen: set[str] = set()
        self._chip: str | None = None
        self._noted = False    # this private look is in the move log already
        self._repeat = False   # this private look is one beyond the deal: it is noted

    def reset(self, from_table: bool) -> None:
        self._seen, self._chip, self._noted = set(), None, False
        self.mode, self.holding, self.card_text = "list", False, ""
        self.from_table = from_table
        self.refresh()

    # -- taps ----------------------------------------------------------------------------------------------------
    def pick(self, chip: str) -> None:
        """A wizard takes the tablet: only their card may show now."""
        self._chip = chip
        self._noted = False
        # A look after the deal (from the table, or a second one during the deal) is noted in the move log.
        self._repeat = self.from_table or chip in self._seen
        self.mode = "private"
        self.refresh()

    def hold(self) -> None:
        if self.mode != "private" or self._chip is None:
            return
        # A look beyond the deal's first one is noted before the card shows (the table sees it in the log).
        if self._repeat and not self._noted:
            if not self.app.try_move(lambda: self.table.apply(Look(self._chip))):
                return
            self._noted = True
        state = self.table.state
        role = "traitor" if state.traitor == self._chip else "loyal"
        self.card_text = self.app.t(ROLE[role])
        self.holding = True
        self._seen.add(self._chip)

    def release(self) -> None:
        self.card_text = ""
        self.holding = False

    def pass_on(self) -> None:
        """The wizard is done: back to the list of names, nothing of the card left on screen."""
        self.release()
        self._chip, self._noted = None, False
        self.mode = "list"
        self.refresh()

    def finish(self) -> None:
        state = self.table.state
        missing = [c for c in state.setup.wizards if c not in self._seen]
        if missing and not self.from_table:
            self.app.say(self.app.t(N_("Not everyone has seen their card: {names}")).format(
                names=", ".join(state.setup.name_of(c) for c in missing)))
            return
        self.release()
        self.plugin.close_loyalty()

    # -- what the screen shows -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.table is None or self.table.state.setup.loyalty != "app":
            return
        setup, t = self.table.state.setup, self.app.t
        self.wizards = [{"value": c, "text": (t(N_("{name}: seen")).format(name=setup.name_of(c)) if c in self._seen
                                              else setup.name_of(c)),
                         "enabled": True, "selected": c in self._seen} for c in setup.wizards]
        self.who = setup.name_of(self._chip) if self._chip else ""
        if self.mode == "private":
            self.heading = t(N_("Only {name} looks. Everyone else, look away.")).format(name=self.who)
            self.note_text = t(N_("This look is noted in the move log.")) if self._repeat else ""
        elif self.from_table:
            self.heading = t(N_("Who wants to look at their own loyalty card? Only that wizard looks, and the look "
                                "is noted in the move log."))
            self.note_text = ""
        else:
            self.heading = t(N_("Loyalty cards: pass the tablet to each wizard. Tap your own name."))
            self.note_text = ""
        self.finish_text = t(N_("Back to the table")) if self.from_table else t(N_("Everyone has seen: start"))


class ObsoHoldCard(Widget):
    """The card: shows its word only while a finger holds it down (the touch is followed even if it slides off)."""

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.grab(self)
        self.app_model().hold()
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is self:
            touch.ungrab(self)
            self.app_model().release()
            return True
        return super().on_touch_up(touch)

    @staticmethod
    def app_model():
        from kivy.app import App

        return App.get_running_app().plugin.loyalty


class ObsoLoyaltyScreen(Screen):
    model = ObjectProperty(None, rebind=True)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
