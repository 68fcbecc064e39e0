"""The shell's shared widgets, one module per kind; their looks are in the .kv beside each. Importing this package
loads every shared kv rule, so a screen's .kv can use them.

    panels       Framed (the rounded frame they draw), Panel, Home's rows (GameCard, TableItem)
    buttons      BigButton, LangButton, Banner
    containers   rows from dicts (RepeatGrid, RepeatStack, TopAlignedGrid), HideBox/HideGrid, FitScrollView
    dragdrop     Draggable, the ghost under the finger, drop targets in window coordinates
    goods_chips  ChipRow: a player's goods drawn by one widget
    turned       Turned: a part of the screen facing one side of the table
    labels.kv    Txt, Heading
    heading_bar.kv  the bar along the top of a shell screen: HeadingBar, BackButton, HomeButton, BarTitle,
                 MenuButton, LanguageButtons
"""
from pathlib import Path

from kivy.lang import Builder

from companion.ui.widgets.buttons import Banner, BigButton, LangButton
from companion.ui.widgets.containers import (
    FitScrollView, HideBox, HideGrid, RepeatGrid, RepeatStack, TopAlignedGrid,
)
from companion.ui.widgets.dragdrop import Draggable, DragGhost, covers, drop_target_at, drop_targets, in_sight
from companion.ui.widgets.goods_chips import ChipRow, chip_texture
from companion.ui.widgets.panels import Framed, GameCard, Panel, TableItem
from companion.ui.widgets.turned import Turned

for _rules in ("labels.kv", "heading_bar.kv"):  # rules of no Python class here: loaded with the package
    Builder.load_file(str(Path(__file__).with_name(_rules)))

__all__ = ["Banner", "BigButton", "ChipRow", "DragGhost", "Draggable", "FitScrollView", "Framed", "GameCard",
           "HideBox", "HideGrid", "LangButton", "Panel", "RepeatGrid", "RepeatStack", "TableItem", "TopAlignedGrid",
           "Turned", "chip_texture", "covers", "drop_target_at", "drop_targets", "in_sight"]
