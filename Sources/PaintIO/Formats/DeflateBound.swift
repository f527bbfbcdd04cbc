/// The most bytes deflate (zlib; a PNG's image data) can give for one byte of its stream: 1032.
///
/// Its longest match is 258 bytes, and a block whose code tree gives that length (and distance
/// 1) one bit each spends 2 bits on 258 bytes: 1032 bytes a byte, and no coding does better.
/// zlib at level 9 gets 1029:1 on 100 MB of one byte. So a file shorter than its picture's
/// bytes over 1032 cannot hold them, however it was written: a PNG claiming more is refused
/// before its picture is set aside (`PNGCodec`), and a cut-short or run-length BMP is held to
/// the same bound (`BMPDecoder.mostPixelBytesPerByte`), as a file a few hundred bytes long has
/// no business claiming a 20000 x 10000 picture in any format.
enum DeflateBound {
    /// Bytes out per byte in, at most.
    static let mostBytesPerByte = 1032
}
