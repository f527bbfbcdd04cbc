#!/usr/bin/python3
"""Reference pictures in the other formats SwiftPaint opens: JPEG, WebP, GIF and BMP.

Writes into OUTDIR, for each case NAME, the file NAME.EXT, the expected 8-bit straight RGBA
pixels NAME.rgba, and a line in manifest.json (name, file, width, height, alpha, tolerance).
The expected pixels come from Pillow, the reference decoder, decoding the very file (with the
EXIF orientation applied by ImageOps.exif_transpose), or for hand-written BMPs from the samples
themselves; colour-managed files are converted exactly from Pillow's raw samples, as in
png_suite.py.

Usage: formats.py OUTDIR
"""

import io
import json
import os
import random
import struct
import sys

from PIL import Image, ImageOps

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_suite import ADOBE_PRIMARIES, converter, icc_profile  # noqa: E402

W, H = 61, 37  # odd sizes: JPEG's 16-pixel blocks and BMP's row padding both get a remainder


def picture(rng, mode="RGB", width=W, height=H):
    """A picture with gradients, hard edges and noise, different in each corner (so that a
    wrong orientation or a swapped channel shows)."""
    im = Image.new("RGBA", (width, height))
    px = im.load()
    for y in range(height):
        for x in range(width):
            r = x * 255 // max(1, width - 1)
            g = y * 255 // max(1, height - 1)
            b = 255 if (x < width // 3 and y < height // 2) else rng.randint(0, 60)
            a = 255 if x < width // 2 else (x * 7 + y * 3) % 256
            px[x, y] = (r, g, b, a)
    return im.convert(mode) if mode != "RGBA" else im


class Formats:
    def __init__(self, folder):
        self.folder, self.entries, self.rng = folder, [], random.Random(20261201)

    def add(self, name, ext, data, expected_image=None, expected=None, alpha=False, tolerance=0, size=None):
        path = os.path.join(self.folder, name + "." + ext)
        with open(path, "wb") as f:
            f.write(data)
        if expected is None:
            expected_image = expected_image.convert("RGBA")
            size = expected_image.size
            expected = expected_image.tobytes()
        with open(os.path.join(self.folder, name + ".rgba"), "wb") as f:
            f.write(expected)
        self.entries.append(dict(name=name, file=name + "." + ext, width=size[0], height=size[1],
                                 alpha=alpha, tolerance=tolerance))

    def pillow(self, data):
        """Pillow's decode of bytes (the reference)."""
        im = Image.open(io.BytesIO(data))
        im.load()
        return im

    def saved(self, im, fmt, **options):
        out = io.BytesIO()
        im.save(out, fmt, **options)
        return out.getvalue()

    # ---- JPEG ------------------------------------------------------------------------------

    def jpeg(self):
        rgb = picture(self.rng)
        for name, options in [("jpeg-baseline", dict(quality=90)),
                              ("jpeg-progressive", dict(quality=85, progressive=True)),
                              ("jpeg-444", dict(quality=95, subsampling=0))]:
            data = self.saved(rgb, "JPEG", **options)
            self.add(name, "jpg", data, self.pillow(data))
        data = self.saved(rgb.convert("L"), "JPEG", quality=90)
        self.add("jpeg-gray", "jpg", data, self.pillow(data))
        # CMYK (Pillow writes Adobe's inverted CMYK): expected by the usual formula from the
        # samples Pillow decodes, each ink taking away its share of light.
        data = self.saved(rgb.convert("CMYK"), "JPEG", quality=95)
        cmyk = self.pillow(data)
        expected = bytearray()
        for (c, m, y, k) in cmyk.getdata():
            expected += bytes((div255((255 - c) * (255 - k)), div255((255 - m) * (255 - k)),
                               div255((255 - y) * (255 - k)), 255))
        self.add("jpeg-cmyk", "jpg", data, expected=bytes(expected), size=cmyk.size)
        for orientation in range(1, 9):
            exif = Image.Exif()
            exif[0x0112] = orientation
            data = self.saved(rgb, "JPEG", quality=90, exif=exif.tobytes())
            self.add("jpeg-orientation-%d" % orientation, "jpg", data, ImageOps.exif_transpose(self.pillow(data)))
        # An ICC profile (gamma 1.8, Adobe RGB primaries): converted to sRGB exactly.
        data = self.saved(rgb, "JPEG", quality=95, icc_profile=icc_profile(461, ADOBE_PRIMARIES))
        self.add("jpeg-icc-adobe18", "jpg", data, expected=self.managed(self.pillow(data)), size=rgb.size,
                 tolerance=1)

    def managed(self, im):
        convert = converter(461 / 256, ADOBE_PRIMARIES)
        out = bytearray()
        for p in im.convert("RGBA").getdata():
            out += bytes(convert(p[0] / 255, p[1] / 255, p[2] / 255)) + bytes((p[3],))
        return bytes(out)

    # ---- WebP ------------------------------------------------------------------------------

    def webp(self):
        rgba = picture(self.rng, "RGBA")
        data = self.saved(rgba, "WEBP", lossless=True)
        self.add("webp-lossless-rgba", "webp", data, self.pillow(data), alpha=True)
        data = self.saved(picture(self.rng), "WEBP", quality=80)
        # libwebp's own lossy decoder is Pillow's too: the same pixels.
        self.add("webp-lossy-rgb", "webp", data, self.pillow(data))
        data = self.saved(rgba, "WEBP", quality=80)
        self.add("webp-lossy-rgba", "webp", data, self.pillow(data), alpha=True)
        frames = [picture(self.rng, "RGBA"), picture(self.rng, "RGBA").transpose(Image.FLIP_LEFT_RIGHT)]
        data = self.saved(frames[0], "WEBP", save_all=True, append_images=frames[1:], lossless=True, duration=100)
        first = self.pillow(data)
        first.seek(0)
        self.add("webp-animated", "webp", data, first.convert("RGBA"), alpha=True)
        data = self.saved(picture(self.rng), "WEBP", lossless=True, icc_profile=icc_profile(461, ADOBE_PRIMARIES))
        self.add("webp-icc-adobe18", "webp", data, expected=self.managed(self.pillow(data)), size=(W, H), tolerance=1)

    # ---- GIF -------------------------------------------------------------------------------

    def gif(self):
        rgb = picture(self.rng)
        paletted = rgb.quantize(colors=200)
        for name, interlace in (("gif-plain", False), ("gif-interlaced", True)):
            data = self.saved(paletted, "GIF", interlace=interlace)
            self.add(name, "gif", data, self.pillow(data))
        with_hole = paletted.copy()
        px = with_hole.load()
        for y in range(5, 15):
            for x in range(10, 30):
                px[x, y] = 255
        data = self.saved(with_hole, "GIF", transparency=255)
        self.add("gif-transparent", "gif", data, self.pillow(data), alpha=True)
        frames = [paletted, rgb.transpose(Image.FLIP_TOP_BOTTOM).quantize(colors=64)]
        data = self.saved(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
        self.add("gif-animated", "gif", data, self.pillow(data))
        # A logical screen larger than the first frame: the rest of the canvas is transparent.
        small = bytearray(self.saved(paletted, "GIF"))
        small[6:10] = struct.pack("<HH", W + 9, H + 4)
        big = Image.new("RGBA", (W + 9, H + 4), (0, 0, 0, 0))
        big.paste(self.pillow(bytes(small)).convert("RGBA").crop((0, 0, W, H)), (0, 0))
        self.add("gif-frame-in-screen", "gif", bytes(small), big, alpha=True)

    # ---- BMP -------------------------------------------------------------------------------

    def bmp(self):
        rgb = picture(self.rng)
        for name, im in [("bmp-24", rgb), ("bmp-8-palette", rgb.quantize(colors=256)),
                         ("bmp-1", rgb.convert("1")), ("bmp-8-gray", rgb.convert("L"))]:
            data = self.saved(im, "BMP")
            self.add(name, "bmp", data, self.pillow(data))
        rgba = picture(self.rng, "RGBA")
        self.hand_written(rgb, rgba)

    def hand_written(self, rgb, rgba):
        pixels = list(rgb.getdata())
        straight = list(rgba.getdata())
        rows = [pixels[y * W:(y + 1) * W] for y in range(H)]

        def file(info, palette, data):
            offset = 14 + len(info) + len(palette)
            return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + info + palette + data

        def info40(bpp, compression=0, colors=0, height=H, size=0):
            return struct.pack("<IiiHHIIiiII", 40, W, height, 1, bpp, compression, size, 2835, 2835, colors, 0)

        def pad(row):
            return row + bytes((-len(row)) % 4)

        # 24-bit, top-down (negative height).
        data = b"".join(pad(b"".join(bytes((b, g, r)) for (r, g, b) in row)) for row in rows)
        self.add("bmp-24-topdown", "bmp", file(info40(24, height=-H), b"", data), rgb)
        # 16-bit 5-6-5 through BI_BITFIELDS masks after a 40-byte header.
        masks = struct.pack("<III", 0xF800, 0x07E0, 0x001F)
        data, expected = b"", bytearray()
        for row in reversed(rows):
            data += pad(b"".join(struct.pack("<H", (r >> 3) << 11 | (g >> 2) << 5 | b >> 3) for (r, g, b) in row))
        for row in rows:
            for (r, g, b) in row:
                expected += bytes((scale(r >> 3, 5), scale(g >> 2, 6), scale(b >> 3, 5), 255))
        self.add("bmp-16-565", "bmp", file(info40(16, compression=3), masks, data), expected=bytes(expected), size=(W, H))
        # 16-bit 5-5-5, the default without masks.
        data, expected = b"", bytearray()
        for row in reversed(rows):
            data += pad(b"".join(struct.pack("<H", (r >> 3) << 10 | (g >> 3) << 5 | b >> 3) for (r, g, b) in row))
        for row in rows:
            for (r, g, b) in row:
                expected += bytes((scale(r >> 3, 5), scale(g >> 3, 5), scale(b >> 3, 5), 255))
        self.add("bmp-16-555", "bmp", file(info40(16), b"", data), expected=bytes(expected), size=(W, H))
        # 32-bit with alpha: a V5 header naming an alpha mask (as GIMP and ImageMagick write).
        v5 = struct.pack("<IiiHHIIiiII", 124, W, H, 1, 32, 3, 0, 2835, 2835, 0, 0)
        v5 += struct.pack("<IIII", 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000) + b"sRGB" + bytes(36 + 12 + 16)
        assert len(v5) == 124
        srows = [straight[y * W:(y + 1) * W] for y in range(H)]
        data = b"".join(b"".join(bytes((b, g, r, a)) for (r, g, b, a) in row) for row in reversed(srows))
        self.add("bmp-32-alpha-v5", "bmp", file(v5, b"", data), rgba, alpha=True)
        # 32-bit BI_RGB whose fourth byte is 0 everywhere: it means nothing, the picture is opaque.
        data = b"".join(b"".join(bytes((b, g, r, 0)) for (r, g, b) in row) for row in reversed(rows))
        self.add("bmp-32-zero-alpha", "bmp", file(info40(32), b"", data), rgb)
        # 4-bit palette, and the same as RLE4; 8-bit RLE8 with a delta that leaves a hole.
        sixteen = rgb.quantize(colors=16)
        palette = sixteen.getpalette()[:48]
        pal_bytes = b"".join(bytes((palette[i * 3 + 2], palette[i * 3 + 1], palette[i * 3], 0)) for i in range(16))
        indices = list(sixteen.getdata())
        irows = [indices[y * W:(y + 1) * W] for y in range(H)]
        data = b"".join(pad(bytes((row[x] << 4 | (row[x + 1] if x + 1 < W else 0)) for x in range(0, W, 2)))
                        for row in reversed(irows))
        self.add("bmp-4-palette", "bmp", file(info40(4, colors=16), pal_bytes, data), sixteen)
        rle4 = b""
        for row in reversed(irows):
            x = 0
            while x < W:
                run = 1
                while x + run < W and run < 255 and row[x + run] == row[x]:
                    run += 1
                rle4 += bytes((run, row[x] << 4 | row[x]))
                x += run
            rle4 += b"\0\0"
        rle4 += b"\0\1"
        self.add("bmp-rle4", "bmp", file(info40(4, compression=2, colors=16), pal_bytes, rle4), sixteen)
        full = rgb.quantize(colors=256)
        palette = full.getpalette()
        colors = len(palette) // 3
        pal_bytes = b"".join(bytes((palette[i * 3 + 2], palette[i * 3 + 1], palette[i * 3], 0)) for i in range(colors))
        indices = list(full.getdata())
        irows = [indices[y * W:(y + 1) * W] for y in range(H)]
        expected = full.convert("RGBA")
        epx = expected.load()
        rle8 = b""
        for stored, row in enumerate(reversed(irows)):
            y = H - 1 - stored
            if stored == 3:
                # Literal run of 7, then a delta 5 right and 0 down: a hole of 5 pixels, then
                # the rest of the row as runs of one.
                rle8 += b"\0\7" + bytes(row[:7]) + b"\0" + b"\0\2\5\0"
                for x in range(7, 12):
                    epx[x, y] = (0, 0, 0, 0)
                rle8 += b"".join(bytes((1, v)) for v in row[12:]) + b"\0\0"
                continue
            rle8 += b"".join(bytes((1, v)) for v in row) + b"\0\0"
        rle8 += b"\0\1"
        self.add("bmp-rle8-hole", "bmp", file(info40(8, compression=1, colors=colors), pal_bytes, rle8), expected,
                 alpha=True)
        # An OS/2 core header (12 bytes) with a 3-byte palette.
        core = struct.pack("<IHHHH", 12, W, H, 1, 8)
        pal3 = b"".join(bytes((palette[i * 3 + 2], palette[i * 3 + 1], palette[i * 3])) for i in range(256)
                        if i < colors) + bytes(3 * (256 - colors))
        data = b"".join(pad(bytes(row)) for row in reversed(irows))
        self.add("bmp-core-8", "bmp", file(core, pal3, data), full)
        # A BMP wrapping a PNG (BI_PNG, depth 0 as the format asks) and a JPEG (BI_JPEG, depth
        # 24 as some writers leave it): the wrapped picture is what shows.
        png = self.saved(rgba, "PNG")
        self.add("bmp-png", "bmp", file(info40(0, compression=5, size=len(png)), b"", png), rgba, alpha=True)
        jpeg = self.saved(rgb, "JPEG", quality=90)
        self.add("bmp-jpeg", "bmp", file(info40(24, compression=4, size=len(jpeg)), b"", jpeg), self.pillow(jpeg))


def div255(x):
    return (x + 127) // 255


def scale(v, bits):
    top = (1 << bits) - 1
    return (v * 255 * 2 + top) // (2 * top)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: formats.py OUTDIR")
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    formats = Formats(folder)
    formats.jpeg()
    formats.webp()
    formats.gif()
    formats.bmp()
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(formats.entries, f, indent=0)


if __name__ == "__main__":
    main()
