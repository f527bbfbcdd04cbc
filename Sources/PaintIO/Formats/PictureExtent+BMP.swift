extension PictureExtent {
    /// A BMP's end: after its rows (padded to 4 bytes each), or its run-length codes' end of
    /// picture; a picture over the limits ends just past its header and colour table, where the
    /// decoder refuses it. A BMP wrapping a PNG or JPEG ends where that picture ends, found as
    /// for a PNG or JPEG file of its own (a JPEG over the limits ends after its scan's header).
    mutating func bmpEnd(_ bytes: [UInt8], atEnd: Bool) -> Answer {
        if wrapped >= 0 { return wrappedEnd(bytes) }
        if runLength == 0 {
            let header: BMPHeader
            do {
                header = try BMPHeader(bytes, name: "", fileSize: fileSize)
            } catch {
                if case .cutShort = error, !atEnd { return .unknown }
                // Damaged: the decoder says so from the headers' bytes. It ends after the most they
                // can take, not where the bytes read so far end: the same end however the file
                // was read (the window's opening and `readPicture` keep the same bytes).
                if case .damaged = error { return .end(min(fileSize, BMPHeader.mostBytes)) }
                return .whole
            }
            guard limits.allows(width: header.width, height: header.height) else {
                return .end(header.dataOffset + 1)
            }
            switch header.compression {
            case .none, .bitfields: return .end(header.dataOffset + header.rowBytes * header.height)
            case .embedded:
                wrapped = header.dataOffset
                return wrappedEnd(bytes)
            case .rle8: runLength = 8
            case .rle4: runLength = 4
            }
            at = header.dataOffset
        }
        // Two bytes a code: a run, or 0 and an escape (end of line, end of picture, a move
        // of two more bytes, or that many pixels given one by one, padded to 2 bytes).
        while at + 2 <= bytes.count {
            let (count, value) = (Int(bytes[at]), Int(bytes[at + 1]))
            at += 2
            guard count == 0 else { continue }
            switch value {
            case 0: break
            case 1: return .end(at)
            case 2: at += 2
            default:
                let given = runLength == 8 ? value : (value + 1) / 2
                at += given + (given & 1)
            }
        }
        return .unknown
    }

    /// The end of the PNG or JPEG a BMP wraps from `wrapped` on; anything else there ends
    /// after its first 8 bytes, which the decoder refuses as neither.
    private mutating func wrappedEnd(_ bytes: [UInt8]) -> Answer {
        if !inWrapped {
            guard bytes.count >= wrapped + 8 else { return .unknown }
            switch ImageFormat.sniff(Array(bytes[wrapped..<(wrapped + 8)])) {
            case .png: at = wrapped + 8
            case .jpeg: at = wrapped + 2
            default: return .end(wrapped + 8)
            }
            inWrapped = true
        }
        return bytes[wrapped] == 0xFF ? jpegEnd(bytes) : pngEnd(bytes)
    }
}
