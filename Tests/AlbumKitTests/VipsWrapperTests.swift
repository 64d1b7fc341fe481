import Synchronization
import XCTest
@testable import Vips

final class VipsWrapperTests: XCTestCase {
    /// A long run sees hundreds of thousands of libvips warnings; each must cost the same as the first. (The handler
    /// once lived in a Mutex as a bare closure and gained a thunk per warning: a run hung after ~100 000.)
    func testWarningsReachTheHandlerAtConstantCost() {
        let seen = Mutex(0)
        Vips.setWarningHandler { _ in seen.withLock { $0 += 1 } }
        defer { Vips.setWarningHandler { _ in } }
        for _ in 0..<200_000 { Vips.deliver(domain: "VIPS", message: "unknown EXIF resolution unit") }
        XCTAssertEqual(seen.withLock { $0 }, 200_000)
    }

    func testWarningsAreCapturedPerThread() {
        let (value, warnings) = WarningCapture.collecting { () -> Int in
            Vips.deliver(domain: "VIPS", message: "read gave 1 warnings")
            return 7
        }
        XCTAssertEqual(value, 7)
        XCTAssertEqual(warnings, ["read gave 1 warnings"])
        XCTAssertTrue(WarningCapture.isDamage(warnings[0]))
        XCTAssertFalse(WarningCapture.isDamage("unknown EXIF resolution unit"))
    }

    func testNamesThatAreNotUTF8SurviveTheRoundTrip() {
        let raw: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8) + [0xFF, 0xC3]
        let text = NativePath.string(raw)
        XCTAssertEqual(NativePath.bytes(text), raw)
        XCTAssertEqual(NativePath.string(Array("ünïcødé 写真 📷".utf8)), "ünïcødé 写真 📷")
    }
}
