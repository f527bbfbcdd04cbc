#!/usr/bin/python3
"""Pictures to cut and damage (PartialDecodingTests) in the kinds SwiftPaint's own encoders do
not write: an interlaced (Adam7) PNG, GIFs plain and interlaced, a progressive JPEG. Each is
noise with a smooth band, so that its data spreads over its rows.

Writes into OUTDIR each file and manifest.json with, per file, its name and size.

Usage: damaged.py OUTDIR
"""

import io
import json
import os
import random
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_suite import png  # noqa: E402

W, H = 96, 80


def pixels(rng):
    return [[(rng.getrandbits(8), y * 3, x * 2) for x in range(W)] for y in range(H)]


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(18)
    rows = pixels(rng)
    manifest = []

    def add(name, data):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        manifest.append(dict(file=name, width=W, height=H, size=len(data)))

    add("adam7.png", png(W, H, 8, 2, rows, True, idat_split=5))
    picture = Image.new("RGB", (W, H))
    picture.putdata([p for row in rows for p in row])
    for name, interlace in (("plain.gif", False), ("interlaced.gif", True)):
        out = io.BytesIO()
        picture.quantize(200).save(out, "GIF", interlace=interlace)
        add(name, out.getvalue())
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=90, progressive=True)
    add("progressive.jpg", out.getvalue())
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=0)


if __name__ == "__main__":
    main()
