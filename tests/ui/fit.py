"""Layout checks shared by the UI drivers of every game (the agreed interface: /work/wt/FIT_INTERFACE.md).

- `unfit_labels(root)`: every label on screen whose text does not fit its box (too big for it, cut short with an
  ellipsis or lines dropped, a word broken in the middle, or running off the window);
- `control_places(root)` and `moved(before, after)`: where every control is, to check that none moves under a
  finger while it stays on the screen (docs/architecture.md, table rule 2);
- `WINDOW_SIZES`: the window sizes (dp, landscape) the screens are laid out for; the checks run at the smallest
  and the largest.

Everything is read from the live widget tree (Kivy), in window coordinates, so turned parts of a screen (a panel
facing its seat) are measured where a finger meets them. Call them once the layout has settled (a frame or two
after a touch).
"""
from __future__ import annotations

import re
from collections import Counter

WINDOW_SIZES = {"small": (960, 600), "tablet-8": (1024, 600), "4:3": (1024, 768), "16:10": (1280, 800),
                "large": (1366, 1024)}          # dp, landscape; smallest and largest are "small" and "large"

SLACK = 1.0  # px a text may exceed its box by (rounding of texture sizes)


# -- where a widget is, and whether it is seen ------------------------------------------------------------------------

def _ancestors(w):
    while w is not None:
        yield w
        parent = w.parent
        w = parent if parent is not w else None


def _hidden(w) -> bool:
    """Hidden by itself or by a part of the screen around it (opacity 0)."""
    return any(getattr(a, "opacity", 1) <= 0 for a in _ancestors(w))


def window_box(w) -> tuple[float, float, float, float]:
    """(x, y, w, h) of `w` in window coordinates, through every turn and scroll around it."""
    corners = [w.to_window(x, y) for x, y in ((w.x, w.y), (w.right, w.y), (w.x, w.top), (w.right, w.top))]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _inside(a, b, slack: float = SLACK) -> bool:
    return (a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[0] + a[2] <= b[0] + b[2] + slack
            and a[1] + a[3] <= b[1] + b[3] + slack)


def _clips(w):
    """The clipping views around `w` (ScrollView and other StencilViews), innermost first."""
    from kivy.uix.stencilview import StencilView

    return [a for a in list(_ancestors(w))[1:] if isinstance(a, StencilView)]


def _scrolled_out(w) -> bool:
    """Entirely outside one of the scrolled (clipping) views around it: not seen until someone scrolls."""
    box = window_box(w)
    return any(not _overlap(box, window_box(c)) for c in _clips(w))


def _window_size(w):
    win = w.get_root_window()
    if win is None:
        from kivy.core.window import Window as win
    return win.width, win.height


# -- naming a widget in a message ------------------------------------------------------------------------------------

def kv_id(w) -> str | None:
    """The kv id `w` has in the rule that made it, or None."""
    for a in list(_ancestors(w))[1:]:
        for name, value in getattr(a, "ids", {}).items():
            try:
                if value == w:
                    return name
            except ReferenceError:
                continue
    return None


def screen_name(w) -> str:
    """The screen `w` is on (a Screen's name), or the class of the outermost widget (a sheet over the screen)."""
    outer = w
    for a in _ancestors(w):
        if getattr(a, "manager", None) is not None and isinstance(getattr(a, "name", None), str):
            return a.name
        if a.parent is not None and a.parent is not a:
            outer = a
    return type(outer).__name__


def widget_name(w) -> str:
    ident = kv_id(w)
    name = f"#{ident}" if ident else type(w).__name__
    parent = w.parent
    if not ident and parent is not None and parent is not w:
        pid = kv_id(parent)
        name += f" in {'#' + pid if pid else type(parent).__name__}"
    return name


# -- labels that do not fit -------------------------------------------------------------------------------------------

_MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def _plain(label) -> str:
    text = label.text
    if getattr(label, "markup", False):
        text = _MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    return text


def _rendered_lines(label) -> list[str]:
    core = label._label
    return ["".join(word.text for word in line.words) for line in (core._cached_lines or [])]


def label_problem(label) -> str | None:
    """Why `label`'s text does not fit its box, or None."""
    if label._trigger_texture.is_triggered or label.texture is None:
        label.texture_update()  # render now, for the text and the box it has now (else Kivy has: nothing changed)
    text = _plain(label)
    tw, th = label.texture_size
    w, h = label.size
    if tw > w + SLACK or th > h + SLACK:
        return f"is {tw:.0f}x{th:.0f} px in a box of {w:.0f}x{h:.0f}"
    core = label._label
    lines = _rendered_lines(label)
    if getattr(core, "is_shortened", False):
        return f"is cut short in a box {w:.0f}x{h:.0f}: shows {' / '.join(lines)!r}"
    want, shown = text.split(), " ".join(lines).split()
    if Counter(want) != Counter(shown):
        if Counter("".join(want)) == Counter("".join(shown)):
            broken = [t for t in shown if t not in want]
            return f"breaks a word in the middle: {' / '.join(lines)!r} ({' | '.join(broken)})"
        return f"loses text: shows {' / '.join(lines)!r}"
    box = window_box(label)
    ww, wh = _window_size(label)
    if not _clips(label) and not _inside(box, (0, 0, ww, wh)):
        return f"runs off the window at ({box[0]:.0f}, {box[1]:.0f}, {box[2]:.0f}x{box[3]:.0f})"
    return None


def _labels_on_screen(root):
    from kivy.uix.label import Label

    for w in root.walk(restrict=True):
        if isinstance(w, Label) and w.text.strip() and not _hidden(w) and not _scrolled_out(w):
            yield w


