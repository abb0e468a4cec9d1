"""deals.shuffle: the deck and the generator's state after it are those of rng.shuffle."""
import random

from interpreter.engine.deals import shuffle


class _Own(random.Random):
    """A generator of its own kind: it shuffles itself."""

    def random(self) -> float:
        return 0.5


def test_shuffle_is_rng_shuffle():
    for seed in range(200):
        for size in (0, 1, 2, 3, 24, 32, 33, 54, 64, 100):
            a, b = random.Random(seed), random.Random(seed)
            x, y = list(range(size)), list(range(size))
            a.shuffle(x)
            shuffle(b, y)
            assert x == y and a.getstate() == b.getstate()


def test_another_generator_shuffles_itself():
    a, b = _Own(3), _Own(3)
    x, y = list(range(54)), list(range(54))
    a.shuffle(x)
    shuffle(b, y)
    assert x == y and a.getstate() == b.getstate()
