"""Every Obscurio screen, at every window size, in one language: the label-fit check (tests/ui/fit.py) and "every
control inside the window" at each state, with screenshots at the sizes asked for. The driver's `tour` scenario
(tests/ui/obscurio_driver.py) runs this; tests/ui/test_obscurio_layout.py runs it in English, German and Spanish.

The states are reached by touch, on three tables: an 8-player table set up by touch (the setup in several shapes,
the box's checklist, the real bag, the night under Dark Magic, 7 wizards' doors, "Stop!", a turn with 7 traps and
7 doors revealed one at a time), a prepared 8-player table in the Accusation Phase (the result, the talk, 7 rows of
votes, the cards shown, a second round), a prepared 8-player table about to wake the Watcher and escape (the
Watcher's moment, the traps panel with the Watcher, the Traitor revealed at the end, the end), and a 5-player table
whose loyalty cards the app deals (the deal, a held card, a request from the table). The window is resized between
the sizes while the app runs, as a desktop window would be.
"""
from __future__ import annotations

from pathlib import Path

from tests.ui.fit import WINDOW_SIZES, control_places, unfit_labels, window_box
from tests.ui.obscurio_driver import NAMES
from tests.ui.obscurio_scenarios import (
    ACCUSE, END, NIGHT, PRIVATE, TABLE, acknowledge, close_checklist, place, state,
)
from tests.ui.touch import Stuck

EIGHT = tuple(zip(NAMES, ("grimoire", "blue", "green", "red", "yellow", "orange", "pink", "turquoise")))
SHOT_SIZES = ("16:10", "4:3", "small")    # the screenshots a player looks at: 1280×800, 1024×768, 960×600


def prepare(store, seed: int) -> dict:
    """Tables the tour opens from Home: one in the Accusation Phase, one whose next Exit wakes the Watcher."""
    from companion.games.obscurio import Chip, Decoys, Done, Draw, EndTurn, Exit, Riddle, Setup
    from companion.session.table import Table

    wizards = [c for _, c in EIGHT if c != "grimoire"]
    ids = {}
    # 3 tokens in the normal area: three wrong chips empty it in turn 1.
    accusation = Table.create(store, "obscurio", Setup(EIGHT, cohesion=10, dark=7, bag="physical", seed=seed),
                              title="tour: accusation")
    for action in (Draw(("dark_night",)), Riddle(), Decoys(None), *(Chip(c, 2 if i < 3 else 1)
                                                                     for i, c in enumerate(wizards)), Done(), Exit(1)):
        accusation.apply(action)
    ids["accusation"] = accusation.id
    watcher = Table.create(store, "obscurio", Setup(EIGHT, bag="physical", seed=seed), title="tour: the Watcher")
    for turn in range(5):
        watcher.apply(Draw(("dark_night",)))
        for action in (Riddle(), Decoys(None), *(Chip(c, 1) for c in wizards), Done()):
            watcher.apply(action)
        if turn < 4:
            watcher.apply(Exit(1))
            watcher.apply(EndTurn())
    ids["watcher"] = watcher.id
    return ids


