"""Layout checks shared by the screen tests (the interface agreed in FIT_INTERFACE.md): does every label on screen
fit its box, and where is every control — measured from the live widget tree of the real app, in window
coordinates, whatever part of the screen is turned to face another seat.

    WINDOW_SIZES                 the window sizes every screen is laid out for, in dp (landscape, 16:10 and 4:3)
    unfit_labels(root)           every label on screen whose text does not fit its box, one readable line each
    control_places(root)         {key: (x, y, w, h)} of every control on screen, in window coordinates
    moved(before, after, tol)    the controls that moved between two readings
"""
from __future__ import annotations

WINDOW_SIZES = {"small": (960, 600), "tablet-8": (1024, 600), "4:3": (1024, 768), "16:10": (1280, 800),
                "large": (1366, 1024)}          # dp, landscape; smallest and largest are "small" and "large"

ELLIPSIS = ("...", "…")


def unfit_labels(root) -> list[str]:
    """Every Label under `root` that is on screen (not scrolled out of sight, not hidden, opacity > 0, non-empty
    text) whose text does not fit its box: the rendered text (texture_size) larger than the box (allow 1 px),
    cut short by shorten/ellipsis, or a word broken in the middle. Each problem as one readable line naming the
    screen, the widget (kv id or class) and the text."""
    from kivy.uix.label import Label

    screen = _screen_name(root)
    ids = _ids(root)
    out = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not isinstance(w.text, str) or not w.text.strip() or not _on_screen(w):
            continue
        problem = _label_problem(w)
        if problem:
            name = ids.get(id(w), type(w).__name__)
            out.append(f"{screen}: {name} {w.text!r}: {problem}")
    return out


def control_places(root) -> dict:
    """Where each control on screen is, in window coordinates: {key: (x, y, w, h)} for every Button-like widget
    (Button, ToggleButton, anything with on_press / on_release) that is shown, keyed by a stable identity (kv id,
    or class + text + index), disabled ones included."""
    ids = _ids(root)
    places, seen = {}, {}
    for w in root.walk(restrict=True):
        if not _is_control(w) or not _shown(w, allow_disabled=True):
            continue
        key = ids.get(id(w))
        if key is None:
            base = f"{type(w).__name__}:{getattr(w, 'text', '')}"
            seen[base] = seen.get(base, -1) + 1
            key = f"{base}:{seen[base]}"
        places[key] = window_box(w)
    return places


def moved(before: dict, after: dict, tol: float = 0.5) -> list[str]:
    """Controls present in both whose place changed by more than `tol` px, one readable line each."""
    out = []
    for key in before:
        if key in after and any(abs(a - b) > tol for a, b in zip(before[key], after[key])):
            out.append(f"{key}: {tuple(round(v, 1) for v in before[key])} -> {tuple(round(v, 1) for v in after[key])}")
    return out


# -- helpers ----------------------------------------------------------------------------------------------------

def window_box(w) -> tuple[float, float, float, float]:
    """(x, y, w, h) of `w` in window coordinates: the box around its four corners (a turned part included)."""
    corners = [w.to_window(x, y) for x in (w.x, w.right) for y in (w.y, w.top)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _is_control(w) -> bool:
    from kivy.uix.behaviors import ButtonBehavior

    if isinstance(w, ButtonBehavior):
        return True
    try:
        return w.is_event_type("on_release") or w.is_event_type("on_press")
    except Exception:
        return False


def _shown(w, allow_disabled: bool) -> bool:
    if w.width < 1 or w.height < 1:
        return False
    node = w
    while node is not None and node.parent is not node:
        if getattr(node, "opacity", 1) <= 0:
            return False
        if not allow_disabled and getattr(node, "disabled", False):
            return False
        node = node.parent
    return _in_sight(w)


def _on_screen(w) -> bool:
    return _shown(w, allow_disabled=True)


def _in_sight(w) -> bool:
    """Not scrolled out of sight: some of `w` lies inside every ScrollView around it."""
    from kivy.uix.scrollview import ScrollView

    x, y, bw, bh = window_box(w)
    p = w.parent
    while p is not None and p.parent is not p:
        if isinstance(p, ScrollView):
            sx, sy, sw, sh = window_box(p)
            if x + bw <= sx + 1 or x >= sx + sw - 1 or y + bh <= sy + 1 or y >= sy + sh - 1:
                return False
        p = p.parent
    return True


def _label_problem(w) -> str:
    w.texture_update()
    tw, th = w.texture_size
    text_w, text_h = w.text_size
    box_w = text_w if text_w else w.width
    box_h = min(text_h, w.height) if text_h else w.height
    if tw > w.width + 1 or th > w.height + 1:
        return f"text {tw:.0f}x{th:.0f} px in a box of {w.width:.0f}x{w.height:.0f}"
    lines = _lines(w)
    shown = [tok for line in lines for tok in line.split()]
    wanted = w.text.split()
    if shown != wanted:
        if any(e in line for line in lines for e in ELLIPSIS) and not any(e in w.text for e in ELLIPSIS):
            return f"cut short to {' / '.join(lines)!r}"
        if len(" ".join(shown)) < len(" ".join(wanted)):
            return f"only {' / '.join(lines)!r} fits"
        return f"a word broken in the middle: {' / '.join(lines)!r}"
    if text_w and box_w < tw - 1:
        return f"text {tw:.0f} px wide in {box_w:.0f} px"
    if box_h and th > box_h + 1:
        return f"text {th:.0f} px high in {box_h:.0f} px"
    if text_h:
        # A fixed-height box renders only what fits it: the text's own height, laid out at that width, must fit.
        natural = _natural_height(w)
        if natural > box_h + 1:
            return f"text {natural:.0f} px high in a box of {box_h:.0f} px"
    return ""


def _natural_height(w) -> float:
    core = w._label
    options = dict(core.options)
    options["text_size"] = (w.text_size[0], None)
    probe = type(core)(**options)
    probe.refresh()
    return probe.texture.height if probe.texture is not None else 0


def _lines(w) -> list[str]:
    """The lines the label really rendered (Kivy's own layout of its text)."""
    core = w._label
    cached = getattr(core, "_cached_lines", None)
    if not cached:
        return [w.text]
    return ["".join(word.text for word in line.words) for line in cached]


def _ids(root) -> dict:
    """id(widget) -> kv id, from every ids dict under (and around) `root`."""
    out = {}
    for w in root.walk(restrict=True):
        for name, target in getattr(w, "ids", {}).items():
            out.setdefault(id(target), name)
    return out


def _screen_name(root) -> str:
    node = root
    while node is not None:
        if getattr(node, "name", "") and hasattr(node, "manager"):
            return node.name
        node = node.parent if node.parent is not node else None
    return type(root).__name__
