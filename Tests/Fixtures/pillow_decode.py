#!/usr/bin/python3
"""Decodes every picture named on the command line with Pillow, the tests' reference decoder.

For each FILE writes FILE.pillow.rgba: 8-bit straight RGBA, rows top to bottom, preceded by a
line "WIDTH HEIGHT MODE FORMAT\n" (MODE and FORMAT as Pillow names them). Exit 1 with the reason
when a file cannot be decoded.

Usage: pillow_decode.py FILE...
"""

import sys

from PIL import Image


def main():
    for path in sys.argv[1:]:
        with Image.open(path) as im:
            im.load()
            header = "%d %d %s %s\n" % (im.width, im.height, im.mode, im.format)
            pixels = im.convert("RGBA").tobytes()
        with open(path + ".pillow.rgba", "wb") as f:
            f.write(header.encode() + pixels)


if __name__ == "__main__":
    main()