class Tour:
    def __init__(self, f, args):
        self.f = f
        self.args = args
        self.shots = Path(args.shots) if args.shots else None
        self.problems: list[str] = []
        self.outside: list[str] = []
        self.overflow: list[str] = []
        self.laid_out: dict = {}   # window size -> the size the plug-in laid its screens out for
        self.states: list[str] = []
        self.trap_rows: dict = {}

    async def check(self, name: str) -> None:
        """This state at every window size: labels that do not fit, controls outside the window; screenshots."""
        from kivy.core.window import Window
        from kivy.metrics import dp

        f = self.f
        self.states.append(name)
        wanted = [k for k in self.args.sizes.split(",") if k] or list(WINDOW_SIZES)
        for key, (w, h) in WINDOW_SIZES.items():
            if key not in wanted and not (self.shots is not None and key in SHOT_SIZES):
                continue
            Window.size = (dp(w), dp(h))
            await f.frames(4)
            roots = [f.screen()] + ([f.app.sheet] if f.app.sheet is not None else [])
            for root in roots:
                for line in unfit_labels(root) + clipped(root):
                    self.problems.append(f"{w}x{h} {name}: {line}")
            places = control_places(f.app.sheet if f.app.sheet is not None else f.screen())
            for control, (x, y, cw, ch) in places.items():
                if x < -1 or y < -1 or x + cw > Window.width + 1 or y + ch > Window.height + 1:
                    self.outside.append(f"{w}x{h} {name}: {control} at {(round(x), round(y), round(cw), round(ch))}")
            self.overflow += [f"{w}x{h} {name}: {line}" for line in spilled(f)]
            self.laid_out[f"{w}x{h}"] = (round(f.app.plugin.layout.width), round(f.app.plugin.layout.height),
                                         f.app.plugin.layout.compact)
            if name.startswith("step4-7traps"):
                self.trap_rows[f"{w}x{h}"] = self._traps_in_sight()
            if self.shots is not None and key in SHOT_SIZES:
                await f.shot(self.shots, f"{self.args.prefix}{name}-{w}x{h}")
        Window.size = (dp(1280), dp(800))
        await f.frames(4)

    def _traps_in_sight(self) -> list:
        """Each trap row of the panel: (name, wholly in sight in the panel's scroll view)."""
        panel = self.f.by_id("traps_panel")
        view = next(w for w in panel.walk(restrict=True) if type(w).__name__ == "ScrollView")
        vx, vy, vw, vh = window_box(view)
        rows = []
        for row in self.f.by_class("ObsoTrapRow"):
            x, y, w, h = window_box(row)
            rows.append((row.name, y >= vy - 1 and y + h <= vy + vh + 1))
        return rows


async def tour(f, args) -> dict:
    t = Tour(f, args)
    ids = prepare_ids(args)
    await setup_and_first_turns(f, t)
    await f.tap(f.by_id("home"))
    await open_table(f, ids["accusation"])
    await accusation(f, t)
    await f.tap(f.by_id("home"))
    await open_table(f, ids["watcher"])
    await watcher_and_end(f, t)
    await f.tap(f.by_id("home"))
    await loyalty_deal(f, t)
    return {"problems": t.problems, "outside": t.outside, "overflow": t.overflow, "states": t.states,
            "trap_rows": t.trap_rows, "laid_out": t.laid_out}


def clipped(root) -> list[str]:
    """Labels of a fixed height (a button's text) whose wrapped text is taller than the box: Kivy draws the lines
    that fit and cuts the rest, so no word is missing from its layout, yet the first or last line is half gone."""
    from kivy.uix.label import Label

    from tests.ui.fit import _hidden, _scrolled_out

    out = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not w.text.strip() or _hidden(w) or _scrolled_out(w):
            continue
        width, height = w.text_size
        if not width or not height:
            continue
        core = w._label
        options = dict(core.options)
        options["text_size"] = (width, None)
        probe = type(core)(**options)
        probe.refresh()
        if probe.texture is not None and probe.texture.height > height + 1:
            out.append(f"{type(w).__name__} {w.text[:60]!r} is {probe.texture.height:.0f} px high in a box of "
                       f"{height:.0f}")
    return out


