#!/usr/bin/python3
"""Gray, CMYK and YCCK JPEGs of many bands, committed in Tests/Fixtures/jpeg-bands (JPEGBandTests).

Run once by hand (not by the tests, so the files stay the same whatever Pillow a machine has):

    /usr/bin/python3 Tests/Fixtures/jpeg_bands.py Tests/Fixtures/jpeg-bands

Each picture is stored 150 x 203 (three tile columns and four bands of 64 rows, the last ones
partial), photo-like (gradients, soft blobs, a hard-edged block, grain), different in each
corner, with an EXIF orientation: 5 to 8 stand it on its side, 2 to 4 do not. For each NAME it
writes NAME.jpg and NAME.png, the reference: Pillow's decode of the very file (libjpeg-turbo's,
the library SwiftPaint decodes with, with the same default settings), turned upright by
ImageOps.exif_transpose; CMYK converted to RGB by the usual formula from the samples Pillow
decodes (each ink taking away its share of light), as SwiftPaint converts CMYK without a profile.

Gray and CMYK are written by Pillow (CMYK with Adobe's APP14 marker, inverted, as Photoshop
writes it). Pillow cannot write YCCK: ycck_encode.c (libjpeg's jpeg_set_colorspace(JCS_YCCK),
compiled here with cc -ljpeg) writes those from the same inverted CMYK samples.
"""

import io
import math
import os
import random
import subprocess
import sys
import tempfile

from PIL import Image, ImageOps

W, H = 150, 203


def photo(seed, mode):
    """A photo-like picture: smooth and textured, with an edge and a bright corner."""
    rng = random.Random(seed)
    blobs = [(rng.uniform(0, W), rng.uniform(0, H), rng.uniform(15, 45), rng.uniform(-90, 90)) for _ in range(6)]
    channels = 1 if mode == "L" else 4
    im = Image.new("L" if channels == 1 else "CMYK", (W, H))
    px = im.load()
    for y in range(H):
        for x in range(W):
            values = []
            for c in range(channels):
                v = 40 + 120 * x / W + 60 * math.sin((y + 17 * c) / 13.0) * math.cos(x / 21.0 + c)
                for (bx, by, r, amp) in blobs:
                    v += amp * math.exp(-((x - bx) ** 2 + (y - by) ** 2) / (2 * r * r)) * (1 if c % 2 else 0.6)
                v += rng.uniform(-6, 6)
                if 20 <= x < 60 and 150 <= y < 190:
                    v = 235 if c != 3 else 10  # a hard-edged block, bottom left
                if x < 24 and y < 24:
                    v = 250 if c != 3 else 0  # the top left corner: white in gray, near black in CMYK
                values.append(max(0, min(255, int(v))))
            px[x, y] = values[0] if channels == 1 else tuple(values)
    return im


def exif(orientation):
    e = Image.Exif()
    e[0x0112] = orientation
    return e.tobytes()


def saved(im, **options):
    out = io.BytesIO()
    im.save(out, "JPEG", **options)
    return out.getvalue()


def pillow(data):
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def reference(data):
    """Pillow's pixels of the file, upright, as a PNG (L for gray, RGB for CMYK and YCCK)."""
    upright = ImageOps.exif_transpose(pillow(data))
    if upright.mode == "CMYK":
        rgb = Image.new("RGB", upright.size)
        rgb.putdata([(div255((255 - c) * (255 - k)), div255((255 - m) * (255 - k)), div255((255 - y) * (255 - k)))
                     for (c, m, y, k) in upright.getdata()])
        upright = rgb
    out = io.BytesIO()
    upright.save(out, "PNG", optimize=True)
    return out.getvalue(), upright.size


def div255(x):
    return (x + 127) // 255


def ycck(im, quality, progressive, orientation, tool):
    inverted = bytes(255 - v for v in im.tobytes())
    with tempfile.NamedTemporaryFile() as f:
        f.write(exif(orientation))
        f.flush()
        return subprocess.run([tool, str(W), str(H), str(quality), str(int(progressive)), f.name],
                              input=inverted, stdout=subprocess.PIPE, check=True).stdout


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: jpeg_bands.py OUTDIR")
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    build = tempfile.mkdtemp()
    tool = os.path.join(build, "ycck_encode")
    subprocess.run(["cc", "-O2", "-o", tool, os.path.join(here, "ycck_encode.c"), "-ljpeg"], check=True)
    gray, cmyk, ycck_source = photo(1, "L"), photo(2, "CMYK"), photo(3, "CMYK")
    files = {
        "gray-baseline-6": saved(gray, quality=80, exif=exif(6)),
        "gray-progressive-4": saved(gray, quality=80, progressive=True, exif=exif(4)),
        "cmyk-baseline-5": saved(cmyk, quality=75, exif=exif(5)),
        "cmyk-progressive-3": saved(cmyk, quality=75, progressive=True, exif=exif(3)),
    }
    files["ycck-baseline-8"] = ycck(ycck_source, 75, False, 8, tool)
    files["ycck-progressive-2"] = ycck(ycck_source, 75, True, 2, tool)
    os.remove(tool)
    os.rmdir(build)
    for name, data in files.items():
        png, size = reference(data)
        assert (size == (H, W)) == (int(name[-1]) >= 5), name
        with open(os.path.join(folder, name + ".jpg"), "wb") as f:
            f.write(data)
        with open(os.path.join(folder, name + ".png"), "wb") as f:
            f.write(png)
        print(name, len(data), len(png), pillow(data).mode, pillow(data).info.get("adobe_transform"))


if __name__ == "__main__":
    main()
