"""Pictures that carry metadata the user never sees, and a search for it in a saved file.

    metadata.py make DIR           writes DIR/photo.jpg (EXIF with a GPS position and an embedded
                                   thumbnail, a comment) and DIR/drawing.png (tEXt, zTXt, iTXt,
                                   eXIf, tIME), each holding marker strings
    metadata.py find FILE          exits 1, naming each marker and where, when FILE holds any:
                                   in its bytes, or in any PNG inside them (a history chunk's
                                   starting picture too) with its compressed chunks decompressed
"""
import io
import struct
import sys
import zlib

from PIL import Image, PngImagePlugin

MARKERS = [
    b"EXIF-SECRET-DESCRIPTION", b"GPS-SECRET-AREA", b"THUMB-SECRET-COMMENT", b"JPEG-SECRET-COMMENT",
    b"PNG-SECRET-TEXT", b"PNG-SECRET-ZTEXT", b"PNG-SECRET-ITEXT", b"PNG-SECRET-EXIF",
]
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def picture(width, height):
    image = Image.new("RGB", (width, height))
    image.putdata([((x * 3) % 256, (y * 4) % 256, (x * y) % 256) for y in range(height) for x in range(width)])
    return image


def ifd(entries, offset, following):
    """A little-endian TIFF IFD at `offset` of (tag, type, count, value bytes); values over 4
    bytes go after it. `following` is the next IFD's offset (0: none)."""
    data_at = offset + 2 + 12 * len(entries) + 4
    head, data = struct.pack("<H", len(entries)), b""
    for tag, kind, count, value in entries:
        if len(value) <= 4:
            head += struct.pack("<HHI", tag, kind, count) + value.ljust(4, b"\0")
        else:
            head += struct.pack("<HHII", tag, kind, count, data_at + len(data))
            data += value + (b"\0" if len(value) % 2 else b"")
    return head + struct.pack("<I", following) + data


def exif(thumbnail):
    description = b"EXIF-SECRET-DESCRIPTION\0"
    area = b"ASCII\0\0\0GPS-SECRET-AREA"
    latitude = struct.pack("<6I", 48, 1, 51, 1, 2960, 100)
    long_ = lambda v: struct.pack("<I", v)
    # Sizes first (every pointer is a 4-byte LONG, so they do not depend on the values).
    ifd0 = lambda gps, ifd1: [(0x010E, 2, len(description), description), (0x8825, 4, 1, long_(gps))]
    gps = [(1, 2, 2, b"N\0"), (2, 5, 3, latitude), (0x1C, 7, len(area), area)]
    ifd1 = lambda at: [(0x0201, 4, 1, long_(at)), (0x0202, 4, 1, long_(len(thumbnail)))]
    gps_at = 8 + len(ifd(ifd0(0, 0), 8, 0))
    ifd1_at = gps_at + len(ifd(gps, gps_at, 0))
    thumb_at = ifd1_at + len(ifd(ifd1(0), ifd1_at, 0))
    return (b"II*\0" + struct.pack("<I", 8) + ifd(ifd0(gps_at, ifd1_at), 8, ifd1_at) + ifd(gps, gps_at, 0)
            + ifd(ifd1(thumb_at), ifd1_at, 0) + thumbnail)


def segment(marker, data):
    return bytes([0xFF, marker]) + struct.pack(">H", len(data) + 2) + data


def jpeg(image, extra):
    """`image` as a JPEG with the segments `extra` after its JFIF header."""
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    data = out.getvalue()
    at = 2 + (2 + struct.unpack(">H", data[4:6])[0] if data[2:4] == b"\xff\xe0" else 0)
    return data[:at] + extra + data[at:]


def make(folder):
    thumbnail = jpeg(picture(16, 12), segment(0xFE, b"THUMB-SECRET-COMMENT"))
    with open(folder + "/photo.jpg", "wb") as f:
        f.write(jpeg(picture(80, 60), segment(0xE1, b"Exif\0\0" + exif(thumbnail))
                     + segment(0xFE, b"JPEG-SECRET-COMMENT")))
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "PNG-SECRET-TEXT")
    info.add_text("Secret", "PNG-SECRET-ZTEXT", zip=True)
    info.add_itxt("Author", "PNG-SECRET-ITEXT", zip=True)
    info.add(b"tIME", struct.pack(">HBBBBB", 2026, 12, 2, 7, 0, 0))
    tags = Image.Exif()
    tags[0x010E] = "PNG-SECRET-EXIF"
    picture(80, 60).save(folder + "/drawing.png", "PNG", pnginfo=info, exif=tags.tobytes())


def inflate(data):
    try:
        return zlib.decompressobj().decompress(data)
    except zlib.error:
        return b""


def scan(blob, where, found, depth=0):
    for marker in MARKERS:
        if marker in blob:
            found.add("%s in %s" % (marker.decode(), where))
    if depth > 4:
        return
    at = blob.find(SIGNATURE)
    while at >= 0:
        walk(blob, at, where + " > PNG at %d" % at, found, depth)
        at = blob.find(SIGNATURE, at + 1)


def walk(blob, at, where, found, depth):
    pos, idat = at + 8, b""
    while pos + 8 <= len(blob):
        length = struct.unpack(">I", blob[pos:pos + 4])[0]
        kind, data = blob[pos + 4:pos + 8], blob[pos + 8:pos + 8 + length]
        pos += 12 + length
        inner = where + " > " + kind.decode("latin-1")
        if kind == b"IDAT":
            idat += data
        elif kind in (b"zTXt", b"iCCP"):
            scan(inflate(data.split(b"\0", 1)[-1][1:]), inner, found, depth + 1)
        elif kind == b"iTXt":
            keyword, rest = data.split(b"\0", 1) if b"\0" in data else (data, b"")
            if rest[:1] == b"\1":
                text = rest[2:].split(b"\0", 2)[-1]
                scan(inflate(text), inner, found, depth + 1)
        elif kind == b"spHS":
            scan(inflate(data[9:]), inner, found, depth + 1)
        elif kind == b"IEND":
            break
    scan(inflate(idat), where + " > IDAT", found, depth + 1)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        found = set()
        with open(sys.argv[2], "rb") as f:
            scan(f.read(), sys.argv[2], found)
        if found:
            sys.stderr.write("\n".join(sorted(found)) + "\n")
            sys.exit(1)