def spilled(f) -> list[str]:
    """What lies outside the box laid out for it: a child of a box or grid layout out of its parent (a column
    taller than its place spills over what is around it), or anything out of the window."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.gridlayout import GridLayout

    from tests.ui.fit import _hidden

    out = []
    roots = [f.screen()] + ([f.app.sheet] if f.app.sheet is not None else [])
    for root in roots:
        for w in root.walk(restrict=True):
            parent = w.parent
            if not isinstance(parent, (BoxLayout, GridLayout)) or _hidden(w) or w.width < 1 or w.height < 1:
                continue
            x, y, ww, wh = window_box(w)
            px, py, pw, ph = window_box(parent)
            if x < px - 2 or y < py - 2 or x + ww > px + pw + 2 or y + wh > py + ph + 2:
                out.append(f"{type(w).__name__} {str(getattr(w, 'text', ''))[:40]!r} at "
                           f"{(round(x), round(y), round(ww), round(wh))} outside its {type(parent).__name__} "
                           f"{(round(px), round(py), round(pw), round(ph))}")
    return out


def prepare_ids(args) -> dict:
    import json

    return json.loads(Path(args.data_dir, "tour.json").read_text())


async def open_table(f, table_id: int) -> None:
    from tests.ui.obscurio_scenarios import _open_button

    await f.wait_screen("home")
    rows = [r for r in f.by_class("TableItem") if r.resume and r.table_id == table_id]
    if not rows:
        raise Stuck(f"table {table_id} is not on Home")
    await f.tap(_open_button(rows[0]))
    await f.frames(3)


async def setup_and_first_turns(f, t: Tour) -> None:
    await f.wait_screen("home")
    await f.tap(f.by_class("GameCard", game="obscurio")[0].ids.new_button)
    await f.wait_screen("obscurio-setup")
    await f.tap(f.one("ObsoCountButton", n=2))
    await t.check("setup-2p")
    await f.tap(f.one("ObsoCountButton", n=8))
    for row in sorted(f.by_class("ObsoSetupRow"), key=lambda r: r.index):
        await f.type_text(row.ids.name, NAMES[row.index])
    await f.tap(f.by_id("bag_physical"))
    await f.tap(f.by_id("countdown").children[0])          # + : a countdown for the Traitor's choice
    await t.check("setup-8p")
    await f.tap(f.by_id("start"))
    await f.frames(3)
    await t.check("checklist")
    await close_checklist(f)
    # Turn 1, the real bag: +2, Dark Magic, Dusk Hallway (the longest name in Spanish).
    await f.wait_screen(TABLE)
    for trap in ("plus2", "dark_magic"):
        await f.tap(f.one("ObsoTrapButton", value=trap))
    await t.check("step1-real-bag")
    await f.tap(f.one("ObsoTrapButton", value="dusk_hallway"))
    await f.tap(f.by_id("confirm_draw"))
    await t.check("step2-riddle")
    await f.tap(f.by_id("riddle"))
    await f.wait_screen(NIGHT)
    await t.check("night-line")
    await to_choice(f)
    await t.check("night-choice-dark-magic")
    await f.tap(f.one("ObsoPickButton", value=1))
    await t.check("night-closing")
    while f.app.sm.current == NIGHT:
        await f.tap(f.by_id("next_line"))
    await f.wait_screen(TABLE)
    await t.check("step4-first-card")
    await f.tap(f.by_id("first_card"))
    for i, chip in enumerate(state(f).chips[:5]):
        await place(f, chip, 1 + i % 6)
    await t.check("step4-doors-7-wizards")
    for _ in range(len(state(f).track)):
        await f.advance(state(f).setup.rules.hourglass)
    await t.check("step4-stop")
    await f.tap(f.one("ObsoDoorHead", door=1))
    await t.check("step5-result")
    await f.tap(f.by_id("next_turn"))
    # Turn 2 (+2 from "Stop!"): 3 due, two +2s make 7 tokens: every trap of the turn in sight in step 4.
    await f.wait_screen(TABLE)
    for trap in ("plus2", "plus2", "great_room", "locked_doors", "concealed_door", "dangerous_room",
                 "evanescent_room"):
        await f.tap(f.one("ObsoTrapButton", value=trap))
    await t.check("step1-7traps")
    await real_draw_to_step_4(f)
    await place(f, "blue", 1)
    await f.tap(f.by_id("open_next"))
    await t.check("step4-7traps-locked-7-doors")


async def to_choice(f) -> None:
    """Next line until the night stands at the Traitor's choice."""
    while not f.app.plugin.narrator.waiting:
        await f.tap(f.by_id("next_line"))