def unfit_labels(root) -> list[str]:
    """Every Label under `root` that is on screen (not scrolled out of sight, not hidden, opacity > 0, non-empty
    text) whose text does not fit its box: the rendered text (texture_size) larger than the box (allow 1 px),
    cut short by shorten/ellipsis, or a word broken in the middle. Each problem as one readable line naming the
    screen, the widget (kv id or class) and the text.

    A widget that draws text of its own without Labels may say what does not fit with an `unfit()` method (a list
    of lines); a label drawn partly off the window (outside any scrolled view) is reported too."""
    out = []
    for label in _labels_on_screen(root):
        why = label_problem(label)
        if why:
            out.append(f"{screen_name(label)}: {widget_name(label)} {label.text[:60]!r} {why}")
    for w in root.walk(restrict=True):
        unfit = getattr(w, "unfit", None)
        if callable(unfit) and not _hidden(w) and not _scrolled_out(w):
            out += [f"{screen_name(w)}: {widget_name(w)} {line}" for line in unfit()]
    return out


# -- controls that hold still ---------------------------------------------------------------------------------------

def is_control(w) -> bool:
    from kivy.uix.behaviors import ButtonBehavior

    return isinstance(w, ButtonBehavior) or any(
        w.is_event_type(e) for e in ("on_press", "on_release") if hasattr(w, "is_event_type"))


class _Tree:
    """What control_places asks of a widget's ancestors, asked once for each parent in one look (siblings share it):
    hidden, the clipping views around, and where a point in the parent's own coordinates lies in the window. That
    last is affine (moves, turns, scales), so it is known from three points."""

    def __init__(self):
        self._hidden, self._clips, self._maps = {}, {}, {}

    def hidden(self, w) -> bool:
        if getattr(w, "opacity", 1) <= 0:
            return True
        p = w.parent
        if p is None or p is w:
            return False
        if id(p) not in self._hidden:
            self._hidden[id(p)] = self.hidden(p)
        return self._hidden[id(p)]

    def clips(self, w) -> tuple:
        """As _clips(w): the StencilViews around `w`, innermost first."""
        from kivy.uix.stencilview import StencilView

        p = w.parent
        if p is None or p is w:
            return ()
        if id(p) not in self._clips:
            self._clips[id(p)] = ((p,) if isinstance(p, StencilView) else ()) + self.clips(p)
        return self._clips[id(p)]

    def _affine(self, key, f):
        m = self._maps.get(key)
        if m is None:
            (ox, oy), (ax, ay), (bx, by) = f(0, 0), f(1, 0), f(0, 1)
            m = self._maps[key] = (ox, oy, ax - ox, ay - oy, bx - ox, by - oy)
        return m

    def to_window(self, w, x, y):
        """As w.to_window(x, y)."""
        p = w.parent
        if p is None or p is w:
            return x, y
        ox, oy, ax, ay, bx, by = self._affine(("window", id(p)), lambda u, v: p.to_window(u, v, initial=False))
        return ox + ax * x + bx * y, oy + ay * x + by * y

    def to_widget(self, w, x, y):
        """As w.to_widget(x, y) (a window point in `w`'s own coordinates)."""
        ox, oy, ax, ay, bx, by = self._affine(("widget", id(w)), w.to_widget)
        return ox + ax * x + bx * y, oy + ay * x + by * y

    def box(self, w, frame=None) -> tuple:
        """window_box(w), or with `frame` in that widget's own coordinates."""
        corners = [self.to_window(w, x, y) for x, y in ((w.x, w.y), (w.right, w.y), (w.x, w.top), (w.right, w.top))]
        if frame is not None:
            corners = [self.to_widget(frame, x, y) for x, y in corners]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)

    def shown_control(self, w) -> bool:
        if self.hidden(w) or w.width <= 0 or w.height <= 0:
            return False
        cx, cy = self.to_window(w, *w.center)
        return all(c.collide_point(*self.to_widget(c.parent, cx, cy)) for c in self.clips(w) if c.parent is not None)


def control_places(root, frame=None) -> dict:
    """Where each control on screen is, in window coordinates: {key: (x, y, w, h)} for every Button-like widget
    (Button, ToggleButton, anything with on_press / on_release) that is shown, keyed by a stable identity (kv id,
    or class + text + index), disabled ones included.

    A widget may name itself with a `control_key` (e.g. the option it stands for), which then is its identity.
    `frame`: measure in that widget's own coordinates instead of the window's (the parts of a screen turned to
    face a player, compared from one player's turn to the next)."""
    places, seen, tree = {}, Counter(), _Tree()
    for w in root.walk(restrict=True):
        if w is root or not is_control(w) or not tree.shown_control(w):
            continue
        own = getattr(w, "control_key", "")
        ident = kv_id(w)
        base = own or (f"#{ident}" if ident else f"{type(w).__name__}:{getattr(w, 'text', '')!r}")
        key = base if seen[base] == 0 else f"{base}[{seen[base]}]"
        seen[base] += 1
        x, y, bw, bh = tree.box(w, frame)
        places[key] = (round(x, 2), round(y, 2), round(bw, 2), round(bh, 2))
    return places


def moved(before: dict, after: dict, tol: float = 0.5) -> list[str]:
    """Controls present in both whose place changed by more than `tol` px, one readable line each."""
    out = []
    for key in before.keys() & after.keys():
        a, b = before[key], after[key]
        if any(abs(p - q) > tol for p, q in zip(a, b)):
            out.append(f"{key} moved from ({a[0]:.0f}, {a[1]:.0f}, {a[2]:.0f}x{a[3]:.0f}) "
                       f"to ({b[0]:.0f}, {b[1]:.0f}, {b[2]:.0f}x{b[3]:.0f})")
    return sorted(out)
