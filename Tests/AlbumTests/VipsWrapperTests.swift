import Synchronization
import System
import XCTest
@testable import Vips

final class VipsWrapperTests: XCTestCase {
    /// A long run sees hundreds of thousands of libvips warnings; each must cost the same as the first. (The handler
    /// once lived in a Mutex as a bare closure and gained a reabstraction thunk per warning: each call went through
    /// one more frame than the last, and a run hung after ~100 000.) What grew was the depth of the call, so that is
    /// what is measured, not time: the frames above the handler at the first and at the 200 000th warning are as
    /// many, and the handler's box is still the one that was set, not a wrapper around it.
    func testWarningsReachTheHandlerAtConstantCost() {
        let seen = Mutex(0), depths = Mutex<[Int]>([])
        let count = 200_000
        Vips.setWarningHandler { _ in
            let n = seen.withLock { $0 += 1; return $0 }
            if n == 1 || n == count { depths.withLock { $0.append(Thread.callStackSymbols.count) } }
        }
        defer { Vips.setWarningHandler { _ in } }
        let box = Vips.warningHandler.withLock { $0 }
        for _ in 0..<count { Vips.deliver(domain: "VIPS", message: "unknown EXIF resolution unit") }
        XCTAssertEqual(seen.withLock { $0 }, count)
        let (first, last) = (depths.withLock { $0.first }, depths.withLock { $0.last })
        XCTAssertEqual(depths.withLock { $0.count }, 2)
        XCTAssertGreaterThan(first ?? 0, 2, "the frames were counted")
        XCTAssertEqual(first, last, "the 200 000th warning reaches the handler through as many frames as the first")
        XCTAssert(Vips.warningHandler.withLock { $0 } === box, "the handler's box is not re-wrapped")
    }

    /// A damage warning raised anywhere while a rendering runs sends it to run again alone, and what it meets alone
    /// is its own; a rendering beside which nothing warned runs once.
    func testARenderingBesideADamageWarningRunsAgainAloneAndKeepsOnlyItsOwnWarnings() throws {
        _ = TestSupport.started  // the run alone clears libvips' error buffer, which needs libvips started
        var calls = 0
        let (quiet, quietAlone) = try Attribution.attributed { () -> Int in calls += 1; return 7 }
        XCTAssertEqual(quiet, 7)
        XCTAssertNil(quietAlone, "nothing warned: one run")
        XCTAssertEqual(calls, 1)

        calls = 0
        let (value, alone) = try Attribution.attributed { () -> Int in
            calls += 1
            // The first run meets another photo's damage (raised from another thread); the second meets its own.
            if calls == 1 {
                let delivered = DispatchSemaphore(value: 0)
                Thread { Vips.deliver(domain: "VIPS", message: "read gave 1 warnings"); delivered.signal() }.start()
                delivered.wait()
            } else {
                Vips.deliver(domain: "VIPS", message: "unknown EXIF resolution unit")
            }
            return 8
        }
        XCTAssertEqual(value, 8)
        XCTAssertEqual(calls, 2, "run again alone after a damage warning")
        XCTAssertEqual(alone?.warnings, ["unknown EXIF resolution unit"], "only the warnings of the run alone")
        XCTAssertTrue(Attribution.isDamage("read gave 1 warnings"))
        XCTAssertFalse(Attribution.isDamage("unknown EXIF resolution unit"))
    }

    /// The decoders' words for damaged data, as they reach album through libvips' warnings, are damage; metadata
    /// quirks are not. (A jpegload JPEG is judged by libjpeg's own check first, `JPEGCheck`; these words still count
    /// for what libjpeg says through other loaders, and for libpng and zlib.)
    func testTheDecodersDamageWordsAreDamage() {
        for words in ["read gave 1 warnings", "VipsJpeg: Corrupt JPEG data: 28 extraneous bytes before marker 0xd9",
                      "VipsJpeg: Premature end of JPEG file", "IDAT: CRC error", "not enough data", "IDAT: Too much image data",
                      "IDAT: Extra compressed data", "IDAT: incorrect header check", "zTXt: invalid distance too far back"] {
            XCTAssertTrue(Attribution.isDamage(words), words)
        }
        for words in ["unknown EXIF resolution unit", "unknown JFIF resolution unit", "error in tile 0 x 192"] {
            XCTAssertFalse(Attribution.isDamage(words), words)
        }
    }

    func testNamesThatAreNotUTF8SurviveTheRoundTrip() {
        let raw: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8) + [0xFF, 0xC3]
        let text = NativePath.string(raw)
        XCTAssertEqual(NativePath.bytes(text), raw)
        XCTAssertEqual(NativePath.string(Array("ünïcødé 写真 📷".utf8)), "ünïcødé 写真 📷")
    }
}
