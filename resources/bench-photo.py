#!/usr/bin/env python3
"""Writes a photo-like picture (default 4000 x 3000) for `paint-bench encode`: a sky-like
gradient, fractal terrain in several octaves, out-of-focus and sharp-edged shapes, fine texture
and sensor-like noise, so that each format compresses it as it compresses a camera's photo (a
flat or synthetic picture compresses far better and encodes far faster). Deterministic.

usage: bench-photo.py OUT.(png|jpg) [WIDTH HEIGHT]"""
import random
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter

out = sys.argv[1]
W, H = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (4000, 3000)
rnd = random.Random(16)


def octave(cell):
    """Random colors on a grid of `cell`-pixel cells, smoothly enlarged to the picture."""
    w, h = max(2, W // cell), max(2, H // cell)
    return Image.frombytes("RGB", (w, h), rnd.randbytes(w * h * 3)).resize((W, H), Image.BICUBIC)


# Terrain: coarse to fine octaves, each half the weight of the one before.
land = octave(400)
for cell, weight in ((120, 0.45), (40, 0.3), (12, 0.2), (4, 0.12)):
    land = Image.blend(land, octave(cell), weight)
# A sky: a vertical gradient over the top third, fading into the land.
sky = Image.new("RGB", (W, H))
draw = ImageDraw.Draw(sky)
for y in range(H):
    t = min(1.0, y / (H * 0.4))
    draw.line([(0, y), (W, y)], fill=(int(90 + 120 * t), int(140 + 80 * t), int(230 - 40 * t)))
mask = Image.linear_gradient("L").resize((W, H)).point(lambda v: max(0, min(255, (v - 80) * 3)))
picture = Image.composite(land, sky, mask)
# Shapes: blurred ones (out of focus) and sharp ones (edges, as of buildings and text).
shapes = Image.new("RGB", (W, H))
shape_mask = Image.new("L", (W, H))
sd, md = ImageDraw.Draw(shapes), ImageDraw.Draw(shape_mask)
for i in range(60):
    x, y = rnd.randrange(W), rnd.randrange(H)
    r = rnd.randrange(W // 60, W // 8)
    color = tuple(rnd.randrange(256) for _ in range(3))
    box = [x - r, y - r // 2, x + r, y + r // 2]
    (sd.ellipse if i % 2 else sd.rectangle)(box, fill=color)
    (md.ellipse if i % 2 else md.rectangle)(box, fill=rnd.randrange(120, 256))
shape_mask = shape_mask.filter(ImageFilter.GaussianBlur(1.2))
blurred = shapes.filter(ImageFilter.GaussianBlur(6))
picture = Image.composite(blurred, picture, shape_mask.filter(ImageFilter.GaussianBlur(6)).point(lambda v: v // 2))
picture = Image.composite(shapes, picture, shape_mask.point(lambda v: v if v > 200 else 0))
# Sensor noise, mostly in brightness (about 3 levels) with a little in color, correlated between
# neighbours as a demosaiced photo's.
def noise(amplitude):
    grain = Image.frombytes("L", (W, H), rnd.randbytes(W * H)).filter(ImageFilter.GaussianBlur(0.5))
    return grain.point(lambda v: max(0, min(255, 128 + (v - 128) * amplitude // 16)))
luma = noise(3)
chroma = [noise(1) for _ in range(3)]
grain = Image.merge("RGB", [ImageChops.add(luma, c, 1.0, -128) for c in chroma])
picture = ImageChops.add(picture, grain, 1.0, -128)
picture = picture.filter(ImageFilter.UnsharpMask(radius=1.5, percent=60, threshold=2))
picture.save(out, quality=95) if out.lower().endswith((".jpg", ".jpeg")) else picture.save(out)
