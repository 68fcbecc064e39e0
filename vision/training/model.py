"""The dice reader's two networks.

DiceNet finds dice: a small CenterNet-style model (a centre heat map, box size, offset). Depthwise-separable blocks
keep it under ~0.3 GMAC for a 640x640 photo, so cv2.dnn runs it on one core in the time budget; the output stride
is 8 (a 21 px die still covers more than two cells). Outputs (channels first): 0 heat logit, 1-2 log(box width,
height / stride), 3-4 the centre's offset within its cell (x, y).

ReaderNet reads one die: a 40x40 crop around a found die -> 7 logits (faces 1-6 and "not a die") and where the
die really is in the crop. Reading the face from a crop at the photo's full resolution is easier to learn (and to
make turn-proof) than from the heat map's 8-pixel cells.
"""
from __future__ import annotations

import torch
from torch import nn

STRIDE = 8
OUT_CHANNELS = 5
CLASSES = 7   # faces 1-6, then 'not a die'


def _conv(cin, cout, k=3, s=1, d=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, padding=d * (k // 2), dilation=d, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class _Sep(nn.Module):
    """Depthwise 3x3 then pointwise 1x1; a residual when the shape stays."""

    def __init__(self, cin, cout, s=1, d=1):
        super().__init__()
        self.dw = nn.Sequential(nn.Conv2d(cin, cin, 3, s, padding=d, dilation=d, groups=cin, bias=False),
                                nn.BatchNorm2d(cin), nn.ReLU(inplace=True))
        self.pw = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.residual = s == 1 and cin == cout
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        y = self.pw(self.dw(x))
        return self.act(y + x if self.residual else y)


class DiceNet(nn.Module):
    def __init__(self, width: int = 1):
        super().__init__()
        self.stem = _conv(3, 16, s=2)                                           # /2
        self.s4 = nn.Sequential(_Sep(16, 32, s=2), _Sep(32, 32))                # /4
        self.s8 = nn.Sequential(_Sep(32, 64, s=2), _Sep(64, 64), _Sep(64, 64))  # /8
        self.s16 = nn.Sequential(_Sep(64, 128, s=2), _Sep(128, 128, d=2), _Sep(128, 128, d=4))  # /16, wide view
        self.lateral = nn.Sequential(nn.Conv2d(128, 64, 1, bias=False), nn.BatchNorm2d(64))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse = nn.Sequential(_Sep(64, 64), _Sep(64, 64))
        self.head = nn.Conv2d(64, OUT_CHANNELS, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0   # the heat map starts nearly empty (focal-loss prior)

    def forward(self, x):
        x = self.stem(x)
        x = self.s4(x)
        f8 = self.s8(x)
        f16 = self.s16(f8)
        y = self.fuse(torch.relu(f8 + self.up(self.lateral(f16))))
        return self.head(y)


class FaceNet(nn.Module):
    """Reads one placed die from a tight 48x48 crop (vision.dice.CROP: at 48 px a 40 px die's pips keep their own
    size, 32x32 blurred them away): 7 logits (faces 1-6, not a die). About 35 M multiply-adds."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            _conv(3, 24), nn.MaxPool2d(2),                    # 24
            _conv(24, 48), nn.MaxPool2d(2),                   # 12
            _conv(48, 96), _conv(96, 96), nn.MaxPool2d(2),    # 6
            _conv(96, 128), _conv(128, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Dropout(0.2), nn.Linear(128, CLASSES))

    def forward(self, x):
        return self.body(x)


READ_SIDE = 40
READ_OUTPUTS = CLASSES + 3   # 7 logits, then the true die's centre (dx, dy) and log side, in crop sides


class ReaderNet(nn.Module):
    """Reads one die from a 40x40 crop of the photo around a found box (1.6 times its side, so the whole die is in
    view even when the finder's box is off): 7 logits (faces 1-6, not a die) and where the die really is. The
    last map keeps its 5x5 layout (no global pooling): where the die sits in the crop is the box's answer."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            _conv(3, 32), nn.MaxPool2d(2),                    # 20
            _conv(32, 64), nn.MaxPool2d(2),                   # 10
            _conv(64, 96), _conv(96, 96), nn.MaxPool2d(2),    # 5
            _conv(96, 64, k=1), nn.Flatten(),
            nn.Dropout(0.2), nn.Linear(64 * 25, 128), nn.ReLU(inplace=True), nn.Linear(128, READ_OUTPUTS))

    def forward(self, x):
        return self.body(x)
NOT_A_DIE_CLASS = CLASSES - 1
