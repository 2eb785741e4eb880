"""The board drawn to pixels with NumPy alone (the ``rgb_array`` render
mode): the points as the SVG picture colours them."""

import numpy as np

CELL = 24
SIZE = 11
_BACKGROUND = (222, 184, 135)
_WHITE = (250, 250, 245)
_BLACK = (30, 30, 30)
_HOLE = (90, 60, 30)
_KA = {"S": (200, 40, 40), "N": (40, 80, 200)}


def draw(board) -> np.ndarray:
    """``board`` as an ``(264, 264, 3)`` ``uint8`` image, rank 11 at the
    top: white and black stones as discs, the kas as red (South) and blue
    (North) discs, the hole dark."""
    image = np.empty((SIZE * CELL, SIZE * CELL, 3), dtype=np.uint8)
    image[:] = _BACKGROUND
    y, x = np.mgrid[0:CELL, 0:CELL]
    disc = (y - CELL / 2 + 0.5) ** 2 + (x - CELL / 2 + 0.5) ** 2 <= (CELL * 0.4) ** 2
    rows = board.fen().split(" ")[0].split("/")
    for row, text in enumerate(rows):
        for column, char in enumerate(text):
            colour = {"w": _WHITE, "b": _BLACK, "+": _HOLE}.get(char, _KA.get(char))
            if colour is None:
                continue
            cell = image[row * CELL : (row + 1) * CELL, column * CELL : (column + 1) * CELL]
            if char == "+":
                cell[:] = colour
            else:
                cell[disc] = colour
    image[::CELL, :] = 120
    image[:, ::CELL] = 120
    return image
