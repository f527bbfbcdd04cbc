#!/usr/bin/python3
"""Hostile pictures: files built to make a decoder allocate, inflate or loop far beyond what
they hold. Every one must be refused with a clear message, quickly, in little memory.

Writes into OUTDIR each file and manifest.json with, per file, the words its refusal must
contain ("cut short", "damaged", "more than SwiftPaint can edit"), or "" for the few that
open (their oversized metadata skipped).

Usage: hostile.py OUTDIR
"""

import io
import json
import os
import random
import struct
import sys
import zlib

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def ihdr(width, height, depth=8, color=2):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0))


def zeros_compressed(size):
    """zlib of `size` zero bytes, made in pieces (a gigabyte never exists in memory)."""
    z = zlib.compressobj(9)
    piece = bytes(1 << 20)
    out = b"".join(z.compress(piece) for _ in range(size >> 20))
    return out + z.flush()


def small_png():
    pixels = zlib.compress(b"\0\0\0\0" * 4)
    return ihdr(1, 1), chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def noise(width, height):
    rng = random.Random(5)
    return Image.frombytes("RGB", (width, height), bytes(rng.getrandbits(8) for _ in range(width * height * 3)))


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    manifest = []

    def add(name, data, words):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        manifest.append(dict(file=name, words=words, size=len(data)))

    header, rest = small_png()
    # A chunk that claims 2^31 - 1 bytes in a file of about a hundred: a decoder that believes
    # the length allocates (and zeroes) 2 GB before it finds the file ends.
    for kind, start, words in ((b"tEXt", b"Comment\0", "cut short"), (b"zTXt", b"Comment\0\0x", "cut short"),
                               (b"iTXt", b"Comment\0\0\0\0\0", "cut short"), (b"sPLT", b"palette\0\x08", "cut short"),
                               (b"iCCP", b"profile\0\0x", "cut short")):
        data = SIGNATURE + header + struct.pack(">I", 0x7FFFFFFF) + kind + start
        data += b"A" * (105 - len(data))  # 105 bytes, as the file that found the bug
        add("chunk-2g-%s.png" % kind.decode(), data, words)
    # Compressed metadata that inflates to 64 MB from 64 KB, and thousands of small text chunks:
    # skipped, the picture opens ("opens": the refusal words are empty).
    bomb = zeros_compressed(64 << 20)
    for kind, start in ((b"zTXt", b"Comment\0\0"), (b"iTXt", b"Comment\0\1\0\0\0"), (b"iCCP", b"profile\0\0")):
        add("bomb-%s.png" % kind.decode(), SIGNATURE + header + chunk(kind, start + bomb) + rest, "")
    many = b"".join(chunk(b"tEXt", b"Comment\0%d" % i) for i in range(5000))
    add("text-5000-chunks.png", SIGNATURE + header + many + rest, "")
    # A picture of 16384 x 16384 (allowed) whose data is a few bytes: cut short, found before
    # a gigabyte is set aside.
    add("cut-16k.png", SIGNATURE + ihdr(16384, 16384, 8, 6) + chunk(b"IDAT", zlib.compress(bytes(64))), "cut short")
    add("huge.png", SIGNATURE + ihdr(100000, 100000) + rest, "more than SwiftPaint can edit")
    # A decompression bomb's header: 40000 x 10000 RGBA would inflate to 1.6 GB.
    add("bomb-40000x10000.png", SIGNATURE + ihdr(40000, 10000, 8, 6) + chunk(b"IDAT", b"x") + chunk(b"IEND", b""),
        "more than SwiftPaint can edit")

    # JPEG: a real small file whose frame header is made to claim 16000 x 16000.
    small = io.BytesIO()
    noise(64, 64).save(small, "JPEG", quality=90)
    jpeg = bytearray(small.getvalue())
    sof = jpeg.index(b"\xff\xc0")
    jpeg[sof + 5:sof + 9] = struct.pack(">HH", 16000, 16000)
    add("cut-16k.jpg", bytes(jpeg), "cut short")
    jpeg[sof + 5:sof + 9] = struct.pack(">HH", 65000, 65000)
    add("huge.jpg", bytes(jpeg), "more than SwiftPaint can edit")
    # Real 2000 x 2000 files (baseline and progressive) cut in half.
    for name, options in (("cut-half.jpg", {}), ("cut-half-progressive.jpg", {"progressive": True})):
        out = io.BytesIO()
        noise(2000, 2000).save(out, "JPEG", quality=90, **options)
        add(name, out.getvalue()[:len(out.getvalue()) // 2], "cut short")

    # WebP: a real 1500 x 1500 lossless file cut in half (its RIFF header says how long it was).
    out = io.BytesIO()
    noise(1500, 1500).save(out, "WEBP", lossless=True)
    add("cut-half.webp", out.getvalue()[:len(out.getvalue()) // 2], "cut short")
    # A lossless bitstream header claiming 16383 x 16383 with nothing after it, RIFF size honest.
    bits = 0x2F.to_bytes(1, "little") + ((16383 - 1) | (16383 - 1) << 14 | 1 << 28).to_bytes(4, "little")
    vp8l = b"VP8L" + struct.pack("<I", len(bits) + 7) + bits + bytes(7)
    add("cut-16k.webp", b"RIFF" + struct.pack("<I", 4 + len(vp8l)) + b"WEBP" + vp8l, "damaged")

    # GIF: a 16000 x 16000 screen and frame with a few bytes of image data.
    gif = b"GIF89a" + struct.pack("<HHBBB", 16000, 16000, 0x80, 0, 0) + bytes(6)
    gif += b"\x2c" + struct.pack("<HHHHB", 0, 0, 16000, 16000, 0) + b"\x08" + b"\x05\x00\x01\x02\x03\x04"
    add("cut-16k.gif", gif, "too few for a 16000 x 16000 picture")
    add("huge.gif", b"GIF89a" + struct.pack("<HHBBB", 65535, 65535, 0x80, 0, 0) + bytes(6)
        + b"\x2c" + struct.pack("<HHHHB", 0, 0, 65535, 65535, 0) + b"\x08\x00\x3b", "more than SwiftPaint can edit")

    # BMP: 16000 x 16000 24-bit with no pixels; the same as RLE8 with a few runs; 100000 wide.
    def bmp(width, height, bpp, compression, palette, data):
        info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bpp, compression, 0, 0, 0, 0, 0)
        offset = 14 + 40 + len(palette)
        return b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset) + info + palette + data
    add("cut-16k.bmp", bmp(16000, 16000, 24, 0, b"", bytes(100)), "cut short")
    add("cut-16k-rle8.bmp", bmp(16000, 16000, 8, 1, bytes(1024), b"\xff\x01" * 50), "too few for a 16000 x 16000 picture")
    add("huge.bmp", bmp(100000, 100000, 24, 0, b"", bytes(100)), "more than SwiftPaint can edit")

    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=0)


if __name__ == "__main__":
    main()