async def real_draw_to_step_4(f) -> None:
    """The tokens tapped in confirmed, the riddle, a night with no count to give, the first card down."""
    await f.tap(f.by_id("confirm_draw"))
    await f.tap(f.by_id("riddle"))
    await f.wait_screen(NIGHT)
    await to_choice(f)
    await f.tap(f.by_id("close_holder"))
    while f.app.sm.current == NIGHT:
        await f.tap(f.by_id("next_line"))
    await f.wait_screen(TABLE)
    await f.tap(f.by_id("first_card"))


async def accusation(f, t: Tour) -> None:
    await f.wait_screen(ACCUSE)
    await t.check("accusation-result")
    await f.tap(f.by_id("turn_glass"))
    await t.check("accusation-talk")
    await f.tap(f.by_id("vote_now"))
    wizards = state(f).setup.wizards
    for i, voter in enumerate(wizards):
        await f.tap(f.one("ObsoVoteCell", voter=voter, target=wizards[(i + 1) % len(wizards)] if i < 2 else "-"))
    await t.check("accusation-vote-7")
    for voter in wizards[2:]:
        await f.tap(f.one("ObsoVoteCell", voter=voter, target=wizards[0] if voter != wizards[0] else wizards[1]))
    await f.tap(f.by_id("count"))
    await t.check("accusation-cards")
    await f.tap(f.one("ObsoCardButton", value=""))
    await t.check("accusation-round-2-result")
    await f.tap(f.by_id("menu"))
    await f.frames(2)
    await t.check("menu")
    f.app.close_sheet()
    await f.frames(2)


async def watcher_and_end(f, t: Tour) -> None:
    await f.wait_screen(TABLE)
    await f.tap(f.one("ObsoDoorHead", door=1))         # the 5th room: the Watcher wakes
    await t.check("watcher-moment")
    await acknowledge(f)
    await t.check("step5-watcher")
    await f.tap(f.by_id("next_turn"))
    await f.tap(f.one("ObsoTrapButton", value="dark_night"))
    await real_draw_to_step_4(f)
    for chip in state(f).chips:
        await place(f, chip, 1)
    await t.check("step4-watcher")
    await f.tap(f.by_id("done"))
    await f.tap(f.one("ObsoDoorHead", door=1))          # the escape: who was the Traitor?
    await f.wait_screen(END)
    await t.check("end-unmask")
    await f.tap(f.one("ObsoUnmaskButton", value="orange"))
    await t.check("end-over")
    await f.tap(f.by_id("undo"))                        # the Traitor is known now: Undo asks first
    await f.frames(2)
    await t.check("undo-after-reveal")
    f.app.close_sheet()
    await f.frames(2)


async def loyalty_deal(f, t: Tour) -> None:
    await f.wait_screen("home")
    await f.tap(f.by_class("GameCard", game="obscurio")[0].ids.new_button)
    await f.wait_screen("obscurio-setup")
    await f.tap(f.one("ObsoCountButton", n=5))
    await f.tap(f.by_id("loyalty_app"))
    await f.tap(f.by_id("start"))
    await f.frames(3)
    await close_checklist(f)
    await f.wait_screen(PRIVATE)
    await t.check("loyalty-deal")
    await f.tap(f.one("ObsoWizardButton", value="blue"))
    touch = await f.press(f.by_id("card"))
    await t.check("loyalty-held")
    await f.lift(touch)
    await f.tap(f.by_id("pass_on"))
    for chip in ("green", "red", "yellow"):
        await f.tap(f.one("ObsoWizardButton", value=chip))
        touch = await f.press(f.by_id("card"))
        await f.lift(touch)
        await f.tap(f.by_id("pass_on"))
    await f.tap(f.by_id("finish"))
    await f.wait_screen(TABLE)
    await f.tap(f.by_id("loyalty"))
    await f.wait_screen(PRIVATE)
    await t.check("loyalty-request")
    await f.tap(f.one("ObsoWizardButton", value="red"))
    await t.check("loyalty-only-one-looks")
