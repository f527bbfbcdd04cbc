// paint-bench save [--runs 3] [--folder DIR]
//
// How long a save holds the window's thread: a 4K photo-like JPEG is opened as the window opens
// it and saved with its history inside to a PNG ("Save with history", the document's first: its
// clean starting picture is made too, the costliest save there is), through the session as the
// window saves, --runs times each way, alternating:
//   inline      the save written before `Session.save` returns (every save before session 8:
//               the window froze for as long)
//   background  the save written on a thread of its own (`savesInBackground`, the window now):
//               the window's thread only takes the picture (its tiles, by reference) and the
//               history
// and prints, per run, the window thread's wall-clock and CPU time in the call, and the wall-clock
// time until the file is written. Files and history entries go to DIR (default
// .build/bench-save, on the disk the program would use, so every fsync is real).

import Glibc
import PaintApp
import PaintCore
import PaintIO

func runSaveBench(arguments: [String]) -> Never {
    var runs = 3
    var folder = ".build/bench-save"
    var reader = ArgumentReader(arguments, usage: "usage: paint-bench save [--runs 3] [--folder DIR]")
    while let option = reader.next() {
        switch option {
        case "--runs": runs = reader.integer(in: 1...1000)
        case "--folder": folder = reader.value()
        default: reader.unknown()
        }
    }
    _ = mkdir(folder, 0o755)
    let (w, h) = (3840, 2160)
    var photo = PixelImage(width: w, height: h)
    photo.pixels.withUnsafeMutableBufferPointer { pixels in
        for y in 0..<h {
            for x in 0..<w {
                let edge: UInt8 = (x / 480 + y / 540) % 2 == 0 ? 0 : 60
                pixels[y * w + x] = Pixel.pack(r: UInt8(x * 255 / w), g: UInt8(y * 255 / h) &+ edge, b: 120, a: 255)
            }
        }
    }
    let jpeg = folder + "/photo.jpg"
    do {
        try ImageFile.save(photo, to: jpeg, options: SaveOptions(format: .jpeg, quality: 90), withAlpha: false)
    } catch { fail("cannot write \(jpeg): \(error)", code: 1) }
    print("save_bench picture=\(w)x\(h) jpeg quality 90, saved with history to PNG, runs=\(runs) folder=\(folder)")

    func seconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
    var results: [Bool: [(wall: Double, cpu: Double, written: Double)]] = [:]
    for run in 0..<runs {
        for inBackground in [false, true] {
            var options = CommandLineOptions()
            options.saveWithHistory = true
            options.historyStore = HistoryStore(folder: folder + "/history-\(run)-\(inBackground)")
            let loaded: (document: Document, message: String)
            do { loaded = try DocumentLoader.load(jpeg, options: options) } catch {
                fail("cannot open \(jpeg): \(error)", code: 1)
            }
            let session = Session(document: loaded.document, windowWidth: 1280, windowHeight: 800)
            session.opener = DocumentOpener(options: options, journalFolder: nil)
            session.savesInBackground = inBackground
            let target = folder + "/saved-\(run)-\(inBackground).png"
            let start = seconds(CLOCK_MONOTONIC)
            let cpu = seconds(CLOCK_THREAD_CPUTIME_ID)
            session.save(to: target)
            let held = seconds(CLOCK_MONOTONIC) - start
            let heldCPU = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu
            guard session.waitForSave() || !inBackground, FileSystem.exists(target) else {
                fail("the save failed: \(session.message)", code: 1)
            }
            let written = seconds(CLOCK_MONOTONIC) - start
            let way = inBackground ? "background" : "inline"
            print(
                "run \(run + 1) \(way): window thread held \(ms(held)) ms wall, \(ms(heldCPU)) ms CPU;"
                    + " file written after \(ms(written)) ms")
            results[inBackground, default: []].append((held, heldCPU, written))
        }
    }
    for inBackground in [false, true] {
        let r = results[inBackground] ?? []
        let way = inBackground ? "background" : "inline"
        let held = r.map(\.wall).sorted()
        let cpu = r.map(\.cpu).sorted()
        let written = r.map(\.written).sorted()
        print(
            "\(way): window thread held median \(ms(held[held.count / 2])) ms wall (max \(ms(held.last ?? 0))),"
                + " \(ms(cpu[cpu.count / 2])) ms CPU; file written after median \(ms(written[written.count / 2])) ms")
    }
    exit(0)
}

private func ms(_ seconds: Double) -> String {
    let v = (seconds * 10_000).rounded() / 10
    return String(v)
}
