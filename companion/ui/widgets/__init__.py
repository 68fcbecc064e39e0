"""The shell's shared widgets, one module per kind; their looks are in the .kv beside each. Importing this package
loads every shared kv rule, so a screen's .kv can use them.

    panels       Framed (the rounded frame they draw), Panel, Home's rows (GameCard, TableItem)
    buttons      BigButton, LangButton, Banner
    containers   rows from dicts (RepeatGrid, RepeatStack, TopAlignedGrid), HideBox/HideGrid, FitScrollView
    dragdrop     Draggable, the ghost under the finger, drop targets in window coordinates        (loaded when used)
    pills        PillRow: a player's goods as coloured pills, drawn by one widget                 (loaded when used)
    turned       Turned: a part of the screen facing one side of the table                         (loaded when used)
    labels.kv    Txt, Heading
    heading_bar.kv  the bar along the top of a shell screen: HeadingBar, BackButton, HomeButton, BarTitle,
                 MenuButton, LanguageButtons

Home's first frame needs only the first three modules (bench/bench_startup.py; tests/ui/test_startup_imports.py).
The other three are imported the first time a game's screen, a sheet or the code asks for one of their names: a
.kv rule through Kivy's Factory (registered here by module), Python code through this package's attributes
(`from companion.ui.widgets import Turned`, `widgets.Turned`).
"""
import importlib
from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder

from companion.ui.widgets.buttons import Banner, BigButton, LangButton
from companion.ui.widgets.containers import (
    FitScrollView, HideBox, HideGrid, RepeatGrid, RepeatStack, TopAlignedGrid,
)
from companion.ui.widgets.panels import Framed, GameCard, Panel, TableItem, covers

# Loaded when first used: each name, the module that defines it.
LATER = {
    "Draggable": "dragdrop", "DragGhost": "dragdrop", "drop_target_at": "dragdrop", "drop_targets": "dragdrop",
    "in_sight": "dragdrop",
    "PillRow": "pills", "pill_texture": "pills",
    "Turned": "turned",
}
for _name, _module in LATER.items():
    if _name[0].isupper():  # a widget class: a .kv rule may name it before any Python code has
        Factory.register(_name, module=f"{__name__}.{_module}")


def __getattr__(name: str):
    """A name of a module loaded when first used (PEP 562: only called for names not found here)."""
    if name in LATER:
        value = getattr(importlib.import_module(f"{__name__}.{LATER[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Rules of no Python class here, loaded with the package; pills.kv's GoodsPills is a rule on PillRow, which the
# Factory imports when a GoodsPills is first made.
for _rules in ("labels.kv", "heading_bar.kv", "pills.kv"):
    Builder.load_file(str(Path(__file__).with_name(_rules)))

__all__ = ["Banner", "BigButton", "PillRow", "DragGhost", "Draggable", "FitScrollView", "Framed", "GameCard",
           "HideBox", "HideGrid", "LangButton", "Panel", "RepeatGrid", "RepeatStack", "TableItem", "TopAlignedGrid",
           "Turned", "pill_texture", "covers", "drop_target_at", "drop_targets", "in_sight"]
