"""A camera picture on screen with what was found on it drawn over it: a box per die (or heap of goods) and, above
it, what it was read as and how sure ("5 · 93 %"). Used by the camera screen (live), by a question about dice the
camera read (the photo the question is about) and by the goods count at the end of an Obscurians game.

The picture is a numpy BGR image (what vision/ gives); boxes are in its pixels. Overlays are drawn on the canvas,
not into the picture, so their text stays 24 px and sharp however the picture is scaled. Uploading a frame is one
texture blit (about a millisecond for 640x480): the live preview does it on the UI thread, everything slow (grabbing,
reading) runs in worker threads (vision/camera_device.py).
"""
from __future__ import annotations

import time
from pathlib import Path

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.image import Image

from companion.ui.sheets import ChoiceSheet, Sheet

SURE_RGBA = [0.30, 0.85, 0.45, 1]      # read and sure
DOUBT_RGBA = [0.98, 0.70, 0.20, 1]     # read, but the players should look (below the door's confidence)


def box_rows(detections, sure: float, text_of) -> list[dict]:
    """Overlay rows for detections with `.box` and `.confidence`: green when at least `sure`, amber below."""
    return [{"box": [float(v) for v in d.box], "text": text_of(d),
             "rgba": SURE_RGBA if d.confidence >= sure else DOUBT_RGBA} for d in detections]


class PhotoView(Image):
    """Shows `set_frame(image)`; draws `boxes` ([{"box": [x0, y0, x1, y1], "text", "rgba"}]) over it."""

    boxes = ListProperty()
    frame_size = ListProperty([0, 0])     # the picture's pixels (w, h); 0: nothing shown yet
    frames_shown = NumericProperty(0)     # frames uploaded since the view was made (the preview's rate is measured)
    upload_cpu = NumericProperty(0.0)     # CPU seconds the UI thread spent uploading them (bench_camera_preview)

    def __init__(self, **kwargs):
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        self.labels: list[str] = []        # the texts drawn over the picture (what the table reads)
        self._frame = None
        self._follow = None
        self._redraw = Clock.create_trigger(lambda _dt: self._draw_boxes())
        self.bind(boxes=self._redraw, pos=self._redraw, size=self._redraw, frame_size=self._redraw)

    def set_frame(self, image) -> None:
        """Show a BGR uint8 picture (a new texture only when its size changes)."""
        if image is None:
            return
        import cv2

        started = time.thread_time()

        h, w = image.shape[:2]
        tex = self.texture
        if tex is None or list(tex.size) != [w, h] or self.frame_size != [w, h]:
            tex = Texture.create(size=(w, h), colorfmt="rgb")
            tex.flip_vertical()   # numpy rows go top to bottom; the texture's from the bottom
            self.texture = tex
            self.frame_size = [w, h]
        rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB) if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
        tex.blit_buffer(memoryview(rgb).cast("B"), colorfmt="rgb", bufferfmt="ubyte")
        self._frame = image
        self.canvas.ask_update()
        self.frames_shown += 1
        self.upload_cpu += time.thread_time() - started

    def follow(self, newest) -> None:
        """Live: on every UI frame show `newest()` when it is a new frame (a cheap identity check, so no camera
        frame waits for a timer of its own). `follow(None)` stops."""
        if self._follow is not None:
            self._follow.cancel()
            self._follow = None
        if newest is None:
            return

        def tick(_dt):
            frame = newest()
            if frame is not None and frame is not self._frame:
                self.set_frame(frame)
        self._follow = Clock.schedule_interval(tick, 0)

    def _to_widget(self, x: float, y: float) -> tuple[float, float]:
        """A picture pixel to this widget's coordinates (the picture is centred, scaled to fit, y up)."""
        w, h = self.frame_size
        nw, nh = self.norm_image_size
        s = nw / w if w else 1.0
        left, bottom = self.center_x - nw / 2, self.center_y - nh / 2
        return left + x * s, bottom + (h - y) * s

    def _draw_boxes(self) -> None:
        self.canvas.after.clear()
        self.labels = []
        if not self.frame_size[0]:
            return
        with self.canvas.after:
            for row in self.boxes:
                x0, y0, x1, y1 = row["box"]
                ax, ay = self._to_widget(x0, y1)
                bx, by = self._to_widget(x1, y0)
                Color(*row.get("rgba", SURE_RGBA))
                Line(rectangle=(ax, ay, bx - ax, by - ay), width=dp(2))
                text = row.get("text", "")
                if not text:
                    continue
                label = CoreLabel(text=text, font_size=sp(24), bold=True)
                label.refresh()
                tw, th = label.texture.size
                # the text sits on the box's top edge, inside the picture (a box at the top keeps it below)
                ty = by if by + th <= self.center_y + self.norm_image_size[1] / 2 else ay - th
                Color(0, 0, 0, 0.65)
                Rectangle(pos=(ax, ty), size=(tw + dp(6), th))
                Color(*row.get("rgba", SURE_RGBA))
                Rectangle(pos=(ax + dp(3), ty), size=(tw, th), texture=label.texture)
                self.labels.append(text)


class PhotoChoiceSheet(ChoiceSheet):
    """A question about what a camera read, with the photo and its boxes beside it, and the answers (`extras`)."""

    def show(self, image, boxes) -> None:
        self.ids.photo.set_frame(image)
        self.ids.photo.boxes = boxes


class PhotoConfirmSheet(Sheet):
    """What a photo says (`lines`), the photo with its detections, and Use / Cancel: nothing is used unconfirmed."""

    question = StringProperty("")
    lines = StringProperty("")
    yes_text = StringProperty("")
    yes_action = None

    def show(self, image, boxes) -> None:
        self.ids.photo.set_frame(image)
        self.ids.photo.boxes = boxes

    def yes(self) -> None:
        action = self.yes_action
        self.app.close_sheet()
        if action is not None:
            action()


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
