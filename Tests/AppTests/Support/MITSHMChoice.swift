import Foundation
import Testing

/// Whether the X server an end-to-end test starts offers MIT-SHM, when the test does not say.
///
/// The program draws through shared memory when the server offers it and through XPutImage
/// when it does not (`Blitter.shmUsable`), and both paths must work. Running every test twice
/// would double the suite's time, so the tests that do not ask for one (`AppSession` without
/// `shm:`, `ServerConfig.standard`) are split in two halves by the name of the test: the same
/// test always gets the same server (a failure reruns as it failed), and about half of them run
/// without MIT-SHM in every `make test`.
///
/// `SWIFTPAINT_TEST_MITSHM=on` or `off` gives every such test the one server (to see whether
/// a failure follows the transport: `SWIFTPAINT_TEST_MITSHM=off swift test --skip-build`).
enum MITSHMChoice {
    /// What the server offers for the test running now: the variable's choice, else its half.
    /// Outside a test (no `Test.current`, e.g. on a thread of the test's own) MIT-SHM is on.
    static func offered() -> Bool {
        switch ProcessInfo.processInfo.environment["SWIFTPAINT_TEST_MITSHM"] {
        case "on": return true
        case "off": return false
        default:
            guard let test = Test.current else { return true }
            return offered(forTestNamed: test.name)
        }
    }

    /// The half a test of this name is in: FNV-1a of the name, odd without MIT-SHM (a hash
    /// of its own, not `Hasher`, whose seed changes from run to run).
    static func offered(forTestNamed name: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash & 1 == 0
    }
}
