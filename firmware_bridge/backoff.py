"""How long the device manager waits before trying a lost device again: exponential, capped, with jitter."""
from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Backoff:
    """Delay before reconnect attempt n (0, 1, 2 …): base × factor^n, capped, then scaled by a random factor in
    [1 - jitter, 1] so dice that dropped together do not retry in lock-step."""
    base: float = 0.5
    factor: float = 2.0
    cap: float = 30.0
    jitter: float = 0.5
    rng: random.Random = field(default_factory=random.Random)

    def delay(self, attempt: int) -> float:
        raw = min(self.cap, self.base * self.factor ** min(attempt, 64))
        return raw * (1.0 - self.jitter * self.rng.random())
