import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// `PictureStream` over bytes in memory hands `read(into:)` the array's bytes straight (not
/// through its buffer first) while `peek`, `available`, `skip` and `read(_:)` go through the
/// buffer: whatever the mix, the bytes come in order, each once, and every observer sees each
/// byte once, in order. (No behaviour change: these pin the copy's removal to the bytes.)
@Suite struct PictureStreamTests {
    @Test func bytesInMemoryComeInOrderWhateverTheMixOfReads() {
        var rng = SplitMix(seed: 0x5712_EA11)
        for round in 0..<200 {
            let count = Int(rng.next() % 300_000)
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
            let stream = PictureStream(bytes: bytes, name: "m")
            var got: [UInt8] = []
            while true {
                let n = 1 + Int(rng.next() % 20_000)
                let before = got.count
                switch rng.next() % 4 {
                case 0:
                    var target = [UInt8](repeating: 0, count: n)
                    let k = target.withUnsafeMutableBytes { stream.read(into: $0) }
                    got += target[..<k]
                case 1: got += stream.read(n)
                case 2:
                    let k = stream.skip(n)
                    got += bytes[got.count..<(got.count + k)]
                default:
                    let peeked = stream.peek(n)
                    #expect(bytes[got.count...].starts(with: peeked), "round \(round)")
                    let chunk = stream.available
                    got += chunk
                    stream.consume(chunk.count)
                }
                if got.count == before { break }
            }
            #expect(got == bytes, "round \(round): \(got.count) of \(count) bytes")
            #expect(stream.count == count)
        }
    }

    @Test func anObserverSeesEveryByteOnceInOrder() {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let stream = PictureStream(bytes: bytes, name: "m")
        _ = stream.peek(10)
        var seen: [UInt8] = []
        stream.observe { seen += $0 }
        var target = [UInt8](repeating: 0, count: 8192)
        var got: [UInt8] = []
        while true {
            let k = target.withUnsafeMutableBytes { stream.read(into: $0) }
            if k == 0 { break }
            got += target[..<k]
        }
        #expect(got == bytes && seen == bytes)
    }
}
