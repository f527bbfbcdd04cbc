#!/usr/bin/python3
"""Saves X window WINDOW (a decimal id) on $DISPLAY as the PNG file OUT: XGetImage through
ctypes, PIL for the file (python3-pil). Usage: capture.py WINDOW OUT"""
import ctypes
import sys

from PIL import Image

x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XGetImage.restype = ctypes.c_void_p
x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                          ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
x11.XGetGeometry.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong)] + \
    [ctypes.POINTER(ctypes.c_int)] * 2 + [ctypes.POINTER(ctypes.c_uint)] * 4


class XImage(ctypes.Structure):
    # The leading fields of Xlib's XImage, as far as the pixels.
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_ubyte)),
                ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
                ("bits_per_pixel", ctypes.c_int)]


def main():
    window, out = int(sys.argv[1]), sys.argv[2]
    display = x11.XOpenDisplay(None)
    if not display:
        sys.exit("capture.py: cannot open the display")
    root = ctypes.c_ulong()
    x, y = ctypes.c_int(), ctypes.c_int()
    w, h, border, depth = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    x11.XGetGeometry(display, window, ctypes.byref(root), ctypes.byref(x), ctypes.byref(y), ctypes.byref(w),
                     ctypes.byref(h), ctypes.byref(border), ctypes.byref(depth))
    pointer = x11.XGetImage(display, window, 0, 0, w.value, h.value, 0xFFFFFFFF, 2)  # ZPixmap
    if not pointer:
        sys.exit("capture.py: XGetImage failed")
    image = XImage.from_address(pointer)
    if image.bits_per_pixel != 32:
        sys.exit("capture.py: expected 32 bits per pixel")
    size = image.bytes_per_line * image.height
    data = ctypes.string_at(image.data, size)
    Image.frombuffer("RGB", (image.width, image.height), data, "raw", "BGRX", image.bytes_per_line, 1).save(
        out, optimize=True)


main()
